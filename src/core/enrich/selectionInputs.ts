// What the rows of a selected column are as inputs of the pipeline: ids, or (matching) websites,
// company names, emails or person names, with the neighbouring country, city or company columns
// the user picked. Also where a row sits in the sheet, and where output lands beyond the picked
// neighbours.
// Addresses are read and moved by core/sheet/address.ts (the one A1 parser).
export { firstRowOf, shiftColumns } from "../sheet/index.js";
import type { KindName } from "./enrichKinds.js";
import { cellContent, detectColumnContent, type ColumnContent, type MatchCriteria } from "./resolver.js";
import { splitHeader, type SplitColumn } from "./selection.js";

export type MatchContent = Exclude<ColumnContent, "id">;

/** The columns beside the selection the user picked, values top to bottom like the selection. */
export interface NeighbourValues {
  country?: readonly unknown[];
  city?: readonly unknown[];
  /** For names of people: the company's name or id. */
  company?: readonly unknown[];
}

/** How a selection is read: a column of ids, or a list to match (what it holds, and its neighbours). */
export type SelectionMode = { by: "id" } | { by: "match"; content: MatchContent; beside?: NeighbourValues };

/** A first cell that does not read like the rest (e.g. "Website" above websites) is a header. */
export function splitMatchHeader(values: readonly unknown[], content: MatchContent): SplitColumn {
  const [first, ...rest] = values;
  if (values.length > 1 && typeof first === "string" && first.trim() !== "") {
    const firstReads = detectColumnContent([first]);
    const looksLikeHeader =
      content === "name" ? /^(company|company name|name|account|organi[sz]ation|person|contact|full name)$/i.test(first.trim()) : firstReads !== content;
    if (looksLikeHeader) return { header: first, values: rest };
  }
  return { header: undefined, values: [...values] };
}

/** What a selected column most likely holds (ids are matched as names: the id mode is the other choice). */
export function detectMatchContent(values: readonly unknown[]): MatchContent {
  const detected = detectColumnContent(values.slice(0, 200));
  return detected === "id" ? "name" : detected;
}

/** The header and data rows of a selection read in this mode. */
export function splitSelection(values: readonly unknown[], mode: SelectionMode): SplitColumn {
  return mode.by === "id" ? splitHeader(values) : splitMatchHeader(values, mode.content);
}

/**
 * One input per data row: the cell itself (an id), or the criteria of the row with its
 * neighbours. A row of a name column written as a website (or an email) is matched as one: a
 * corrected row may be more precise than its column.
 */
export function rowInputs(kind: KindName, mode: SelectionMode, values: readonly unknown[], offset: number): unknown[] {
  if (mode.by === "id" || (kind !== "company" && kind !== "contact")) return [...values];
  const beside = mode.beside ?? {};
  return values.map((value, index): MatchCriteria => {
    const at = index + offset;
    const reads = cellContent(value);
    if (kind === "contact")
      return mode.content === "email" || reads === "email"
        ? { kind, criteria: { email: value } }
        : { kind, criteria: { name: value, company: beside.company?.[at] } };
    if (mode.content === "website" || reads === "website")
      return { kind, criteria: { website: value, country: beside.country?.[at], city: beside.city?.[at] } };
    return { kind, criteria: { name: value, country: beside.country?.[at], city: beside.city?.[at] } };
  });
}
