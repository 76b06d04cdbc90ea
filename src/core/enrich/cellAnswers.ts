// What a cell gets: its fields from the cache, or the problem a request reported, or that
// nothing answered.
import type { CellsResult } from "./engineTypes.js";
import { toCellValue, type CellValue } from "./cellValues.js";
import { fieldSpec, type EntityKind } from "./fields.js";
import { problems } from "./problems.js";
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
): CellsResult {
  const known = cachedAnswer(cache, kind, id, key, fields);
  if (known) return known;
  const failed = outcomes.find((outcome) => outcome.problem !== undefined);
  if (failed?.problem) return { ok: false, problem: failed.problem };
  return { ok: false, problem: problems.unavailable(`no answer for id ${id}`) };
}
