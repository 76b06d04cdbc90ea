// The columns an enrichment job of an audience can be asked to fill: the service's own
// (enrichment, AI) columns. Not the record id (INPUT), not the columns a sheet sent with the list
// (CUSTOM: the sheet's own columns and its "Sheet row key"), not the match column (a job always
// fills it).
import type { Audience } from "../../core/contract/index.js";
import { KEY_COLUMN_NAME } from "../../core/audiences/mapping.js";

type AudienceColumn = Audience["attributes"]["columns"][number];

const NOT_FILLED: ReadonlySet<string> = new Set(["INPUT", "CUSTOM", "MATCH", "ZOOMINFO_MATCH"]);

export function fillableColumns(columns: readonly AudienceColumn[]): AudienceColumn[] {
  return columns.filter((c) => !NOT_FILLED.has(c.attributes.columnType) && c.attributes.name !== KEY_COLUMN_NAME);
}
