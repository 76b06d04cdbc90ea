// "Enrich selection": pick fields, read the selected column of ids, see what it would cost
// (unique ids, cached, under management, most credits), confirm, watch progress with Cancel,
// and get the fields in new columns to the right. Services come in as props; the work is in
// core/enrich (planSelectionEnrichment, runSelectionEnrichment) and the workbook adapter.
import { useEffect, useRef, useState, type ReactNode } from "react";
import {
  Button,
  Checkbox,
  Field,
  Input,
  ProgressBar,
  Radio,
  RadioGroup,
  Text,
  makeStyles,
} from "@fluentui/react-components";
import {
  OUTPUT_FIELDS,
  planSelectionEnrichment,
  runSelectionEnrichment,
  type EnrichIdsProgress,
  type EnrichmentEngine,
  type EntityKind,
  type SelectionEnrichmentPlan,
  type SelectionSource,
  type SpendState,
} from "../../core/enrich/index.js";
import type { RecordMatcher } from "../../core/enrich/matcher.js";
import { MatchSelectionPanel } from "./MatchSelectionPanel.js";
import { PlanActions } from "./PlanActions.js";
import { errorText } from "../errorText.js";
import { overwriteQuestion, useConfirm } from "../ConfirmDialog.js";
import { Notice } from "../Notice.js";
import { entitledChoice, pickerField, useEntitledFields, type EntitledFieldsLookup } from "../entitledFields.js";
import { OrganizationBudgetWarning, OrganizationLimitNotice } from "../usage/OrganizationLimit.js";

export interface EnrichSelectionPanelProps {
  engine: EnrichmentEngine;
  /** The workbook: Excel (src/office/enrichSelection.ts) or the browser workbook. */
  source: SelectionSource;
  /** Asks whether to write over non-empty cells; an in-panel dialog when not given. */
  confirmOverwrite?: (address: string) => Promise<boolean>;
  /** Offers matching a column of websites, names or emails when given. */
  matcher?: RecordMatcher;
  /** The account's credits left for new records (usage), to warn before a run needs more. */
  creditsLeft?: () => Promise<number | undefined>;
  /** How to pick the ids on this page, in place of the default instruction. */
  instructions?: ReactNode;
  /** The account's entitled fields (production): the others are marked and cannot be chosen. */
  entitledFields?: EntitledFieldsLookup;
}

// Fields a search table does not already hold (its name, website, place, revenue and
// employees are there), so the defaults add columns instead of repeating them.
const DEFAULT_FIELDS: Record<EntityKind, string[]> = {
  company: ["employeeRange", "primaryIndustry", "phone", "foundedYear", "description"],
  contact: ["email", "phone", "managementLevel", "jobFunction", "city"],
};

type Phase =
  | { name: "idle" }
  | { name: "busy"; what: string }
  | { name: "planned"; planned: SelectionEnrichmentPlan; credits?: number }
  | { name: "running"; progress: EnrichIdsProgress }
  | { name: "finished"; intent: "success" | "warning" | "error"; message: string };

const useStyles = makeStyles({
  fields: {
    display: "grid",
    gridTemplateColumns: "repeat(auto-fill, minmax(150px, 1fr))",
    maxHeight: "220px",
    overflowY: "auto",
  },
  row: { display: "flex", gap: "8px", marginTop: "8px", alignItems: "end", flexWrap: "wrap" },
  facts: { margin: "8px 0", paddingLeft: "18px" },
});

const count = (n: number) => n.toLocaleString("en-US");

export function EnrichSelectionPanel({ engine, source, confirmOverwrite, creditsLeft, instructions, matcher, entitledFields }: EnrichSelectionPanelProps) {
  const styles = useStyles();
  const [kind, setKind] = useState<EntityKind>("company");
  const [fields, setFields] = useState<string[]>(DEFAULT_FIELDS.company);
  const [phase, setPhase] = useState<Phase>({ name: "idle" });
  const [mode, setMode] = useState<"ids" | "match">("ids");
  const [spend, setSpend] = useState<SpendState | undefined>();
  const [capText, setCapText] = useState("");
  const [capMessage, setCapMessage] = useState<string | undefined>();
  const controller = useRef<AbortController | undefined>(undefined);
  const question = useConfirm();
  const ask =
    confirmOverwrite ?? ((address: string) => question.ask(overwriteQuestion(`Cells in ${address} are not empty. Write the enriched columns over them?`)));

  const refreshSpend = async () => {
    const status = await engine.spendStatus();
    setSpend(status);
    setCapText(String(status.cap));
  };

  useEffect(() => {
    // Today's count and cap, once per engine.
    engine
      .spendStatus()
      .then((status) => {
        setSpend(status);
        setCapText(String(status.cap));
      })
      .catch((error: unknown) => setCapMessage(`Could not read today's count: ${errorText(error)}`));
  }, [engine]);

  const fail = (what: string, error: unknown) =>
    setPhase({ name: "finished", intent: "error", message: `${what}: ${errorText(error)}` });

  const changeKind = (next: EntityKind) => {
    setKind(next);
    setFields(DEFAULT_FIELDS[next]);
    setPhase({ name: "idle" });
  };

  const toggleField = (field: string, on: boolean) =>
    setFields((current) => (on ? [...current, field] : current.filter((f) => f !== field)));

  const plan = async () => {
    setPhase({ name: "busy", what: "Reading the selection" });
    try {
      const read = await source.readIds();
      if (!read.ok) {
        setPhase({ name: "finished", intent: "warning", message: read.message });
        return;
      }
      const [planned, credits] = await Promise.all([
        planSelectionEnrichment(engine, kind, read.selection, fields),
        // The account's figure is advice only: without it the plan still shows.
        creditsLeft ? creditsLeft().catch(() => undefined) : Promise.resolve(undefined),
      ]);
      setSpend(planned.plan.spend);
      setPhase({ name: "planned", planned, ...(credits !== undefined ? { credits } : {}) });
    } catch (error) {
      fail("Could not read the selection", error);
    }
  };

  const run = async (planned: SelectionEnrichmentPlan) => {
    controller.current = new AbortController();
    const total = planned.plan.ids.length;
    setPhase({ name: "running", progress: { recordsDone: 0, recordsTotal: total, requestsDone: 0, requestsTotal: planned.plan.requests } });
    try {
      const { output, cancelled } = await runSelectionEnrichment(engine, planned, {
        signal: controller.current.signal,
        onProgress: (progress) => setPhase({ name: "running", progress }),
      });
      const request = {
        address: planned.selection.address,
        ...(planned.column.header !== undefined ? { headers: output.headers } : {}),
        rows: output.rows,
        numberFormats: output.numberFormats,
      };
      let written = await source.writeColumns({ ...request, overwrite: false });
      if (written.status === "notEmpty") {
        if (!(await ask(written.address))) {
          setPhase({ name: "finished", intent: "warning", message: `Nothing written: cells in ${written.address} hold data. Select a column with empty cells to its right, or allow writing over them.` });
          return;
        }
        written = await source.writeColumns({ ...request, overwrite: true });
      }
      const { enriched, problems } = output.counts;
      const parts = [`Wrote ${output.headers.length} column${output.headers.length === 1 ? "" : "s"} to ${written.address}: ${count(enriched)} row${enriched === 1 ? "" : "s"} enriched`];
      if (problems > 0) parts.push(`${count(problems)} with a problem (see "Enrichment status")`);
      for (const column of output.columnProblems) parts.push(`"${column.header}" not filled: ${column.message.replace(/\.$/, "")}`);
      if (cancelled) parts.push("cancelled before the end; rows not reached say Cancelled");
      setPhase({ name: "finished", intent: problems > 0 || cancelled || output.columnProblems.length > 0 ? "warning" : "success", message: `${parts.join("; ")}.` });
    } catch (error) {
      fail("Enrichment stopped", error);
    } finally {
      controller.current = undefined;
      await refreshSpend().catch((error: unknown) => setCapMessage(`Could not read today's count: ${errorText(error)}`));
    }
  };

  const saveCap = async () => {
    const cap = Number(capText);
    if (!Number.isSafeInteger(cap) || cap < 0) {
      setCapMessage("Enter a whole number of 0 or more.");
      return;
    }
    try {
      await engine.setDailyNewRecordCap(cap);
      await refreshSpend();
      setCapMessage(`Saved: up to ${count(cap)} new records a day.`);
    } catch (error) {
      setCapMessage(`Could not save: ${errorText(error)}`);
    }
  };

  const clearCache = async () => {
    try {
      await engine.clearCache();
      setCapMessage("Cache cleared: the next calculation asks the service again.");
    } catch (error) {
      setCapMessage(`Could not clear the cache: ${errorText(error)}`);
    }
  };

  const busy = phase.name === "busy" || phase.name === "running";
  const allFields = Object.entries(OUTPUT_FIELDS[kind]);
  const entitled = useEntitledFields(entitledFields, kind, phase.name);
  useEffect(() => {
    // Fields the account may not use leave the choice (the defaults hold some) once known.
    setFields((chosen) => {
      const usable = entitledChoice(kind, chosen, entitled);
      return usable.length === chosen.length ? chosen : usable;
    });
  }, [kind, entitled]);
  const modeSwitch = matcher && (
    <RadioGroup layout="horizontal" value={mode} onChange={(_e, data) => setMode(data.value as "ids" | "match")} disabled={busy} aria-label="The selection holds">
      <Radio value="ids" label="Ids" />
      <Radio value="match" label="Websites, names, emails" />
    </RadioGroup>
  );
  if (matcher && mode === "match") {
    return (
      <section aria-label="Enrich selection">
        {modeSwitch}
        <MatchSelectionPanel engine={engine} matcher={matcher} source={source} ask={ask} />
        {question.dialog}
      </section>
    );
  }

  return (
    <section aria-label="Enrich selection">
      {modeSwitch}
      {instructions ?? (
        <Text as="p">Select a column of {kind === "company" ? "company" : "person"} ids in the sheet (a header cell is fine), choose fields, then check what it costs before running.</Text>
      )}
      <RadioGroup layout="horizontal" value={kind} onChange={(_e, data) => changeKind(data.value as EntityKind)} disabled={busy} aria-label="Record type">
        <Radio value="company" label="Companies" />
        <Radio value="contact" label="Contacts" />
      </RadioGroup>
      <fieldset disabled={busy}>
        <legend>Fields ({fields.length} chosen)</legend>
        <div className={styles.fields}>
          {allFields.map(([name, spec]) => (
            <Checkbox key={name} {...pickerField(kind, name, spec.label, entitled)} checked={fields.includes(name)} onChange={(_e, data) => toggleField(name, data.checked === true)} />
          ))}
        </div>
      </fieldset>
      <div className={styles.row}>
        <Button appearance="primary" disabled={busy || fields.length === 0} onClick={() => void plan()}>
          Check selection
        </Button>
      </div>

      {phase.name === "busy" && <ProgressBar aria-label={phase.what} />}

      {phase.name === "planned" && (
        <PlanSummary planned={phase.planned} {...(phase.credits !== undefined ? { credits: phase.credits } : {})} onRun={() => void run(phase.planned)} onBack={() => setPhase({ name: "idle" })} />
      )}

      {phase.name === "running" && (
        <div className={styles.row}>
          <Field
            label="Enriching"
            validationState="none"
            validationMessage={`${count(phase.progress.recordsDone)} of ${count(phase.progress.recordsTotal)} ids · ${count(phase.progress.requestsDone)} of ${count(phase.progress.requestsTotal)} requests`}
          >
            <ProgressBar value={phase.progress.recordsTotal > 0 ? phase.progress.recordsDone / phase.progress.recordsTotal : 0} max={1} aria-label="Enrichment progress" />
          </Field>
          <Button onClick={() => controller.current?.abort()}>Cancel</Button>
        </div>
      )}
      {phase.name === "running" && <OrganizationLimitNotice busy />}

      {phase.name === "finished" && (
        <Notice intent={phase.intent} role="status">
          {phase.message}
        </Notice>
      )}

      <fieldset>
        <legend>Spending and cache</legend>
        {spend && (
          <Text as="p">
            Today: {count(spend.used)} of {count(spend.cap)} new records used. Records already under management cost nothing and do not count.
          </Text>
        )}
        <div className={styles.row}>
          <Field label="New records per day">
            <Input type="number" min={0} value={capText} onChange={(_e, data) => setCapText(data.value)} />
          </Field>
          <Button onClick={() => void saveCap()}>Save</Button>
          <Button onClick={() => void clearCache()} disabled={busy}>
            Clear cache
          </Button>
        </div>
        {capMessage && <Text as="p" role="status">{capMessage}</Text>}
      </fieldset>
      {question.dialog}
    </section>
  );
}

function PlanSummary({ planned, credits, onRun, onBack }: { planned: SelectionEnrichmentPlan; credits?: number; onRun(): void; onBack(): void }) {
  const styles = useStyles();
  const { plan } = planned;
  const allowance = Math.max(0, plan.spend.cap - plan.spend.used);
  return (
    <div role="region" aria-label="Before you run">
      <Text as="p" weight="semibold">
        {planned.selection.address}
        {planned.column.header !== undefined ? ` (header "${planned.column.header}")` : ""}
      </Text>
      <ul className={styles.facts}>
        <li>{count(plan.ids.length)} unique ids</li>
        <li>{count(plan.cachedCount)} already cached (no request)</li>
        <li>{count(plan.underManagementCount)} under management (free)</li>
        <li>
          At most <strong>{count(plan.maxCredits)}</strong> credits, in {count(plan.requests)} request{plan.requests === 1 ? "" : "s"}
        </li>
        {plan.invalidCount > 0 && <li>{count(plan.invalidCount)} cells are not ids and are skipped</li>}
      </ul>
      <OrganizationBudgetWarning requests={plan.requests} />
      {credits !== undefined && plan.maxCredits > credits && (
        <Notice intent="warning" role="alert">
          {credits === 0
            ? `Your account has no credits left for new records. Ids that are not cached or under management will not be enriched: their rows will say "no credits left". Ask your administrator for more credits.`
            : `Your account has ${count(credits)} credits left for new records; this run may need up to ${count(plan.maxCredits)}. Once they are used, the remaining ids will not be enriched and their rows will say "no credits left".`}
        </Notice>
      )}
      {plan.maxCredits > allowance && (
        <Notice intent="warning">
          Only {count(allowance)} new records are left of today's limit; the rest will say so. Raise "New records per day" below to enrich them all.
        </Notice>
      )}
      <PlanActions runLabel={`Enrich ${count(plan.ids.length)} ids`} canRun={plan.ids.length > 0} onRun={onRun} onBack={onBack} />
    </div>
  );
}
