// Which insert columns the search answer itself carries. An insert writes the search's answer,
// so the column picker is decided by it (not by the enrichment entitlements, which limit cells
// and Enrich): the preview and the insert show the same fields, and a column that came back
// empty for every previewed record says so.
import type { CompanyItem, ContactItem } from "../../core/contract/index.js";
import { searchColumns, valueAt, type ColumnSpec, type SearchKind } from "../../core/sheet/index.js";
import { matchesWords } from "../FindBox.js";

/** Keys of the columns no previewed record carries (none before a preview, or with no records). */
export function columnsEmptyInAnswer(kind: SearchKind, items: readonly (CompanyItem | ContactItem)[] | undefined): ReadonlySet<string> {
  if (!items || items.length === 0) return new Set();
  const carried = (c: ColumnSpec) =>
    items.some((item) => {
      const v = valueAt(item, c.path);
      return v !== undefined && v !== null && v !== "";
    });
  return new Set(
    searchColumns(kind)
      .filter((c) => !carried(c))
      .map((c) => c.key),
  );
}

/** The columns whose header holds the typed words (case-insensitive); all when nothing is typed. */
export function columnsMatching(columns: readonly ColumnSpec[], query: string): ColumnSpec[] {
  return columns.filter((c) => matchesWords(c.header, query));
}
