// The outcome of an insert in full sentences: what was written where, and, precisely, what was
// not and why. Completeness is only claimed after the check (rows = total, each record once).
import { describeBounds, SEARCH_REACH, type ImportResult, type PartitionPlan } from "../../core/search/index.js";
import type { SearchKind } from "../../core/sheet/index.js";
import type { TableResult } from "../../office/workbook.js";
import { errorText } from "../errorText.js";

const count = (n: number) => n.toLocaleString("en-US");

/** Rows a worksheet has (the header row included). */
export const SHEET_ROWS = 1_048_576;

/**
 * Said before an insert whose rows do not all fit below its start row, and after it: "A worksheet
 * holds at most 1,048,576 rows, so 100 of the 250 reachable companies fit (from row 1,048,476)."
 */
export function sheetLimitText(fit: number, reachable: number, noun: string, startRow: number, tense: "fit" | "were written"): string {
  const from = startRow > 0 ? ` from row ${count(startRow + 1)}` : "";
  return `A worksheet holds at most ${count(SHEET_ROWS)} rows, so ${count(fit)} of the ${count(reachable)} reachable ${noun} ${tense}${from}.`;
}

export interface OutcomeFacts {
  status: "complete" | "incomplete" | "cancelled" | "failed";
  kind: SearchKind;
  sort?: string;
  table?: TableResult;
  rowsWritten: number;
  /** Rows this run set out to write (what fits on a sheet, or the missing pages of a Resume). */
  sheetRows: number;
  plan?: PartitionPlan;
  result?: ImportResult;
  failure?: unknown;
  resumed: boolean;
  pageSize: number;
  /** The user chose not to import a search larger than one search reaches. */
  declined?: boolean;
  /** The user chose not to insert only the rows that fit the worksheet. */
  declinedFit?: boolean;
  /** The worksheet row the table's header went to (zero-based). */
  startRow?: number;
  /** A cancelled import can be continued (its missing pages are known). */
  canContinue?: boolean;
  /** The run replaced the rows of a saved search's table (Refresh). */
  refreshed?: boolean;
}

export function outcomeMessage(f: OutcomeFacts): string {
  const noun = f.kind === "company" ? "companies" : "contacts";
  const where = f.table ? ` in table ${f.table.tableName} on sheet ${f.table.sheetName}` : "";
  const plan = f.plan;
  const missing = f.result?.missing ?? [];
  const sentences: string[] = [];

  if (f.declinedFit) return `Not inserted: nothing was written. Narrow the filters, or insert into a new sheet, where more rows fit.`;
  if (f.declined) {
    return `Not inserted: nothing was written. Narrow the filters to import fewer ${noun}, or Insert again and choose Import all.`;
  }
  if (f.status === "cancelled") {
    if (!f.table) return "Stopped before anything was written.";
    const rest = f.canContinue ? " Continue fetches the rest into the same table." : "";
    return `Stopped. ${count(f.rowsWritten)} of ${count(f.sheetRows)} ${noun} were written${where}; the table holds exactly those rows.${rest}`;
  }
  if (f.status === "failed" && !f.table) return `${errorText(f.failure)} Nothing was written.`;

  const parts = plan && plan.parts.length > 1 ? `, in ${count(plan.parts.length)} parts` : "";
  if (f.status === "complete") {
    if (f.resumed) return `Resumed: the ${count(f.rowsWritten)} missing ${noun} were added${where}. The table now holds every result of the search.`;
    if (f.refreshed)
      return `Refreshed table ${f.table?.tableName ?? ""}${f.table ? ` on sheet ${f.table.sheetName}` : ""}: ${count(f.rowsWritten)} ${noun}${parts}, every result of the search, each once. Columns you added to its right stay.`;
    return `Inserted ${count(f.rowsWritten)} ${noun}${where}${parts}. Every result of the search is there, each once.`;
  }
  if (f.status === "failed") {
    sentences.push(`${errorText(f.failure)} ${count(f.rowsWritten)} ${noun} were written${where} before this happened; the table holds exactly those rows.`);
  } else {
    sentences.push(`${f.resumed ? "Resumed: added" : f.refreshed ? "Refreshed with" : "Inserted"} ${count(f.rowsWritten)} ${noun}${where}${parts}.`);
  }
  if (missing.length > 0) {
    const rows = missing.reduce((sum, k) => sum + Math.min(f.pageSize, (plan?.parts[k.part]?.count ?? 0) - (k.page - 1) * f.pageSize), 0);
    const why = f.status === "failed" ? "" : ` (the service kept failing: ${errorText(f.result?.lastPageError)})`;
    sentences.push(
      `${count(missing.length)} ${missing.length === 1 ? "page" : "pages"} of about ${count(rows)} ${noun} could not be fetched${why}. Resume fetches only those into the same table.`,
    );
  }
  for (const part of plan?.parts.filter((p) => p.unsplittable) ?? []) {
    sentences.push(
      `${count(part.count)} ${noun} are identical on every filter that can split a search (${describeBounds(f.kind, f.sort, part.bounds) || "no splitting filter applies"}); one search reaches ${count(SEARCH_REACH)} of them, so ${count(part.count - SEARCH_REACH)} could not be imported. Narrow the filters to reach them.`,
    );
  }
  for (const m of f.result?.moved ?? []) {
    const label = plan ? describeBounds(f.kind, f.sort, plan.parts[m.part]?.bounds ?? []) : "";
    sentences.push(
      `The results changed during the import${label ? ` (${label})` : ""}: ${count(m.planned)} when counted, ${count(m.now)} later. Some records may be missing or out of date; Refresh gives a consistent table.`,
    );
  }
  if (plan && !f.resumed && f.sheetRows < plan.reachable) {
    sentences.push(sheetLimitText(f.sheetRows, plan.reachable, noun, f.startRow ?? 0, "were written"));
  }
  if (f.status === "incomplete" && sentences.length === 1 && plan) {
    sentences.push(`The search matches ${count(plan.total)} ${noun}; the table is not complete.`);
  }
  return sentences.join(" ");
}
