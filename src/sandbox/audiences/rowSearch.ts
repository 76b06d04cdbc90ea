// Row searches (POST .../rows/actions/search): the RowSearch document checked with the contract's
// schema, then its ids and filter group applied, sorted and paged. The default profile's route
// and the production profile's studio route both answer from here.
import {
  ERROR_CODES,
  LIMITS,
  MAX_ROWS_PAGE_SIZE,
  rowGroupMatches,
  validateRowSearch,
  type RowSearchAttributes,
  type RowSearchDocument,
} from "../../core/contract/index.js";
import { ApiError, ValidationFailure } from "../errors.js";
import type { AudienceRecord, AudienceStore, ColumnRecord, RowRecord } from "./store.js";

/** page[number] and page[size] of a rows read (pages of up to 500; no 100-page cap). */
export function rowsPage(query: Record<string, string | undefined>): { number: number; size: number } {
  const number = Number(query["page[number]"] ?? 1);
  const size = Number(query["page[size]"] ?? LIMITS.defaultPageSize);
  if (!Number.isInteger(number) || number < 1)
    throw new ApiError(400, ERROR_CODES.validation, "page[number] must be a whole number of at least 1.", { parameter: "page[number]" });
  if (!Number.isInteger(size) || size < 1 || size > MAX_ROWS_PAGE_SIZE) {
    throw new ApiError(400, ERROR_CODES.validation, `page[size] must be a whole number from 1 to ${MAX_ROWS_PAGE_SIZE}.`, { parameter: "page[size]" });
  }
  return { number, size };
}

/** The RowSearch attributes of a body (none when the optional body is absent or empty). */
export function parseRowSearch(body: unknown, columns: readonly ColumnRecord[]): RowSearchAttributes {
  const issues = validateRowSearch(body);
  if (issues.length > 0) throw new ValidationFailure(issues);
  const attributes = (body as RowSearchDocument | undefined)?.data?.attributes ?? {};
  const known = new Set(columns.map((c) => c.id));
  attributes.filter?.filters.forEach((f, i) => {
    if (!known.has(f.columnId)) {
      throw new ApiError(400, ERROR_CODES.invalidValue, `Column ${f.columnId} is not in this audience.`, {
        pointer: `/data/attributes/filter/filters/${i}/columnId`,
      });
    }
  });
  return attributes;
}

/** A row's value in a column as text ("" when it has none); the input column holds the record reference. */
export function cellText(row: RowRecord, column: ColumnRecord | undefined): string {
  if (!column) return "";
  if (column.columnType === "INPUT") return row.recordRef;
  const value = row.cells[column.id]?.value;
  return value === undefined || value === null ? "" : String(value);
}

export interface RowOrder {
  column: ColumnRecord;
  descending: boolean;
}

/** The page of rows a search selects, and how many rows it selects in all. */
export function searchRows(
  store: AudienceStore,
  audience: AudienceRecord,
  columns: readonly ColumnRecord[],
  search: RowSearchAttributes,
  page: { number: number; size: number },
  order?: RowOrder,
): { rows: RowRecord[]; total: number } {
  const offset = (page.number - 1) * page.size;
  if (!search.filter && !search.ids && !order) {
    return { rows: store.rowPage(audience.id, offset, page.size), total: audience.recordCount };
  }
  const byId = new Map(columns.map((c) => [c.id, c]));
  let rows = search.ids ? store.rowsByIds(audience.id, [...new Set(search.ids)]) : store.rowPage(audience.id, 0, audience.recordCount);
  const filter = search.filter;
  if (filter) rows = rows.filter((row) => rowGroupMatches(filter, (columnId) => cellText(row, byId.get(columnId))));
  if (order) {
    const direction = order.descending ? -1 : 1;
    rows.sort((a, b) => direction * cellText(a, order.column).localeCompare(cellText(b, order.column), "en", { numeric: true }));
  } else {
    rows.sort((a, b) => a.position - b.position);
  }
  return { rows: rows.slice(offset, offset + page.size), total: rows.length };
}
