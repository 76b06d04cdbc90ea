// What "Send to an audience" needs from the service client: the audience write operations
// (src/core/api/audienceWriteOperations.ts, docs/audiences.md) and reading rows.
import type { ServiceClient } from "../api/types.js";
import type {
  AudienceColumn,
  AudienceColumnInput,
  AudienceDataType as ServiceDataType,
  AudienceRowInput,
  MatchCriterion as ServiceCriterion,
  UpsertedRow,
} from "../api/audienceWriteTypes.js";
import type { AudienceRowsPage } from "../api/types.js";

/** The column types the add-in offers for a sheet's columns (the service knows more). */
export type AudienceDataType = Extract<
  ServiceDataType,
  "TEXT" | "LARGE_TEXT" | "EMAIL" | "PHONE" | "URL" | "INTEGER" | "DECIMAL" | "PERCENT" | "CURRENCY" | "BOOLEAN" | "DATE"
>;

export type AudienceKind = "COMPANY" | "CONTACT";

/** The criteria the add-in recognises in a sheet (the service knows more). */
export type MatchCriterion = Extract<ServiceCriterion, "COMPANY_WEBSITE" | "COMPANY_NAME" | "ZOOMINFO_COMPANY_ID" | "CONTACT_EMAIL" | "ZOOMINFO_CONTACT_ID">;

export type NewAudienceColumn = AudienceColumnInput;
/** A column as the service answers it (`source`: custom, match, enrichment, input, …). */
export type AudienceColumnInfo = AudienceColumn;
export type UpsertRow = AudienceRowInput;
export type UpsertCell = AudienceRowInput["cells"][string];
export type { UpsertedRow, AudienceRowsPage };

export type AudienceWritePort = Pick<
  ServiceClient,
  "createAudience" | "addAudienceColumns" | "listAudienceColumns" | "setMatchCriteria" | "upsertAudienceRows" | "findAudienceRowsByKey"
>;

/** Reading rows back (pages of up to 500). */
export type AudienceRowsPort = Pick<ServiceClient, "getAudienceRows">;

export type AudiencePort = AudienceWritePort & AudienceRowsPort;

/** At most this many rows a bulk upsert (and rows a page read back). */
export const ROWS_PER_REQUEST = 500;
