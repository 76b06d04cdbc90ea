// A send's result on the sheet: each row's link and its status in words, written in two columns
// beside the table (the add-in's own columns, found again by their headers), and the summary.
import { formatLink } from "./links.js";
import { LINK_HEADER, SEND_STATUS_HEADER, type SheetTable } from "./mapping.js";
import { columnForHeader, type ColumnWrite } from "./sheetPort.js";
import type { RowResult, SendResult } from "./upload.js";

/** A row's result in words, e.g. "Created; Revenue refused: Not a number". */
export function rowStatusText(result: RowResult): string {
  const refused = result.problems.map((p) => `${p.column} refused: ${p.message}`).join("; ");
  switch (result.status) {
    case "created":
      return refused ? `Created; ${refused}` : "Created";
    case "updated":
      return refused ? `Updated; ${refused}` : "Updated";
    case "refused":
      return `Refused: ${result.message ?? "the service refused this row"}`;
    case "unknown":
      return `Not confirmed (${result.message ?? "no answer"}); sending again checks it first`;
    default:
      return `Not sent${result.message && result.message !== "Not sent." ? `: ${result.message}` : ""}`;
  }
}

/**
 * The link and status columns with their headers only: written before a send, so a column beside
 * the table that cannot take them is found before anything goes up (their cells come after).
 */
export function resultColumns(table: SheetTable): [ColumnWrite, ColumnWrite] {
  const linkColumn = columnForHeader(table.headers, LINK_HEADER);
  const statusColumn = columnForHeader(table.headers, SEND_STATUS_HEADER, linkColumn >= table.headers.length ? [LINK_HEADER] : []);
  return [
    { column: linkColumn, header: LINK_HEADER, cells: [] },
    { column: statusColumn, header: SEND_STATUS_HEADER, cells: [] },
  ];
}

/** The link and status cells of every row the send touched (rows not sent keep what they had). */
export function resultWrites(table: SheetTable, result: SendResult): ColumnWrite[] {
  const [links, statuses] = resultColumns(table);
  for (const r of result.rows) {
    if (r.link) links.cells.push({ row: r.row, value: formatLink(r.link) });
    statuses.cells.push({ row: r.row, value: rowStatusText(r) });
  }
  return [links, statuses];
}

export interface SendCounts {
  created: number;
  updated: number;
  refused: number;
  /** Rows with at least one refused cell (among created and updated). */
  withProblems: number;
  unknown: number;
  notSent: number;
}

export function sendCounts(result: SendResult): SendCounts {
  const counts: SendCounts = { created: 0, updated: 0, refused: 0, withProblems: 0, unknown: 0, notSent: 0 };
  for (const r of result.rows) {
    counts[r.status]++;
    if (r.problems.length > 0) counts.withProblems++;
  }
  return counts;
}

/** The result in one or two sentences. */
export function sendSummary(result: SendResult): string {
  const c = sendCounts(result);
  const n = (v: number) => v.toLocaleString("en-US");
  const parts = [`${n(c.created)} created`, `${n(c.updated)} updated`];
  if (c.refused > 0) parts.push(`${n(c.refused)} refused`);
  if (c.unknown > 0) parts.push(`${n(c.unknown)} not confirmed`);
  if (c.notSent > 0) parts.push(`${n(c.notSent)} not sent`);
  const head = result.cancelled ? "Cancelled: " : "";
  const cells =
    c.withProblems === 1
      ? " 1 row has a cell the service refused; its status says which and why."
      : c.withProblems > 1
        ? ` ${n(c.withProblems)} rows have a cell the service refused; their status says which and why.`
        : "";
  const again = c.unknown + c.notSent > 0 ? " Send again to finish: rows already sent are updated, never added twice." : "";
  return `${head}${parts.join(", ")}.${cells}${again}`;
}
