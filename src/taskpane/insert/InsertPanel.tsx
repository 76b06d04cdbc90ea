// "Insert into sheet": column picker, where to put the table, progress with Cancel, and the
// outcome in words. The work itself is insertSearch; this only drives it.
import { useEffect, useMemo, useRef, useState } from "react";
import { Button, MessageBar, MessageBarActions, MessageBarBody, Radio, RadioGroup, makeStyles } from "@fluentui/react-components";
import { columnsFor, searchColumns, type SearchKind } from "../../core/sheet/index.js";
import type { InsertTarget } from "../../office/workbook.js";
import { SEARCH_REACH } from "../../core/search/index.js";
import { overwriteQuestion, useConfirm, type ConfirmQuestion } from "../ConfirmDialog.js";
import { ColumnCheckboxes, toggledKeys } from "../ColumnCheckboxes.js";
import { FindBox } from "../FindBox.js";
import { useServices } from "../services.js";
import { countOf, RunProgress } from "../run/RunProgress.js";
import { useRun } from "../run/useRun.js";
import type { CompanyItem, ContactItem } from "../../core/contract/index.js";
import { markUnderManagement } from "../search/underManagement.js";
import { columnsEmptyInAnswer, columnsMatching } from "./answerColumns.js";
import { insertSearch, resumeInsert, type InsertOutcome, type InsertProgress, type ResumeState, type SearchSpec } from "./insertSearch.js";
import { OrganizationBudgetWarning, OrganizationLimitNotice } from "../usage/OrganizationLimit.js";

const useStyles = makeStyles({
  row: { display: "flex", gap: "8px", marginTop: "8px", alignItems: "center" },
});

const count = (n: number) => n.toLocaleString("en-US");

/** An insert's progress in the pane's one progress view: rows written of those expected, pages fetched, and Cancel. */
export function ProgressView({ progress, noun, onCancel }: { progress: InsertProgress; noun: string; onCancel(): void }) {
  const parts = progress.parts && progress.parts > 1 ? ` · ${count(progress.parts)} parts` : "";
  return (
    <RunProgress
      label={progress.plan ?? "Inserting"}
      detail={`${countOf(progress.rowsWritten, progress.rowsExpected, `${noun} written`)} · ${countOf(progress.pagesFetched, progress.pagesTotal, "pages")}${parts}`}
      done={progress.rowsWritten}
      total={progress.rowsExpected}
      barLabel="Insert progress"
      onCancel={onCancel}
    >
      <OrganizationBudgetWarning requests={Math.max(0, progress.pagesTotal - progress.pagesFetched)} />
      <OrganizationLimitNotice busy />
    </RunProgress>
  );
}

/** Asked before importing more than one search reaches: the plan, and what it costs. */
export function largeImportQuestion(kind: SearchKind, total: number, plan: string): ConfirmQuestion {
  const noun = kind === "company" ? "companies" : "contacts";
  return {
    title: `Import all ${count(total)} ${noun}?`,
    text: `One search reaches ${count(SEARCH_REACH)} results, so Insert splits this one into parts and writes them all into one table: ${plan}. Searches cost no credits. Cancel stops it at any time; Continue then fetches the rest.`,
    no: "Not now",
    yes: "Import all",
  };
}

/** Asked before an insert whose rows do not all fit the worksheet below where it starts. */
export function sheetFitQuestion(kind: SearchKind, text: string, rows: number): ConfirmQuestion {
  const noun = kind === "company" ? "companies" : "contacts";
  return {
    title: `Insert the first ${count(rows)} ${noun}?`,
    text: `${text} Insert into a new sheet for more, or narrow the filters.`,
    no: "Not now",
    yes: `Insert ${count(rows)}`,
  };
}

/**
 * Runs an insert (or a Resume) with progress, Cancel and the outcome; shared by the search,
 * saved-search and signal views (a signal search's insert goes through `drive`).
 */
export function useInsertRunner() {
  const services = useServices();
  const runner = useRun<InsertProgress, InsertOutcome>();
  const confirm = useConfirm();
  const confirmOverwrite = (text: string) => confirm.ask(overwriteQuestion(text));

  /** One insert at a time: `work` gets the client, the workbook, Cancel's signal and the progress callback. */
  const drive = (
    work: (common: {
      client: typeof services.runtime.client;
      workbook: typeof services.workbook;
      signal: AbortSignal;
      onProgress: (progress: InsertProgress) => void;
    }) => Promise<InsertOutcome>,
  ) =>
    runner.start(({ signal, report }) => work({ client: services.runtime.client, workbook: services.workbook, signal, onProgress: report }), {
      rowsWritten: 0,
      rowsExpected: 0,
      pagesFetched: 0,
      pagesTotal: 0,
      totalResults: 0,
      reachableResults: 0,
    });
  const run = (search: SearchSpec, columnKeys: string[], target: InsertTarget, tableName: string, refreshTableName?: string) =>
    drive((common) =>
      insertSearch({
        ...common,
        search,
        columns: columnsFor(search.kind, columnKeys),
        target,
        tableName,
        ...(refreshTableName ? { refreshTableName } : {}),
        onItems: (items) => markUnderManagement(services.runtime.engine, search.kind, items),
        confirmOverwrite,
        confirmPlan: (plan, text) => confirm.ask(largeImportQuestion(plan.kind, plan.total, text)),
        confirmFit: (text, rows) => confirm.ask(sheetFitQuestion(search.kind, text, rows)),
      }),
    );
  /** Fetches only the pages an earlier import missed into the same table. */
  const resume = (state: ResumeState) =>
    drive((common) =>
      resumeInsert({
        ...common,
        resume: state,
        columns: columnsFor(state.kind, state.columns),
        onItems: (items) => markUnderManagement(services.runtime.engine, state.kind, items),
      }),
    );
  const { progress, outcome, cancel, clear } = runner;
  return { run, resume, drive, confirmOverwrite, ask: confirm.ask, cancel, clear, progress, outcome, dialog: confirm.dialog, busy: runner.running };
}

/** An insert's outcome; it takes the keyboard's focus when it appears (the result of the user's Insert). */
export function OutcomeMessage({ outcome, onResume, busy }: { outcome: InsertOutcome; onResume?: (state: ResumeState) => void; busy?: boolean }) {
  const intent = outcome.status === "complete" ? "success" : outcome.status === "failed" ? "error" : "warning";
  const state = outcome.resume;
  const shown = useRef<HTMLDivElement>(null);
  useEffect(() => shown.current?.focus(), [outcome]);
  return (
    <MessageBar ref={shown} tabIndex={-1} intent={intent} role="status" layout="multiline">
      <MessageBarBody>{outcome.message}</MessageBarBody>
      {state && onResume && (
        <MessageBarActions>
          <Button size="small" disabled={busy} onClick={() => onResume(state)}>
            {outcome.status === "cancelled" ? "Continue" : "Resume"}
          </Button>
        </MessageBarActions>
      )}
    </MessageBar>
  );
}

/** Where an insert puts its table: a new worksheet, or at the selected cell. */
export type TargetChoice = "newSheet" | "selection";

export const insertTarget = (choice: TargetChoice, sheetName: string): InsertTarget =>
  choice === "selection" ? { kind: "selection" } : { kind: "newSheet", sheetName };

/** The choice of target, offered only where the workbook can insert at the selection. */
export function TargetPicker({ value, onChange }: { value: TargetChoice; onChange(choice: TargetChoice): void }) {
  const { workbook } = useServices();
  if (!workbook.supportsSelection) return null;
  return (
    <RadioGroup value={value} onChange={(_, d) => onChange(d.value as TargetChoice)} aria-label="Where to insert">
      <Radio value="newSheet" label="New worksheet" />
      <Radio value="selection" label="At the selected cell (only into empty cells)" />
    </RadioGroup>
  );
}

export interface InsertPanelProps {
  kind: SearchKind;
  /** The search to insert, or a reason it cannot run yet. */
  search: SearchSpec | { problem: string };
  columns: string[];
  onColumnsChange(columns: string[]): void;
  /** Called after a table was written (for saved searches). */
  onInserted?(outcome: InsertOutcome): void;
  /** The previewed records: the columns none of them carries say so. */
  answer?: readonly (CompanyItem | ContactItem)[];
  /** Changes with each new search: an earlier insert's message then goes. */
  searchRun?: number;
}

/** From this many columns on, the list gets a search box. */
const FIND_FROM = 10;

export function InsertPanel({ kind, search, columns, onColumnsChange, onInserted, answer, searchRun }: InsertPanelProps) {
  const styles = useStyles();
  const runner = useInsertRunner();
  const { clear } = runner;
  const [target, setTarget] = useState<TargetChoice>("newSheet");
  const [find, setFind] = useState("");
  const noun = kind === "company" ? "companies" : "contacts";
  const all = searchColumns(kind);
  const shown = columnsMatching(all, find);
  const empty = useMemo(() => columnsEmptyInAnswer(kind, answer), [kind, answer]);
  // A new search: the message about an earlier insert no longer applies.
  useEffect(() => clear(), [searchRun, clear]);

  const start = async () => {
    if ("problem" in search) return;
    const title = kind === "company" ? "Companies" : "Contacts";
    const result = await runner.run(search, columns, insertTarget(target, title), `${title}_search`);
    if (result?.table) onInserted?.(result);
  };

  return (
    <section aria-label="Insert into sheet">
      <ColumnCheckboxes
        legend={`Columns (${columns.length} of ${all.length} chosen)`}
        options={shown.map((c) => ({ key: c.key, label: empty.has(c.key) ? `${c.header} (empty in the preview)` : c.header }))}
        chosen={columns}
        onToggle={(key, checked) => onColumnsChange(toggledKeys(columns, key, checked))}
        arrowKeys
        before={all.length >= FIND_FROM && <FindBox label="Find a column" value={find} onChange={setFind} />}
      >
        {shown.length === 0 && <p>{`No column is named like "${find}".`}</p>}
        {kind === "contact" && (
          <p data-testid="contact-email-phone">
            A contact search gives no email or phone number. To add them, enrich the inserted Contact ID column in the Enrich tab (it uses credits).
          </p>
        )}
      </ColumnCheckboxes>
      <TargetPicker value={target} onChange={setTarget} />
      <div className={styles.row}>
        <Button appearance="primary" disabled={runner.busy || "problem" in search || columns.length === 0} onClick={() => void start()}>
          Insert into sheet
        </Button>
      </div>
      {"problem" in search && <p>{search.problem}</p>}
      {columns.length === 0 && <p>Choose at least one column.</p>}
      {runner.progress && <ProgressView progress={runner.progress} noun={noun} onCancel={runner.cancel} />}
      {runner.outcome && (
        <OutcomeMessage
          outcome={runner.outcome}
          busy={runner.busy}
          onResume={(state) => void runner.resume(state).then((result) => result?.table && onInserted?.(result))}
        />
      )}
      {runner.dialog}
    </section>
  );
}
