// Research results as sheet columns: the sheet's own itemsToRows makes the rows, so typing and
// text safety (a service string is written as text, never a formula) are the sheet's.
import { itemsToRows, type CellValue, type ColumnSpec } from "../sheet/index.js";
import type { StoredBriefing } from "./briefingStore.js";
import type { MergedLookalike } from "./lookalikes.js";
import type { AccountContact } from "./recommendations.js";

const col = (key: string, header: string, type: ColumnSpec["type"], byDefault = true): ColumnSpec => ({ key, header, type, path: key, byDefault });

export const LOOKALIKE_COLUMNS: readonly ColumnSpec[] = [
  col("rank", "Rank", "integer"),
  col("companyId", "Company id", "integer"),
  col("companyName", "Company name", "text"),
  { ...col("score", "Score", "number"), numberFormat: "0.000" },
  col("seeds", "Similar to", "text"),
  col("industry", "Industry", "text"),
  col("revenueRange", "Revenue range", "text"),
  col("employeeRange", "Employee range", "text"),
  col("country", "Country", "text"),
];

export const CONTACT_RECOMMENDATION_COLUMNS: readonly ColumnSpec[] = [
  col("accountId", "Account id", "integer"),
  col("rank", "Rank", "integer"),
  col("contactId", "Contact id", "integer"),
  col("contactName", "Contact name", "text"),
  col("jobTitle", "Job title", "text"),
  col("companyName", "Company name", "text"),
  { ...col("score", "Score", "number"), numberFormat: "0.000" },
  col("brief", "Brief", "text"),
  { ...col("reRankingScore", "Re-ranking score", "number", false), numberFormat: "0.000" },
];

export const BRIEFING_COLUMNS: readonly ColumnSpec[] = [col("companyId", "Company id", "integer"), col("briefing", "Briefing", "text")];

/** The columns chosen by key, in the table's order; the defaults when none is. */
export function chosenColumns(all: readonly ColumnSpec[], keys: readonly string[]): ColumnSpec[] {
  const wanted = new Set(keys);
  const chosen = all.filter((c) => wanted.has(c.key));
  return chosen.length > 0 ? chosen : all.filter((c) => c.byDefault);
}

export function lookalikeRows(companies: readonly MergedLookalike[], columns: readonly ColumnSpec[]): CellValue[][] {
  return itemsToRows(
    companies.map((c) => ({ attributes: { ...c, seeds: c.seeds.join(", ") } })),
    columns,
  );
}

export function contactRows(contacts: readonly AccountContact[], columns: readonly ColumnSpec[]): CellValue[][] {
  return itemsToRows(
    contacts.map((c) => ({ attributes: c })),
    columns,
  );
}

/** A briefing as text cells: one row per line, so a long briefing stays within a cell's limit and reads down the sheet. */
export function briefingRows(briefing: Pick<StoredBriefing, "companyId" | "markdown">): CellValue[][] {
  const lines = briefing.markdown.split(/\r?\n/).filter((line) => line.trim() !== "");
  return itemsToRows(
    lines.map((line) => ({ attributes: { companyId: briefing.companyId, briefing: line } })),
    BRIEFING_COLUMNS,
  );
}
