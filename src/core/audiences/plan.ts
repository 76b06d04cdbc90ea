// The plan of a send, shown before anything goes: rows, requests (one per 500 rows), how many
// rows are new and how many update the audience rows they were linked to, and the rows left out.
import { cellForService, LINK_HEADER, type AudienceMapping, type SheetTable } from "./mapping.js";
import { linkFor, type RowLink } from "./links.js";
import { ROWS_PER_REQUEST, type UpsertCell } from "./port.js";
import { sentColumns } from "./target.js";

/** One table row ready to send. */
export interface PreparedRow {
  /** Position among the table's data rows (0 = the first row below the header). */
  row: number;
  /** Its link to this audience, when it has one. */
  link?: RowLink;
  /** Cells by table column index. */
  cells: Map<number, UpsertCell>;
}

export interface SendPlan {
  rows: PreparedRow[];
  /** Rows with nothing to send. */
  emptyRows: number[];
  /** Upsert requests: one per 500 rows. */
  requests: number;
  /** Rows that update the audience row they are linked to. */
  updates: number;
  /** Rows whose earlier send was not confirmed: looked up by their key before sending. */
  unconfirmed: number;
  /** Rows that become new audience rows. */
  creates: number;
}

/** The column holding the row links, or -1. */
export function linkColumnIndex(table: SheetTable): number {
  return table.headers.findIndex((h) => h.trim().toLowerCase() === LINK_HEADER.toLowerCase());
}

/** The plan for sending `table` as mapped (to `audienceId` when it exists already). */
export function planSend(table: SheetTable, mapping: AudienceMapping, audienceId?: string): SendPlan {
  const sent = sentColumns(mapping);
  const links = linkColumnIndex(table);
  const rows: PreparedRow[] = [];
  const emptyRows: number[] = [];
  table.rows.forEach((values, row) => {
    const cells = new Map<number, UpsertCell>();
    for (const c of sent) cells.set(c.index, cellForService(values[c.index], c.role, table.formats?.[c.index]));
    if ([...cells.values()].every((v) => v === null)) {
      emptyRows.push(row);
      return;
    }
    const link = audienceId !== undefined && links >= 0 ? linkFor(values[links], audienceId) : undefined;
    rows.push({ row, cells, ...(link ? { link } : {}) });
  });
  const updates = rows.filter((r) => r.link && "rowId" in r.link).length;
  const unconfirmed = rows.filter((r) => r.link && "key" in r.link).length;
  return {
    rows,
    emptyRows,
    requests: Math.ceil(rows.length / ROWS_PER_REQUEST),
    updates,
    unconfirmed,
    creates: rows.length - updates - unconfirmed,
  };
}

/** The plan in one line, e.g. "300 rows in 1 request: 300 new". */
export function planSummary(plan: SendPlan): string {
  const parts = [`${plan.creates.toLocaleString("en-US")} new`];
  if (plan.updates > 0) parts.push(`${plan.updates.toLocaleString("en-US")} updated`);
  if (plan.unconfirmed > 0) parts.push(`${plan.unconfirmed.toLocaleString("en-US")} checked first (an earlier send was not confirmed)`);
  const requests = `${plan.requests.toLocaleString("en-US")} ${plan.requests === 1 ? "request" : "requests"}`;
  const empty = plan.emptyRows.length > 0 ? `; ${plan.emptyRows.length.toLocaleString("en-US")} empty rows left out` : "";
  return `${plan.rows.length.toLocaleString("en-US")} rows in ${requests}: ${parts.join(", ")}${empty}.`;
}
