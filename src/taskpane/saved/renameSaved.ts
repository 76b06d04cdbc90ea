// Renaming a saved search: the new name must be given and not be another search's name (names
// are told apart without regard to case, as saving does).
import type { SavedSearchRecord } from "../../office/workbook.js";

/** Why `name` cannot be the new name of search `id`, or undefined when it can. */
export function renameProblem(list: readonly Pick<SavedSearchRecord, "id" | "name">[], id: string, name: string): string | undefined {
  const wanted = name.trim();
  if (wanted === "") return "Give the search a name.";
  const other = list.find((s) => s.id !== id && s.name.toLowerCase() === wanted.toLowerCase());
  return other ? `Another saved search is named "${other.name}". Choose another name.` : undefined;
}
