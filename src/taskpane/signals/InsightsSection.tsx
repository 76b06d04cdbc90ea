// The Signals tab's insights (docs/signals.md, Insights): the companies of the selection or of a
// table's column (ids, websites or names, matched first), the signal types ticked, then one run
// with progress and Cancel (the pane's run), the insights written as a table on a new sheet.
// Insights are free, so nothing is estimated. The accounts can then be kept as the morning list
// "Insights for my accounts" in Saved searches, refreshed there in place each day.
import { useState } from "react";
import { Button, makeStyles } from "@fluentui/react-components";
import type { InsightType } from "../../core/contract/index.js";
import type { InsightsResult } from "../../core/insights/index.js";
import type { BulkProgress } from "../../core/run/index.js";
import type { TableResult } from "../../office/workbook.js";
import { ColumnCheckboxes, toggledKeys } from "../ColumnCheckboxes.js";
import { useConfirm } from "../ConfirmDialog.js";
import { errorText } from "../errorText.js";
import { Notice } from "../Notice.js";
import { NotInPlan } from "../NotInPlan.js";
import { usePlanAllows } from "../entitledFields.js";
import { countOf, RunProgress } from "../run/RunProgress.js";
import { useRun } from "../run/useRun.js";
import { useServices } from "../services.js";
import { companyInputs } from "../research/companyInputs.js";
import { useReveal, useSelectionSource } from "../research/researchParts.js";
import { splitHeader } from "../../core/enrich/index.js";
import { useSavedSearches } from "../saved/useSavedSearches.js";
import {
  DEFAULT_INSIGHT_TYPES,
  INSIGHT_TYPE_OPTIONS,
  INSIGHTS_ARE_FREE,
  MORNING_LIST_NAME,
  insightOutcomeText,
  morningList,
  writeInsightTable,
} from "./insightTables.js";

const useStyles = makeStyles({
  row: { display: "flex", gap: "8px", marginTop: "8px", alignItems: "end", flexWrap: "wrap" },
  section: { minWidth: 0, overflowWrap: "anywhere" },
});

interface Outcome {
  accounts: string[];
  types: InsightType[];
  result: InsightsResult;
  table?: TableResult;
  error?: string;
}

type Message = { intent: "success" | "warning" | "error"; text: string };

/** The accounts of the selection as given (ids, websites, names), or what is wrong with it. */
function useSelectedAccounts() {
  const source = useSelectionSource();
  return async (): Promise<{ ok: true; accounts: string[] } | { ok: false; message: string }> => {
    if (!source) return { ok: false, message: "Reading the selection needs a workbook." };
    const read = await source.readIds();
    if (!read.ok) return read;
    const inputs = companyInputs(splitHeader(read.selection.values).values);
    const accounts = [...inputs.ids, ...inputs.toMatch];
    if (accounts.length === 0) return { ok: false, message: "The selection holds no company: select cells with company ids, websites or names." };
    return { ok: true, accounts };
  };
}

export function InsightsSection() {
  const styles = useStyles();
  const { runtime, workbook } = useServices();
  const saved = useSavedSearches();
  const confirm = useConfirm();
  const selected = useSelectedAccounts();
  const revealed = useReveal<HTMLDivElement>();
  const run = useRun<BulkProgress, Outcome>();
  const [types, setTypes] = useState<string[]>([...DEFAULT_INSIGHT_TYPES]);
  const [message, setMessage] = useState<Message | undefined>();
  const [kept, setKept] = useState<string | undefined>();
  const inPlan = usePlanAllows()("insights");

  const start = async () => {
    setMessage(undefined);
    setKept(undefined);
    run.clear();
    const read = await selected();
    if (!read.ok) return setMessage({ intent: "warning", text: read.message });
    const asked = types as InsightType[];
    try {
      const outcome = await run.start(async ({ signal, report }) => {
        const result = await runtime.insights.forCompanies({ companies: read.accounts, types: asked, signal, onProgress: report });
        if (result.items.length === 0) return { accounts: read.accounts, types: asked, result };
        const table = await writeInsightTable(workbook, { kind: "newSheet" }, result, undefined, confirm.ask);
        return { accounts: read.accounts, types: asked, result, table };
      });
      if (outcome) setMessage(outcomeMessage(outcome));
    } catch (error) {
      setMessage({ intent: "error", text: errorText(error) });
    }
    revealed.reveal();
  };

  const keep = async (outcome: Outcome) => {
    if (!outcome.table) return;
    try {
      await saved.save(morningList(outcome.accounts, outcome.types, outcome.table.tableName, outcome.result));
      setKept(`Kept as "${MORNING_LIST_NAME}" in Saved searches: refresh it there each morning.`);
    } catch (error) {
      setKept(`Could not keep the list: ${errorText(error)}`);
    }
  };

  return (
    <section aria-label="Insights" className={styles.section}>
      <h3>Insights for your accounts</h3>
      <p>Select the cells of your accounts (ids, websites or names) and tick the signals you want. {INSIGHTS_ARE_FREE}</p>
      <ColumnCheckboxes
        legend={`Signals (${types.length} chosen)`}
        options={INSIGHT_TYPE_OPTIONS}
        chosen={types}
        onToggle={(key, checked) => setTypes(toggledKeys(types, key, checked))}
        disabled={run.running}
        scroll
        arrowKeys
      />
      <NotInPlan allowance={inPlan} />
      <div className={styles.row}>
        <Button appearance="primary" disabled={run.running || types.length === 0 || !inPlan.allowed} onClick={() => void start()}>
          Get insights
        </Button>
      </div>
      {run.running && run.progress && (
        <RunProgress
          label={countOf(run.progress.done, run.progress.total, "companies")}
          done={run.progress.done}
          total={run.progress.total}
          barLabel="Insights progress"
          onCancel={run.cancel}
        />
      )}
      <div ref={revealed.ref} tabIndex={-1}>
        {message && (
          <Notice intent={message.intent} role={message.intent === "error" ? "alert" : "status"} testId="insights-message">
            {message.text}
          </Notice>
        )}
      </div>
      {run.outcome?.table && !kept && (
        <div className={styles.row}>
          <Button onClick={() => void keep(run.outcome!)}>Keep as my morning list</Button>
        </div>
      )}
      {kept && <p role="status">{kept}</p>}
      {confirm.dialog}
    </section>
  );
}

function outcomeMessage(outcome: Outcome): Message {
  const { result } = outcome;
  if (result.failure !== undefined && result.items.length === 0) return { intent: "error", text: errorText(result.failure) };
  if (result.items.length === 0)
    return { intent: "warning", text: `No insights of these signals for ${result.companies.toLocaleString("en-US")} companies right now.` };
  const failed = result.failure !== undefined ? ` Some companies could not be read: ${errorText(result.failure)}` : "";
  return { intent: result.failure !== undefined ? "warning" : "success", text: `${insightOutcomeText(result, outcome.table)}${failed}` };
}
