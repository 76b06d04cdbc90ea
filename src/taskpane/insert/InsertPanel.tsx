// "Insert into sheet": column picker, where to put the table, progress with Cancel, and the
// outcome in words. The work itself is insertSearch; this only drives it.
import { useEffect, useRef, useState } from "react";
import {
  Button,
  Checkbox,
  Field,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  ProgressBar,
  Radio,
  RadioGroup,
  makeStyles,
} from "@fluentui/react-components";
import { columnsFor, searchColumns, type SearchKind } from "../../core/sheet/index.js";
import type { InsertTarget } from "../../office/workbook.js";
import { overwriteQuestion, useConfirm } from "../ConfirmDialog.js";
import { useServices } from "../services.js";
import { entitledChoice, pickerField, useEntitledFields } from "../entitledFields.js";
import { markUnderManagement } from "../search/underManagement.js";
import { insertSearch, resumeInsert, type InsertOutcome, type InsertProgress, type InsertRequest, type ResumeState, type SearchSpec } from "./insertSearch.js";
import { OrganizationBudgetWarning, OrganizationLimitNotice } from "../usage/OrganizationLimit.js";

const useStyles = makeStyles({
  columns: { display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(140px, 1fr))" },
  row: { display: "flex", gap: "8px", marginTop: "8px", alignItems: "center" },
});

const count = (n: number) => n.toLocaleString("en-US");

export function ProgressView({ progress, noun }: { progress: InsertProgress; noun: string }) {
  const fraction = progress.rowsExpected > 0 ? progress.rowsWritten / progress.rowsExpected : 0;
  const parts = progress.parts && progress.parts > 1 ? ` · ${count(progress.parts)} parts` : "";
  return (
    <>
      <Field
        label={progress.plan ?? "Inserting"}
        validationState="none"
        validationMessage={`${count(progress.rowsWritten)} of ${count(progress.rowsExpected)} ${noun} written · ${count(progress.pagesFetched)} of ${count(progress.pagesTotal)} pages${parts}`}
      >
        <ProgressBar value={fraction} max={1} aria-label="Insert progress" />
      </Field>
      <OrganizationBudgetWarning requests={Math.max(0, progress.pagesTotal - progress.pagesFetched)} />
      <OrganizationLimitNotice busy />
    </>
  );
}

/** Runs an insert (or a Resume) with progress, Cancel and the outcome; shared by the search and saved-search views. */
export function useInsertRunner() {
  const services = useServices();
  const [progress, setProgress] = useState<InsertProgress | undefined>();
  const [outcome, setOutcome] = useState<InsertOutcome | undefined>();
  const controller = useRef<AbortController | undefined>(undefined);
  const confirm = useConfirm();

  const drive = async (work: (common: Pick<InsertRequest, "client" | "workbook" | "signal" | "onProgress">) => Promise<InsertOutcome>) => {
    controller.current = new AbortController();
    setOutcome(undefined);
    setProgress({ rowsWritten: 0, rowsExpected: 0, pagesFetched: 0, pagesTotal: 0, totalResults: 0, reachableResults: 0 });
    try {
      const result = await work({ client: services.runtime.client, workbook: services.workbook, signal: controller.current.signal, onProgress: setProgress });
      setOutcome(result);
      return result;
    } finally {
      setProgress(undefined);
      controller.current = undefined;
    }
  };
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
        confirmOverwrite: (text) => confirm.ask(overwriteQuestion(text)),
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
  const cancel = () => controller.current?.abort();
  return { run, resume, cancel, progress, outcome, dialog: confirm.dialog, busy: progress !== undefined };
}

export function OutcomeMessage({ outcome, onResume, busy }: { outcome: InsertOutcome; onResume?: (state: ResumeState) => void; busy?: boolean }) {
  const intent = outcome.status === "complete" ? "success" : outcome.status === "failed" ? "error" : "warning";
  const state = outcome.resume;
  return (
    <MessageBar intent={intent} role="status" layout="multiline">
      <MessageBarBody>{outcome.message}</MessageBarBody>
      {state && onResume && (
        <MessageBarActions>
          <Button size="small" disabled={busy} onClick={() => onResume(state)}>
            Resume
          </Button>
        </MessageBarActions>
      )}
    </MessageBar>
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
}

export function InsertPanel({ kind, search, columns, onColumnsChange, onInserted }: InsertPanelProps) {
  const styles = useStyles();
  const { workbook, runtime } = useServices();
  const runner = useInsertRunner();
  const [target, setTarget] = useState<"newSheet" | "selection">("newSheet");
  const noun = kind === "company" ? "companies" : "contacts";
  const all = searchColumns(kind);
  const entitled = useEntitledFields(runtime.entitledFields, kind);
  useEffect(() => {
    // Columns the account may not use leave the choice once the entitlement is known.
    const usable = entitledChoice(kind, columns, entitled);
    if (usable.length !== columns.length) onColumnsChange(usable);
  }, [kind, columns, entitled, onColumnsChange]);

  const start = async () => {
    if ("problem" in search) return;
    const title = kind === "company" ? "Companies" : "Contacts";
    const result = await runner.run(
      search,
      columns,
      target === "selection" ? { kind: "selection" } : { kind: "newSheet", sheetName: title },
      `${title}_search`,
    );
    if (result.table) onInserted?.(result);
  };

  return (
    <section aria-label="Insert into sheet">
      <fieldset>
        <legend>Columns</legend>
        <div className={styles.columns}>
          {all.map((c) => (
            <Checkbox
              key={c.key}
              {...pickerField(kind, c.key, c.header, entitled)}
              checked={columns.includes(c.key)}
              onChange={(_, d) => onColumnsChange(d.checked ? [...columns, c.key] : columns.filter((k) => k !== c.key))}
            />
          ))}
        </div>
      </fieldset>
      {workbook.supportsSelection && (
        <RadioGroup value={target} onChange={(_, d) => setTarget(d.value as "newSheet" | "selection")} aria-label="Where to insert">
          <Radio value="newSheet" label="New worksheet" />
          <Radio value="selection" label="At the selected cell (only into empty cells)" />
        </RadioGroup>
      )}
      <div className={styles.row}>
        <Button appearance="primary" disabled={runner.busy || "problem" in search || columns.length === 0} onClick={() => void start()}>
          Insert into sheet
        </Button>
        {runner.busy && <Button onClick={runner.cancel}>Cancel</Button>}
      </div>
      {"problem" in search && <p>{search.problem}</p>}
      {columns.length === 0 && <p>Choose at least one column.</p>}
      {runner.progress && <ProgressView progress={runner.progress} noun={noun} />}
      {runner.outcome && (
        <OutcomeMessage
          outcome={runner.outcome}
          busy={runner.busy}
          onResume={(state) => void runner.resume(state).then((result) => result.table && onInserted?.(result))}
        />
      )}
      {runner.dialog}
    </section>
  );
}
