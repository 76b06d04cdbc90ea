// Audiences through production's studio operations, turned into the contract's documents:
// the list is paged (all pages are read),
// studio documents page with meta {page: {size, number}, total}, and a column's dataType may be
// absent (it is then text; the rows code shows any type it does not know as text).
// Production's column and data types are the service's own lists: the column holding the
// records' ids has the data type ZI_COMPANY_ID or ZI_CONTACT_ID (the contract's INPUT column),
// ZoomInfo's enrichment columns are ZOOMINFO_COMPANY / ZOOMINFO_CONTACT (ENRICHMENT), and
// INTEGER, DECIMAL, PERCENT and CURRENCY hold numbers (NUMBER). Other types pass as they are.
import { LIMITS } from "../../contract/index.js";
import { pageCount } from "./paging.js";

/** The data type a column without one is given: shown as text. */
const TEXT_DATA_TYPE = "TEXT";
const ID_DATA_TYPES: ReadonlySet<string> = new Set(["ZI_COMPANY_ID", "ZI_CONTACT_ID"]);
const NUMBER_DATA_TYPES: ReadonlySet<string> = new Set(["INTEGER", "DECIMAL", "PERCENT", "CURRENCY"]);
const ENRICHMENT_COLUMN_TYPES: ReadonlySet<string> = new Set(["ZOOMINFO_COMPANY", "ZOOMINFO_CONTACT"]);

/** A column's data and column type in the contract's terms. */
function contractTypes(dataType: unknown, columnType: unknown): { dataType: string; columnType: string } {
  const data = typeof dataType === "string" && dataType !== "" ? dataType : TEXT_DATA_TYPE;
  const column = typeof columnType === "string" ? columnType : "UNKNOWN";
  if (ID_DATA_TYPES.has(data)) return { dataType: "STRING", columnType: "INPUT" };
  return { dataType: NUMBER_DATA_TYPES.has(data) ? "NUMBER" : data, columnType: ENRICHMENT_COLUMN_TYPES.has(column) ? "ENRICHMENT" : column };
}

const STUDIO_LIST_PAGE_SIZE = 100;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === "object" && !Array.isArray(v);

function normalizeColumn(column: unknown): unknown {
  if (!isObject(column) || !isObject(column.attributes)) return column;
  const attributes = column.attributes;
  const types = contractTypes(attributes.dataType, attributes.columnType);
  // The published types stay beside the contract's, for the audience writes (docs/audiences.md).
  const published = {
    ...(typeof attributes.dataType === "string" && attributes.dataType !== types.dataType ? { serviceDataType: attributes.dataType } : {}),
    ...(typeof attributes.columnType === "string" && attributes.columnType !== types.columnType ? { serviceColumnType: attributes.columnType } : {}),
  };
  return { ...column, attributes: { ...attributes, ...types, ...published } };
}

/** One audience with every column's dataType and columnType present. */
export function normalizeAudience(audience: unknown): unknown {
  if (!isObject(audience) || !isObject(audience.attributes) || !Array.isArray(audience.attributes.columns)) return audience;
  return { ...audience, attributes: { ...audience.attributes, columns: audience.attributes.columns.map(normalizeColumn) } };
}

/** The items count of a studio document (meta.total), or of the contract's (meta.totalResults). */
function studioTotal(doc: unknown): number | undefined {
  if (!isObject(doc) || !isObject(doc.meta)) return undefined;
  const { total, totalResults } = doc.meta;
  if (typeof total === "number") return total;
  if (typeof totalResults === "number") return totalResults;
  return undefined;
}

/** A studio page's meta in the contract's terms: totalResults, page number and page count. */
export function contractMeta(doc: unknown, pageNumber: number, pageSize: number): { totalResults: number; page: { number: number; total: number } } {
  const items = isObject(doc) && Array.isArray(doc.data) ? doc.data.length : 0;
  const total = studioTotal(doc) ?? (pageNumber - 1) * pageSize + items;
  return { totalResults: total, page: { number: pageNumber, total: pageCount(total, pageSize) } };
}

/**
 * Every page of the audience list, as one contract list document. Stops at meta.total, at an
 * empty page, or when fetchPage answers null (past the end). The 100-page cap still holds.
 */
export async function collectAudienceList(fetchPage: (pageNumber: number, pageSize: number) => Promise<unknown | null>): Promise<{ data: unknown[] }> {
  const data: unknown[] = [];
  for (let n = 1; n <= LIMITS.maxPageNumber; n++) {
    const doc = await fetchPage(n, STUDIO_LIST_PAGE_SIZE);
    if (doc === null || !isObject(doc) || !Array.isArray(doc.data) || doc.data.length === 0) break;
    data.push(...doc.data.map(normalizeAudience));
    const total = studioTotal(doc);
    if (doc.data.length < STUDIO_LIST_PAGE_SIZE || (total !== undefined && data.length >= total)) break;
  }
  return { data };
}
