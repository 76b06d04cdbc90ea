// What a cell gets: its fields from the cache, or the problem a request reported, or that
// nothing answered.
import type { CellsResult } from "./engineTypes.js";
import { toCellValue, type CellValue } from "./cellValues.js";
import { fieldSpec, type EntityKind } from "./fields.js";
import { problems, type CellProblem } from "./problems.js";
import type { RecordCache } from "./recordCache.js";
import type { RecordOutcome } from "./requestBatches.js";

export function cachedAnswer(cache: RecordCache, kind: EntityKind, id: number, key: string, fields: readonly string[]): CellsResult | undefined {
  if (cache.isNoMatch(key)) return { ok: false, problem: problems.noMatch(kind, id, cache.noMatchStatus(key)) };
  const values: CellValue[] = [];
  for (const field of fields) {
    const entry = cache.get(key, field);
    if (!entry) return undefined;
    values.push(toCellValue(fieldSpec(kind, field)?.type, entry.value));
  }
  return { ok: true, fields: fields as string[], values };
}

export function answerFrom(
  cache: RecordCache,
  kind: EntityKind,
  id: number,
  key: string,
  fields: readonly string[],
  outcomes: readonly RecordOutcome[],
  /** "partial": a selection row keeps its other fields when some were refused as unentitled; a cell shows the problem. */
  refusedFields: "partial" | "problem" = "problem",
): CellsResult {
  const known = cachedAnswer(cache, kind, id, key, fields);
  if (known) return known;
  // Fields the service refused as unentitled: the cell says so (a selection row gets its other fields).
  const refused = fields.filter((field) => outcomes.some((outcome) => outcome.unentitledFields?.includes(field)));
  if (refused.length > 0) {
    const rest = fields.filter((field) => !refused.includes(field));
    const others = refusedFields === "partial" && rest.length > 0 ? cachedAnswer(cache, kind, id, key, rest) : undefined;
    return others ? withRefusedFields(others, fields, refused) : { ok: false, problem: problems.unentitled(refused) };
  }
  const failed = outcomes.find((outcome) => outcome.problem !== undefined);
  if (failed?.problem) return { ok: false, problem: failed.problem };
  return { ok: false, problem: problems.unavailable(`no answer for id ${id}`) };
}

/**
 * The answer for every field a selection asked when some were left out (`refused`): their
 * values are empty and each carries the problem a cell asking it alone would show.
 */
export function withRefusedFields(result: CellsResult, fields: readonly string[], refused: readonly string[]): CellsResult {
  if (!result.ok || refused.length === 0) return result;
  const fieldProblems: Record<string, CellProblem> = { ...result.fieldProblems };
  for (const field of refused) fieldProblems[field] = problems.unentitled([field]);
  const values = fields.map((field) => {
    const at = result.fields.indexOf(field);
    return at < 0 ? "" : (result.values[at] ?? "");
  });
  return { ok: true, fields: [...fields], values, fieldProblems };
}

/** What a selection writes for a result: a field that could not be asked shows its problem's message. */
export function shownValues(result: Extract<CellsResult, { ok: true }>): CellValue[] {
  return result.values.map((value, index) => result.fieldProblems?.[result.fields[index] ?? ""]?.message ?? value);
}
