// Parts the Research sections share: the estimate the user confirms before anything that costs,
// a list's progress with Cancel (both the pane's run views), the column choice and the insert of a result table (through the
// workbook adapter, with the pane's one overwrite question), and where the selection is read.
import { useEffect, useRef, useState } from "react";
import { makeStyles } from "@fluentui/react-components";
import type { SelectionSource } from "../../core/enrich/index.js";
import type { CellValue, ColumnSpec } from "../../core/sheet/index.js";
import type { ListProgress } from "../../core/research/index.js";
import { browserSelectionSource } from "../../office/browserSelection.js";
import { browserCompanyIdsInTables, excelCompanyIdsInTables } from "../../office/companyIdsInTables.js";
import { createExcelSelectionSource } from "../../office/enrichSelection.js";
import type { TableResult, WorkbookAdapter } from "../../office/workbook.js";
import { ColumnCheckboxes, toggledKeys } from "../ColumnCheckboxes.js";
import { overwriteQuestion, type ConfirmQuestion } from "../ConfirmDialog.js";
import { errorText } from "../errorText.js";
import { Notice } from "../Notice.js";
import { EstimateConfirm } from "../run/EstimateConfirm.js";
import { countOf, RunProgress } from "../run/RunProgress.js";
import { useServices } from "../services.js";

const useStyles = makeStyles({
  fieldset: { marginTop: "8px" },
});

const count = (n: number) => n.toLocaleString("en-US");

/** The selected cells (in browser mode, the table column picked on the page), as Enrich reads them. */
export function useSelectionSource(): SelectionSource | undefined {
  const services = useServices();
  const [source] = useState(() =>
    services.browserWorkbook ? browserSelectionSource(services.browserWorkbook) : services.mode === "excel" ? createExcelSelectionSource() : undefined,
  );
  return source;
}

/** Reads the company ids already in the workbook's tables (in browser mode the page's), which lookalikes leave out. */
export function useCompaniesInSheet(): () => Promise<string[]> {
  const { browserWorkbook, mode } = useServices();
  if (browserWorkbook) return async () => browserCompanyIdsInTables(browserWorkbook);
  return mode === "excel" ? () => excelCompanyIdsInTables() : async () => [];
}

/** What it will cost, said before anything is sent (the pane's one estimate view); Confirm starts it, Cancel sends nothing. */
export function ResearchEstimate({
  summary,
  blocked,
  confirmLabel,
  onConfirm,
  onCancel,
}: {
  summary: string;
  blocked?: string;
  confirmLabel: string;
  onConfirm(): void;
  onCancel(): void;
}) {
  return (
    <EstimateConfirm
      label="Estimate"
      testId="research-estimate"
      confirmLabel={confirmLabel}
      canConfirm={blocked === undefined}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <Notice intent={blocked ? "warning" : "info"}>
        {summary}
        {blocked ? ` ${blocked}` : ""}
      </Notice>
    </EstimateConfirm>
  );
}

/** A list's progress ("3 of 10 briefings") with Cancel, in the pane's one progress view. */
export function ListProgressView({ progress, noun, onCancel }: { progress: ListProgress; noun: string; onCancel(): void }) {
  return (
    <RunProgress
      label={countOf(progress.done, progress.total, noun)}
      done={progress.done}
      total={progress.total}
      barLabel={`${noun} progress`}
      onCancel={onCancel}
    />
  );
}

/** Which columns the table gets (the defaults checked). */
export function ColumnChoice({ columns, chosen, onChange }: { columns: readonly ColumnSpec[]; chosen: readonly string[]; onChange(keys: string[]): void }) {
  const styles = useStyles();
  return (
    <ColumnCheckboxes
      className={styles.fieldset}
      legend="Columns"
      options={columns.map((c) => ({ key: c.key, label: c.header }))}
      chosen={chosen}
      onToggle={(key, checked) => onChange(toggledKeys(chosen, key, checked))}
    />
  );
}

export const defaultKeys = (columns: readonly ColumnSpec[]) => columns.filter((c) => c.byDefault).map((c) => c.key);

export interface ResearchTableRequest {
  workbook: WorkbookAdapter;
  sheetName: string;
  tableName: string;
  columns: readonly ColumnSpec[];
  rows: readonly (readonly CellValue[])[];
  ask(question: ConfirmQuestion): Promise<boolean>;
}

/** A result table on a new worksheet (nothing is written over). */
export async function insertResearchTable(request: ResearchTableRequest): Promise<TableResult> {
  const writer = await request.workbook.createTable({
    target: { kind: "newSheet", sheetName: request.sheetName },
    tableName: request.tableName,
    columns: request.columns,
    expectedRows: request.rows.length,
    confirmOverwrite: (text) => request.ask(overwriteQuestion(text)),
  });
  await writer.append(request.rows);
  return writer.finish();
}

const insertedText = (table: TableResult, noun: string) =>
  `Inserted ${count(table.rowsWritten)} ${noun} into table ${table.tableName} on sheet ${table.sheetName}.`;

/** Inserts a panel's result table and says in the panel's message how it went (the rows as `noun`, or the error). */
export async function insertAndSay(request: ResearchTableRequest, noun: string, say: (message: { intent: "success" | "error"; text: string }) => void) {
  try {
    say({ intent: "success", text: insertedText(await insertResearchTable(request), noun) });
  } catch (error) {
    say({ intent: "error", text: errorText(error) });
  }
}

/**
 * Brings a panel's message into view and gives it focus after an action whose button sits below
 * it (Insert under a list: in a 320 px pane the message is above the screen). `ref` goes on the
 * message's wrapper (tabIndex -1); `reveal()` after the action's message is set.
 */
export function useReveal<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [asked, setAsked] = useState(0);
  useEffect(() => {
    if (asked === 0 || !ref.current) return;
    ref.current.scrollIntoView?.({ block: "nearest" });
    ref.current.focus({ preventScroll: true });
  }, [asked]);
  return { ref, reveal: () => setAsked((n) => n + 1) };
}
