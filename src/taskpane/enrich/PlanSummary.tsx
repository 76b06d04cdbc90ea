// "Before you run": what enriching the selection would cost, for a column of ids and for a list
// to match alike (rows, distinct inputs, cached, under management, the most credits, requests),
// with warnings when the account's credits or today's limit will not cover it.
import { Text, makeStyles } from "@fluentui/react-components";
import type { SelectionEnrichmentPlan } from "../../core/enrich/index.js";
import { Notice } from "../Notice.js";
import { OrganizationBudgetWarning } from "../usage/OrganizationLimit.js";
import { PlanActions } from "./PlanActions.js";

const useStyles = makeStyles({
  facts: { margin: "8px 0", paddingLeft: "18px" },
});

const count = (n: number) => n.toLocaleString("en-US");
const LIST_NOUN: Record<string, string> = { website: "websites", name: "company names", email: "email addresses", person: "person names" };

export function PlanSummary({ planned, credits, onRun, onBack }: { planned: SelectionEnrichmentPlan; credits?: number; onRun(): void; onBack(): void }) {
  const styles = useStyles();
  const { plan, mode } = planned;
  const allowance = Math.max(0, plan.spend.cap - plan.spend.used);
  const requests = `in ${count(plan.requests)} request${plan.requests === 1 ? "" : "s"}`;
  const matching = mode.by === "match";
  const noun = matching ? LIST_NOUN[mode.content === "name" && planned.kind === "contact" ? "person" : mode.content] : "ids";
  return (
    <div role="region" aria-label="Before you run">
      <Text as="p" weight="semibold">
        {planned.selection.address}
        {planned.header !== undefined ? ` (header "${planned.header}")` : ""}
      </Text>
      <ul className={styles.facts}>
        {matching ? (
          <li>
            {count(planned.values.length)} rows, {count(plan.unique)} different {noun}
          </li>
        ) : (
          <li>{count(plan.ids.length)} unique ids</li>
        )}
        <li>{count(plan.cachedCount)} {matching ? "answered before" : "already cached"} (no request)</li>
        <li>{count(plan.underManagementCount)} under management or free (no credit)</li>
        <li>
          At most <strong>{count(plan.maxCredits)}</strong> credits, {requests}
          {matching ? "; a row that does not match costs nothing" : ""}
        </li>
        {plan.invalidCount > 0 && <li>{count(plan.invalidCount)} {matching ? "rows cannot be matched as they are (their status says why)" : "cells are not ids and are skipped"}</li>}
      </ul>
      <OrganizationBudgetWarning requests={plan.requests} />
      {credits !== undefined && plan.maxCredits > credits && (
        <Notice intent="warning" role="alert">
          {credits === 0
            ? `Your account has no credits left for new records. Records that are not cached or under management will not be enriched: their rows will say "no credits left". Ask your administrator for more credits.`
            : `Your account has ${count(credits)} credits left for new records; this run may need up to ${count(plan.maxCredits)}. Once they are used, the remaining rows will not be enriched and will say "no credits left".`}
        </Notice>
      )}
      {plan.maxCredits > allowance && (
        <Notice intent="warning">
          Only {count(allowance)} new records are left of today's limit; the rest will say so. Raise "New records per day" below to enrich them all.
        </Notice>
      )}
      <PlanActions runLabel={matching ? "Match and enrich" : `Enrich ${count(plan.ids.length)} ids`} canRun={plan.unique > 0} onRun={onRun} onBack={onBack} />
    </div>
  );
}
