// The Jobs tab's words for the user: a problem with the choice by row and column names, the
// chosen rows by name, and what to do with no audience yet.
interface IssueLike {
  pointer?: string;
  label?: string;
  rule?: string;
  message: string;
}

/**
 * A problem with the choice in the user's words: rows and columns by their names (not "Rows
 * item 1"), said once (the service's own text often names the row already), no request terms.
 */
export function issueText(issue: IssueLike, rows: readonly string[], names: ReadonlyMap<string, string>, columnNames: readonly string[] = []): string {
  const plain = issue.message.replace(/ when the scope is ROW\./, ".");
  const m = /^\/data\/attributes\/(rows|columns)\/(\d+)$/.exec(issue.pointer ?? "");
  if (!m) return plain;
  const index = Number(m[2]);
  if (m[1] === "rows") {
    const id = rows[index] ?? "";
    const who = names.get(id) ? `Row "${names.get(id)}"` : `"${id}"`;
    if (issue.rule === "uuid") return `${who} is not a row id: row ids look like 3f2b1c9e-1234-4abc-9def-0123456789ab.`;
    const rest = issue.label && plain.startsWith(issue.label) ? plain.slice(issue.label.length).trim() : plain;
    return rest.includes(id) ? rest.replace(`Row ${id}`, who) : `${who}: ${rest}`;
  }
  const column = columnNames[index] ?? `Column ${index + 1}`;
  const rest = issue.label && plain.startsWith(issue.label) ? plain.slice(issue.label.length).trim() : plain;
  return `Column "${column}": ${rest}`;
}

/** What the Jobs tab says when the account has no audience yet, and what to do next. */
export const NO_AUDIENCES =
  "You have no audiences yet. An audience is a saved list of companies or contacts; create one in the service's web app (its Audiences page), then press Refresh audiences here to enrich it.";

/** "3 rows chosen: Acme, Globex, 1f2e…" — names where known, the first few only. */
export function chosenText(rowIds: readonly string[], names: ReadonlyMap<string, string>): string {
  const head = `${rowIds.length} row${rowIds.length === 1 ? "" : "s"} chosen`;
  if (rowIds.length === 0) return head;
  const shown = rowIds.slice(0, 5).map((id) => names.get(id) ?? id);
  return `${head}: ${shown.join(", ")}${rowIds.length > 5 ? `, and ${rowIds.length - 5} more` : ""}`;
}
