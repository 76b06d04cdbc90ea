// The stored shape of saved searches (the workbook's settings), as a TypeBox schema checked with the
// contract's validator. Loaded with import() by the workbook adapters (src/office), so the first screen does not
// carry the validator.
import { Type, type Static } from "@sinclair/typebox";
import { compiledCheck, RecordKind } from "../contract/index.js";

const PageKeySchema = Type.Object({ part: Type.Number(), page: Type.Number() });

/** What Resume needs of an import that could not fetch every page: plain data, kept with a saved search. */
export const ResumeStateSchema = Type.Object({
  kind: RecordKind,
  sort: Type.Optional(Type.String()),
  tableName: Type.String(),
  columns: Type.Array(Type.String()),
  pageSize: Type.Number(),
  parts: Type.Array(Type.Object({ filters: Type.Record(Type.String(), Type.Unknown()), count: Type.Number() })),
  missing: Type.Array(PageKeySchema),
  total: Type.Number(),
});

export type ResumeState = Static<typeof ResumeStateSchema>;

/** A morning list ("Insights for my accounts"): its accounts as given, the types asked, the insights seen at the last refresh. */
export const InsightListSchema = Type.Object({ accounts: Type.Array(Type.String()), types: Type.Array(Type.String()), seen: Type.Array(Type.String()) });
export type InsightList = Static<typeof InsightListSchema>;

export const SavedSearchRecordSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  kind: RecordKind,
  filters: Type.Record(Type.String(), Type.Unknown()),
  sort: Type.Optional(Type.String()),
  columns: Type.Array(Type.String()),
  /** The table the search was last written to, for Refresh. */
  tableName: Type.Optional(Type.String()),
  /** Pages an import of this search could not fetch, for Resume after the pane was closed. */
  pendingImport: Type.Optional(ResumeStateSchema),
  /** Set on a morning list of insights (the Saved tab refreshes its table in place), not a search. */
  insights: Type.Optional(InsightListSchema),
  savedAt: Type.String(),
});
export type SavedSearchRecord = Static<typeof SavedSearchRecordSchema>;

/** Parses stored saved searches, dropping anything that is not one (the others are kept). */
export function parseSavedSearches(raw: unknown): SavedSearchRecord[] {
  let value = raw;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      return [];
    }
  }
  if (!Array.isArray(value)) return [];
  const check = compiledCheck(SavedSearchRecordSchema);
  return value.filter((v): v is SavedSearchRecord => check.Check(v));
}
