// Rows for a list of ids in one query: the statement's one parameter takes the ids as a JSON
// array, as in `WHERE id IN (SELECT value FROM json_each(?))`.
import type Database from "better-sqlite3";

/** The rows of the ids, by id (an id with no row is absent); no query when there are no ids. */
export function rowsOfIds<T extends { id: number }>(statement: Database.Statement, ids: readonly number[]): Map<number, T> {
  const out = new Map<number, T>();
  if (ids.length) for (const row of statement.all(JSON.stringify(ids)) as T[]) out.set(row.id, row);
  return out;
}
