// A list rolled up by corporate family (docs/accounts.md): each row of the user's own table (an
// account, a lead, a deal) with its company's ultimate parent beside it (Enrich selection with
// the hierarchy kind writes it), summed per family into a table: the family's top company, how
// many rows, and the sums of the numeric columns the user picks. Pure: the pane reads and writes.

/** One row of the user's table: its company's ultimate parent (empty when not found) and the values of the columns to sum. */
export interface RollUpRow {
  ultimateParentId: unknown;
  ultimateParentName: unknown;
  values: readonly unknown[];
}

export interface FamilySummary {
  /** The family's top company; undefined for the rows whose company was not found. */
  ultimateParentId: number | undefined;
  ultimateParentName: string;
  rows: number;
  /** One sum per column summed, in the order given (cells that are not numbers count as nothing). */
  sums: number[];
}

/** What the summary calls the rows whose company has no family found. */
export const NO_FAMILY = "No family found";

/** A cell's number: a number, or text of one ("1,200", " 35.5 "); anything else is none. */
function numberOf(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value !== "string") return undefined;
  const text = value.replace(/[,\s]/g, "");
  if (!/^-?(\d+\.?\d*|\.\d+)$/.test(text)) return undefined;
  return Number(text);
}

const idOf = (value: unknown): number | undefined => {
  const n = numberOf(value);
  return n !== undefined && Number.isSafeInteger(n) && n > 0 ? n : undefined;
};

/** The families of the rows, most rows first (then by name); the rows with no family found last. */
export function familySummaries(rows: readonly RollUpRow[], columns: number): FamilySummary[] {
  const byFamily = new Map<number | undefined, FamilySummary>();
  for (const row of rows) {
    const id = idOf(row.ultimateParentId);
    const name = id === undefined ? NO_FAMILY : String(row.ultimateParentName ?? "").trim();
    const summary = byFamily.get(id) ?? { ultimateParentId: id, ultimateParentName: name, rows: 0, sums: Array.from({ length: columns }, () => 0) };
    if (summary.ultimateParentName === "" && name !== "") summary.ultimateParentName = name;
    summary.rows += 1;
    for (let c = 0; c < columns; c += 1) summary.sums[c]! += numberOf(row.values[c]) ?? 0;
    byFamily.set(id, summary);
  }
  const found = [...byFamily.values()].filter((s) => s.ultimateParentId !== undefined);
  found.sort((a, b) => b.rows - a.rows || a.ultimateParentName.localeCompare(b.ultimateParentName));
  const missing = byFamily.get(undefined);
  return missing ? [...found, missing] : found;
}

/** The summary as a table to insert: headers, then one row per family. */
export function familySummaryTable(summaries: readonly FamilySummary[], columnNames: readonly string[]): { headers: string[]; rows: (string | number)[][] } {
  return {
    headers: ["Ultimate parent id", "Ultimate parent", "Rows", ...columnNames.map((name) => `Sum of ${name}`)],
    rows: summaries.map((s) => [s.ultimateParentId ?? "", s.ultimateParentName, s.rows, ...s.sums]),
  };
}
