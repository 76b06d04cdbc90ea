// What "Send to an audience" needs from the service client: the audience write operations
// (src/core/api/audienceWriteOperations.ts) and reading rows. Written as a narrow port of its
// own so this module's logic is tested against any implementation of these signatures.
import type { AudienceRowsPage, ServiceClient } from "../api/types.js";
import type { RequestPriority } from "../api/requestSpec.js";

export type AudienceDataType = "TEXT" | "LARGE_TEXT" | "EMAIL" | "PHONE" | "URL" | "INTEGER" | "DECIMAL" | "PERCENT" | "CURRENCY" | "BOOLEAN" | "DATE";

export type AudienceKind = "COMPANY" | "CONTACT";

/** The criteria the add-in recognises in a sheet (the service knows more: docs/audiences.md). */
export type MatchCriterion = "COMPANY_WEBSITE" | "COMPANY_NAME" | "ZOOMINFO_COMPANY_ID" | "CONTACT_EMAIL" | "ZOOMINFO_CONTACT_ID";

export interface NewAudienceColumn {
  name: string;
  dataType: AudienceDataType;
}

/** A column as the service answers it. */
export interface AudienceColumnInfo {
  columnId: string;
  name: string;
  dataType: string;
  /** "custom" (loaded by upserting rows), "match", "enrichment", "input", or the service's own type. */
  source?: string;
}

export type UpsertCell = string | number | boolean | null;

export interface UpsertRow {
  rowId?: string;
  /** By column id. */
  cells: Record<string, UpsertCell>;
}

export interface UpsertedRow {
  rowId: string;
  created: boolean;
  cells: Array<{ columnId: string; state: string; error?: string }>;
}

interface CallOptions {
  signal?: AbortSignal;
  priority?: RequestPriority;
}

export interface AudienceWritePort {
  createAudience(
    input: { name: string; kind: AudienceKind; folderId?: string; columns?: NewAudienceColumn[] },
    options?: CallOptions,
  ): Promise<{ audienceId: string; name: string; kind: AudienceKind; columns: AudienceColumnInfo[] }>;
  addAudienceColumns(audienceId: string, columns: NewAudienceColumn[], options?: CallOptions): Promise<AudienceColumnInfo[]>;
  listAudienceColumns(audienceId: string, options?: CallOptions): Promise<AudienceColumnInfo[]>;
  setMatchCriteria(audienceId: string, criteria: Array<{ columnId: string; criterion: MatchCriterion }> | "AUTO", options?: CallOptions): Promise<unknown>;
  /** At most 500 rows a call; results in the order sent. */
  upsertAudienceRows(audienceId: string, rows: UpsertRow[], options?: CallOptions): Promise<UpsertedRow[]>;
  /** The rows whose key column holds one of `keys` (up to 500): key -> row ids. */
  findAudienceRowsByKey(audienceId: string, keyColumnId: string, keys: string[], options?: CallOptions): Promise<Map<string, string[]>>;
}

/** Reading rows back (pages of up to 500, or the rows a filter selects). */
export type AudienceRowsPort = Pick<ServiceClient, "getAudienceRows">;

export type AudiencePort = AudienceWritePort & AudienceRowsPort;

export type { AudienceRowsPage };

/** At most this many rows a bulk upsert (and rows a page read back). */
export const ROWS_PER_REQUEST = 500;
