// Writing audiences through the client (docs/audiences.md): the plain shapes the add-in works
// with, and the operations (audienceWriteOperations.ts implements them, in both profiles).
import type { AudienceDataType, MatchCriterion } from "../contract/index.js";
import type { RequestPriority } from "./requestSpec.js";

export type { AudienceDataType, MatchCriterion } from "../contract/index.js";

/** A CUSTOM column to create. */
export interface AudienceColumnInput {
  name: string;
  dataType: AudienceDataType;
}

/** A column of an audience, as the add-in reads it. */
export interface AudienceColumn {
  columnId: string;
  name: string;
  /** The service's data type (published names: TEXT, INTEGER, ZI_COMPANY_ID, …); computed columns may have none (""). */
  dataType: AudienceDataType | string;
  /**
   * Where the values come from: "custom" (loaded by upserting rows), "match" (the matched
   * record's id, filled by enrichment), "enrichment" (the service's data, filled by enrichment),
   * "input" (a record id the audience was made from), or the service's own column type.
   */
  source?: string;
  /** The match column's mapping: which column is matched as what. */
  matchCriteria?: Array<{ columnId: string; criterion: string }>;
}

export interface CreatedAudience {
  audienceId: string;
  name: string;
  kind: "COMPANY" | "CONTACT";
  /** The columns in the order created (their ids are what rows are written with). */
  columns: AudienceColumn[];
}

export type AudienceCellValue = string | number | boolean | null;

/** A row to upsert: with `rowId` it updates that row (only the cells given), without it creates one. */
export interface AudienceRowInput {
  rowId?: string;
  /** Values by column id; null (or "") clears the cell. */
  cells: Record<string, AudienceCellValue>;
}

/** One upserted row, in the order sent. */
export interface UpsertedRow {
  rowId: string;
  /** Whether the row was created (sent without a rowId) rather than updated. */
  created: boolean;
  /** The state of each cell sent (RESULT, BLANK, ERROR, …); `error` is the service's reason for a refused value. */
  cells: Array<{ columnId: string; state: string; error?: string }>;
}

export interface AudienceFolder {
  folderId: string;
  name: string;
}

export interface AudienceWriteOptions {
  signal?: AbortSignal;
  /** Who waits for it (default interactive; row writes default to bulk). */
  priority?: RequestPriority;
}

/** Audience writes (docs/audiences.md); part of ServiceClient. */
export interface AudienceWriteOperations {
  /** Creates a CUSTOM audience (in `folderId`, or in a new folder of its name) with its columns. */
  createAudience(
    input: { name: string; kind: "COMPANY" | "CONTACT"; folderId?: string; columns?: AudienceColumnInput[]; description?: string },
    options?: AudienceWriteOptions,
  ): Promise<CreatedAudience>;
  /** Adds CUSTOM columns; answers the new columns in the order given. */
  addAudienceColumns(audienceId: string, columns: AudienceColumnInput[], options?: AudienceWriteOptions): Promise<AudienceColumn[]>;
  /** Every column of the audience (from its read), the service's included. */
  listAudienceColumns(audienceId: string, options?: AudienceWriteOptions): Promise<AudienceColumn[]>;
  /**
   * Maps columns to what they identify (website, name, email, id, …), replacing the mapping; "AUTO"
   * lets the service map them. Creates the audience's match column when it has none.
   */
  setMatchCriteria(
    audienceId: string,
    criteria: Array<{ columnId: string; criterion: MatchCriterion }> | "AUTO",
    options?: AudienceWriteOptions,
  ): Promise<AudienceColumn>;
  /**
   * Creates and updates up to 500 rows in one request (more are refused before sending). A value
   * a column's type refuses is that cell's `error`, the rest of the batch is written. A request
   * whose rows all carry a rowId is retried freely; one that creates rows is retried only when
   * the service surely refused it (see findAudienceRowsByKey).
   */
  upsertAudienceRows(audienceId: string, rows: AudienceRowInput[], options?: AudienceWriteOptions): Promise<UpsertedRow[]>;
  /**
   * The rows whose `keyColumnId` cell holds one of `keys` (up to 500): how rows created by a
   * request whose answer was lost are found again, by the add-in's own key column.
   */
  findAudienceRowsByKey(audienceId: string, keyColumnId: string, keys: string[], options?: AudienceWriteOptions): Promise<Map<string, string[]>>;
  /** Deletes up to 1,000 rows (more are refused before sending). */
  deleteAudienceRows(audienceId: string, rowIds: string[], options?: AudienceWriteOptions): Promise<void>;
  renameAudience(audienceId: string, name: string, options?: AudienceWriteOptions): Promise<void>;
  deleteAudience(audienceId: string, options?: AudienceWriteOptions): Promise<void>;
  listFolders(options?: AudienceWriteOptions): Promise<AudienceFolder[]>;
  createFolder(name: string, options?: AudienceWriteOptions): Promise<AudienceFolder>;
}
