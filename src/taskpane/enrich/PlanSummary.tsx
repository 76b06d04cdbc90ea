// "Before you run": what enriching the selection would cost, for a column of ids and for a list
// to match alike (rows, distinct inputs, cached, under management, the most credits, requests),
// with warnings when the account's credits or today's limit will not cover it.
import { Text, makeStyles } from "@fluentui/react-components";
import { paneMessage, refusals, rowStatus } from "../../core/errors/failure.js";
import { declaredKind, unmatchableRows, type SelectionEnrichmentPlan } from "../../core/enrich/index.js";
import { Notice } from "../Notice.js";
import { OrganizationBudgetWarning } from "../usage/OrganizationLimit.js";
import { EstimateConfirm } from "../run/EstimateConfirm.js";

const useStyles = makeStyles({
  facts: { margin: "8px 0", paddingLeft: "18px" },
});

const count = (n: number) => n.toLocaleString("en-US");
/** What a row left without credits says: the error factory's row status, so the promise is what the rows say. */
const NO_CREDITS_ROW = rowStatus(refusals.noCredits());
const requestsOf = (n: number) => `${count(n)} request${n === 1 ? "" : "s"}`;

/**
 * What a run does within today's limit on new records: the records it asks (free ones, and new
 * ones while the limit lasts), the credits at most, and the requests, the same count the run's
 * progress shows (the records over the limit are never sent).
 */
export function withinTodaysLimit(planned: Pick<SelectionEnrichmentPlan, "kind" | "plan">) {
  const { plan } = planned;
  const allowance = Math.max(0, plan.spend.cap - plan.spend.used);
  const toAsk = plan.underManagementCount + plan.maxCredits;
  const credits = Math.min(plan.maxCredits, allowance);
  const asked = plan.underManagementCount + credits;
  const capped = credits < plan.maxCredits;
  const requests = capped ? Math.ceil(asked / declaredKind(planned.kind).maxInputs) : plan.requests;
  /** Nothing a run would ask is within today's limit: running would only say so on every row. */
  const nothingToRun = toAsk > 0 && asked === 0;
  return { allowance, toAsk, credits, asked, capped, requests, nothingToRun };
}
/** What today's limit leaves of the run; with nothing left, why Enrich cannot start. */
function TodaysLimitNotice({ limit }: { limit: ReturnType<typeof withinTodaysLimit> }) {
  if (limit.nothingToRun)
    return (
      <Notice intent="warning" testId="within-todays-limit">
        <strong>0 of {count(limit.toAsk)} within today&apos;s limit.</strong> Today&apos;s new records are used up, so there is nothing to run. Raise &quot;New
        records per day&quot; below, or run again tomorrow.
      </Notice>
    );
  return (
    <Notice intent="warning" testId="within-todays-limit">
      <strong>
        {count(limit.asked)} of {count(limit.toAsk)} within today&apos;s limit: {requestsOf(limit.requests)}.
      </strong>{" "}
      Only {count(limit.allowance)} new records are left of today&apos;s limit; the other {count(limit.toAsk - limit.asked)} will say so. Raise &quot;New
      records per day&quot; below to enrich them all.
    </Notice>
  );
}

const LIST_NOUN: Record<string, string> = { website: "websites", name: "company names", email: "email addresses", person: "person names" };

export function PlanSummary({ planned, credits, onRun, onBack }: { planned: SelectionEnrichmentPlan; credits?: number; onRun(): void; onBack(): void }) {
  const styles = useStyles();
  const { plan, mode } = planned;
  const limit = withinTodaysLimit(planned);
  const matching = mode.by === "match";
  const unmatchable = unmatchableRows(planned);
  const noun = matching ? LIST_NOUN[mode.content === "name" && planned.kind === "contact" ? "person" : mode.content] : "ids";
  return (
    <EstimateConfirm
      label="Before you run"
      role="region"
      confirmLabel={matching ? "Match and enrich" : `Enrich ${count(plan.ids.length)} ids`}
      canConfirm={plan.unique > 0 && !limit.nothingToRun}
      cancelLabel="Back"
      onConfirm={onRun}
      onCancel={onBack}
    >
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
        <li>
          {count(plan.cachedCount)} {matching ? "answered before" : "already cached"} (no request)
        </li>
        <li>{count(plan.underManagementCount)} under management or free (no credit)</li>
        <li>
          At most <strong>{count(limit.credits)}</strong> credits{limit.capped ? "" : `, in ${requestsOf(limit.requests)}`}
          {matching ? "; a row that does not match costs nothing" : ""}
        </li>
        {unmatchable > 0 && (
          <li>
            {count(unmatchable)} {matching ? "rows cannot be matched as they are (their status says why)" : "cells are not ids and are skipped"}
          </li>
        )}
      </ul>
      <OrganizationBudgetWarning requests={limit.requests} />
      {credits !== undefined && plan.maxCredits > credits && (
        <Notice intent="warning" role="alert">
          {credits === 0
            ? `${paneMessage(refusals.noCredits())} Records that are not cached or under management will not be enriched: their rows will say "${NO_CREDITS_ROW}".`
            : `Your account has ${count(credits)} credits left for new records; this run may need up to ${count(plan.maxCredits)}. Once they are used, the remaining rows will not be enriched and will say "${NO_CREDITS_ROW}".`}
        </Notice>
      )}
      {limit.capped && <TodaysLimitNotice limit={limit} />}
    </EstimateConfirm>
  );
}
