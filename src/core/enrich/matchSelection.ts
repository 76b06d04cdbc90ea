// "Enrich selection" on a list without ids: a column of websites, company names or emails (what
// it holds is detected, and the user can say otherwise), with optional neighbouring country and
// city columns, matched through the matcher, then the chosen fields through the engine. The
// output is the matched id, a match status and the fields, one row per selected row; the rows
// that did not match are listed with their reason so they can be edited and retried.
import { columnIndex, columnLetter } from "../sheet/index.js";
import { shownValues } from "./cellAnswers.js";
import type { CellValue } from "./cellValues.js";
import type { EnrichmentEngine, SelectionPlan } from "./engine.js";
import { fieldSpec, type EntityKind } from "./fields.js";
import type { MatchPlan, MatchProgress, MatchResult, RecordMatcher } from "./matcher.js";
import { detectColumnContent, type ColumnContent, type MatchCriteria } from "./matchKeys.js";
import type { SelectedColumn } from "./selection.js";

export type MatchContent = Exclude<ColumnContent, "id">;

/** The columns beside the selection the user picked, values top to bottom like the selection. */
export interface NeighbourValues {
  country?: readonly unknown[];
  city?: readonly unknown[];
  /** For names of people: the company's name or id. */
  company?: readonly unknown[];
}

export interface MatchSelectionPlan {
  kind: EntityKind;
  content: MatchContent;
  fields: string[];
  selection: SelectedColumn;
  header: string | undefined;
  /** Data rows (below the header). */
  values: unknown[];
  criteria: MatchCriteria[];
  match: MatchPlan;
  /** Requests and credits for fields of records already matched before. */
  known: SelectionPlan;
}

export interface UnmatchedRow {
  /** 1-based row within the data rows. */
  row: number;
  value: string;
  reason: string;
}

interface MatchSelectionResult {
  headers: string[];
  rows: CellValue[][];
  unmatched: UnmatchedRow[];
  counts: { matched: number; unmatched: number; blank: number };
  cancelled: boolean;
}

const MATCH_STATUS_HEADER = "Match status";
const MATCHED = "Matched";

const isBlank = (raw: unknown) => raw === null || raw === undefined || (typeof raw === "string" && raw.trim() === "");

/** A first cell that does not read like the rest (e.g. "Website" above websites) is a header. */
export function splitMatchHeader(values: readonly unknown[], content: MatchContent): { header: string | undefined; values: unknown[] } {
  const [first, ...rest] = values;
  if (values.length > 1 && typeof first === "string" && first.trim() !== "") {
    const firstReads = detectColumnContent([first]);
    const looksLikeHeader = content === "name" ? /^(company|company name|name|account|organi[sz]ation|person|contact|full name)$/i.test(first.trim()) : firstReads !== content;
    if (looksLikeHeader) return { header: first, values: rest };
  }
  return { header: undefined, values: [...values] };
}

/** What a selected column most likely holds (ids are matched as names: the id mode is the other panel). */
export function detectMatchContent(values: readonly unknown[]): MatchContent {
  const detected = detectColumnContent(values.slice(0, 200));
  return detected === "id" ? "name" : detected;
}

function criteriaFor(kind: EntityKind, content: MatchContent, values: readonly unknown[], beside: NeighbourValues, offset: number): MatchCriteria[] {
  return values.map((value, index) => {
    const at = index + offset;
    if (kind === "contact") {
      return content === "email" ? { kind, criteria: { email: value } } : { kind, criteria: { name: value, company: beside.company?.[at] } };
    }
    if (content === "website") return { kind, criteria: { website: value, country: beside.country?.[at], city: beside.city?.[at] } };
    return { kind, criteria: { name: value, country: beside.country?.[at], city: beside.city?.[at] } };
  });
}

export async function planMatchSelection(
  matcher: RecordMatcher,
  engine: EnrichmentEngine,
  options: { kind: EntityKind; content: MatchContent; fields: readonly string[]; selection: SelectedColumn; beside?: NeighbourValues },
): Promise<MatchSelectionPlan> {
  const { kind, content, selection } = options;
  const split = splitMatchHeader(selection.values, content);
  const offset = split.header === undefined ? 0 : 1;
  const criteria = criteriaFor(kind, content, split.values, options.beside ?? {}, offset);
  const match = await matcher.plan(criteria);
  const known = await engine.planSelection(kind, match.knownIds, options.fields);
  return { kind, content, fields: [...options.fields], selection, header: split.header, values: split.values, criteria, match, known };
}

/** A miss's sentence without the Excel wording around it. */
function reasonOf(result: Extract<MatchResult, { ok: false }>): string {
  return result.problem.message;
}

export async function runMatchSelection(
  matcher: RecordMatcher,
  engine: EnrichmentEngine,
  planned: MatchSelectionPlan,
  options: { signal?: AbortSignal; onProgress?: (progress: MatchProgress) => void; retryMisses?: boolean } = {},
): Promise<MatchSelectionResult> {
  const { kind, fields } = planned;
  const rowsToMatch = planned.criteria.map((criteria, index) => ({ criteria, index })).filter(({ index }) => !isBlank(planned.values[index]));
  const results = await matcher.matchMany(
    rowsToMatch.map((row) => row.criteria),
    fields,
    { ...(options.signal ? { signal: options.signal } : {}), ...(options.onProgress ? { onProgress: options.onProgress } : {}), ...(options.retryMisses ? { retryMisses: true } : {}) },
  );
  const byRow = new Map<number, MatchResult>();
  rowsToMatch.forEach((row, i) => {
    const result = results[i];
    if (result) byRow.set(row.index, result);
  });
  const ids = [...new Set(results.flatMap((r) => (r.ok ? [r.id] : [])))];
  const cells = fields.length > 0 ? await engine.enrichIds(kind, ids, fields, options.signal ? { signal: options.signal } : {}) : new Map();

  const headers = [kind === "company" ? "Company ID" : "Person ID", MATCH_STATUS_HEADER, ...fields.map((f) => fieldSpec(kind, f)?.label ?? f)];
  const rows: CellValue[][] = [];
  const unmatched: UnmatchedRow[] = [];
  const counts = { matched: 0, unmatched: 0, blank: 0 };
  planned.values.forEach((value, index) => {
    const result = byRow.get(index);
    if (!result) {
      counts.blank += 1;
      rows.push(headers.map(() => ""));
      return;
    }
    if (!result.ok) {
      counts.unmatched += 1;
      const reason = reasonOf(result);
      unmatched.push({ row: index + 1, value: String(value), reason });
      rows.push(["", reason, ...fields.map(() => "")]);
      return;
    }
    counts.matched += 1;
    const answer = cells.get(result.id);
    if (answer?.ok) rows.push([result.id, MATCHED, ...shownValues(answer)]);
    else rows.push([result.id, answer ? `${MATCHED}; fields not read: ${answer.problem.message}` : MATCHED, ...fields.map(() => "")]);
  });
  return { headers, rows, unmatched, counts, cancelled: options.signal?.aborted ?? false };
}

/** "Sheet1!A1:A20" moved `columns` to the right ("Sheet1!C1:C20"), so output lands beyond the picked neighbours. */
export function shiftColumns(address: string, columns: number): string {
  if (columns <= 0) return address;
  const bang = address.lastIndexOf("!");
  const cells = address.slice(bang + 1).replace(/\$?([A-Z]+)(\$?\d+)/gi, (_m, letters: string, row: string) => `${columnLetter(columnIndex(letters) + columns)}${row.replace("$", "")}`);
  return `${address.slice(0, bang + 1)}${cells}`;
}

