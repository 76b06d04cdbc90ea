// Audiences, columns, rows and filter metadata as production's studio API answers them (its
// published description): every audience has an `origin`, every column the read-only flags
// (isDeletable, isEditable, isExportable, isFilterable, isSortable), column and data types come
// from the service's own lists (the input column holds ZoomInfo ids: data type ZI_COMPANY_ID or
// ZI_CONTACT_ID; enrichment columns are ZOOMINFO_COMPANY / ZOOMINFO_CONTACT; the AI column is
// `AI` without a data type), and every cell has a `value` ("" while it holds none).

/** A column as the core's routes answer it (the specification's types). */
export interface CoreColumn {
  id: string;
  type: string;
  attributes: { name: string; dataType?: string; columnType: string; matchCriteria?: { columnId: string; mappedTo: string }[] };
}

/** An audience as the core's routes answer it. */
export interface CoreAudience {
  id: string;
  type: string;
  attributes: { name: string; description?: string; type: string; recordCount: number; columns: CoreColumn[] };
}

/** Cell values as the core's row documents carry them. */
export interface CoreRow {
  id: string;
  type: string;
  attributes: { values: { columnId: string; value?: unknown; state: string }[] };
}

/** The origin of the sandbox's audiences: made by their owner (production's `CUSTOM`). */
export const AUDIENCE_ORIGIN = "CUSTOM";
const DATA_TYPES: Readonly<Record<string, string>> = { STRING: "TEXT", NUMBER: "DECIMAL", URL: "URL" };
const TEXT_OPERATORS = ["EQUALS", "NOT_EQUALS", "CONTAINS", "DOES_NOT_CONTAINS", "EMPTY", "NOT_EMPTY", "HAS_ONE_OF"] as const;
const NUMBER_OPERATORS = ["EQUALS", "NOT_EQUALS", "EMPTY", "NOT_EMPTY", "GREATER_THAN", "LESS_THAN", "IN_RANGE"] as const;
const NUMBER_TYPES: ReadonlySet<string> = new Set(["NUMBER", "INTEGER", "DECIMAL", "PERCENT", "CURRENCY"]);
/** Operators the row search applies to several values (any of them). */
const MULTIPLE: ReadonlySet<string> = new Set(["EQUALS", "NOT_EQUALS", "CONTAINS", "DOES_NOT_CONTAINS", "HAS_ONE_OF"]);

export const aiColumnId = (audienceId: string): string => `${audienceId}-ai-summary`;

const flags = (editable: boolean, filterable: boolean) => ({
  isDeletable: editable,
  isEditable: editable,
  isExportable: true,
  isFilterable: filterable,
  isSortable: filterable,
});

export function studioColumn(column: CoreColumn, audienceType: string) {
  const { name, dataType, columnType } = column.attributes;
  // Written audiences: their own columns keep the published data type; the match column is ZoomInfo's match.
  if (columnType === "CUSTOM") return { ...column, attributes: { name, columnType, ...(dataType ? { dataType } : {}), ...flags(true, true) } };
  if (columnType === "MATCH") {
    const matchCriteria = column.attributes.matchCriteria ?? [];
    return { ...column, attributes: { name, columnType: "ZOOMINFO_MATCH", ...(dataType ? { dataType } : {}), matchCriteria, ...flags(false, true) } };
  }
  if (columnType === "INPUT") {
    const idType = audienceType === "CONTACT" ? "ZI_CONTACT_ID" : "ZI_COMPANY_ID";
    return { ...column, attributes: { name, columnType: "CUSTOM", dataType: idType, ...flags(false, true) } };
  }
  const enrichment = audienceType === "CONTACT" ? "ZOOMINFO_CONTACT" : "ZOOMINFO_COMPANY";
  const wireType = dataType === undefined ? undefined : (DATA_TYPES[dataType] ?? "TEXT");
  return { ...column, attributes: { name, columnType: enrichment, ...(wireType ? { dataType: wireType } : {}), ...flags(true, true) } };
}

/** The AI column production audiences may carry: research the service fills itself, no data type. */
function aiColumn(audienceId: string) {
  return { id: aiColumnId(audienceId), type: "Column", attributes: { name: "AI summary", columnType: "AI", ...flags(true, false) } };
}

export function studioAudience(audience: CoreAudience) {
  const columns = [...audience.attributes.columns.map((c) => studioColumn(c, audience.attributes.type)), aiColumn(audience.id)];
  return { ...audience, attributes: { ...audience.attributes, origin: AUDIENCE_ORIGIN, columns } };
}

/** A row with a value in every cell, and a blank AI cell when the AI column is shown. */
export function studioRow(row: CoreRow, aiColumnShown: string | undefined) {
  const values = row.attributes.values.map((cell) => ({ ...cell, value: cell.value ?? "" }));
  if (aiColumnShown) values.push({ columnId: aiColumnShown, value: "", state: "BLANK" });
  return { ...row, attributes: { values } };
}

/** Which filter operators each column takes (the row search applies them). */
export function filterMetadataDocument(audienceId: string, columns: readonly CoreColumn[]) {
  const filterMetadata = columns.map((column) => {
    const operators = NUMBER_TYPES.has(column.attributes.dataType ?? "") ? NUMBER_OPERATORS : TEXT_OPERATORS;
    return {
      columnId: column.id,
      isFilterable: true,
      filterOperators: operators.map((operator) => ({ operator, isMultipleSupported: MULTIPLE.has(operator) })),
    };
  });
  filterMetadata.push({ columnId: aiColumnId(audienceId), isFilterable: false, filterOperators: [] });
  return { data: { id: audienceId, type: "AudienceFilterMetadata", attributes: { filterMetadata } } };
}
