// The audience (studio) operations and folders of the operation table (operations.ts): our /v1
// paths on the specification profile, production's under /studio.
import { AudienceEnrichBody, AudienceDocument, AudienceListDocument, EnrichJobDocument, JobStatusDocument } from "./account.js";
import * as W from "./audienceWrite.js";
import { PATHS } from "./common.js";
import { AUDIENCE_DATA, AUDIENCE_MANAGE, AUDIENCE_READ, at, studio, template, type Operation } from "./operationTypes.js";
import { RowSearchDocument } from "./rowSearch.js";

const P = W.AUDIENCE_WRITE_PATHS;
const audience = template(P.audience, "audienceId");
const folder = template(P.folder, "folderId");
const column = `${audience}/columns/{columnId}`;

export const AUDIENCE_READS = [
  { id: "listAudiences", method: "GET", ...studio(PATHS.audiences, AUDIENCE_READ), answer: AudienceListDocument, credit: "none", idempotent: true },
  { id: "getAudience", method: "GET", ...studio(audience, AUDIENCE_READ), answer: AudienceDocument, credit: "none", idempotent: true },
  {
    id: "listAudienceRows",
    method: "GET",
    specification: at(template(PATHS.audienceRows, "audienceId"), AUDIENCE_DATA),
    credit: "none",
    idempotent: true,
    client: false,
  },
  {
    id: "searchAudienceRows",
    method: "POST",
    ...studio(template(PATHS.audienceRowsSearch, "audienceId"), AUDIENCE_READ),
    body: RowSearchDocument,
    credit: "none",
    idempotent: true,
  },
  { id: "getAudienceRow", method: "GET", production: at(`/studio${audience}/rows/{rowId}`, [AUDIENCE_READ]), credit: "none", idempotent: true, client: false },
  {
    id: "audienceFilterMetadata",
    method: "GET",
    production: at(`/studio${audience}/filter-metadata`, [AUDIENCE_READ]),
    credit: "none",
    idempotent: true,
    client: false,
  },
  // Each enrichment starts a job of its own.
  {
    id: "enrichAudience",
    method: "POST",
    ...studio(template(PATHS.enrichAudience, "audienceId"), AUDIENCE_MANAGE),
    body: AudienceEnrichBody,
    answer: EnrichJobDocument,
    credit: "bulkRecord",
    idempotent: false,
  },
  {
    id: "getJob",
    method: "GET",
    ...studio(template(PATHS.job, "audienceId", "jobId"), AUDIENCE_READ),
    answer: JobStatusDocument,
    credit: "none",
    idempotent: true,
  },
] as const satisfies readonly Operation[];

export const AUDIENCE_WRITES = [
  {
    id: "createAudience",
    method: "POST",
    ...studio(P.audiences, AUDIENCE_MANAGE),
    body: W.CreateAudienceBody,
    answer: W.WrittenAudienceDocument,
    credit: "none",
    idempotent: false,
  },
  {
    id: "patchAudience",
    method: "PATCH",
    ...studio(audience, AUDIENCE_MANAGE),
    body: W.PatchAudienceBody,
    answer: W.WrittenAudienceDocument,
    credit: "none",
    idempotent: true,
  },
  { id: "deleteAudience", method: "DELETE", ...studio(audience, AUDIENCE_MANAGE), credit: "none", idempotent: true },
  {
    id: "addColumns",
    method: "POST",
    ...studio(template(P.addColumns, "audienceId"), AUDIENCE_MANAGE),
    body: W.AddColumnsBody,
    answer: W.ColumnListDocument,
    credit: "none",
    idempotent: false,
  },
  {
    id: "patchColumn",
    method: "PATCH",
    ...studio(column, AUDIENCE_MANAGE, false),
    body: W.PatchColumnBody,
    answer: W.ColumnDocument,
    credit: "none",
    idempotent: true,
  },
  { id: "deleteColumn", method: "DELETE", ...studio(column, AUDIENCE_MANAGE, false), credit: "none", idempotent: true },
  {
    id: "setMatchCriteria",
    method: "POST",
    ...studio(template(P.matchCriteria, "audienceId"), AUDIENCE_MANAGE),
    body: W.MatchCriteriaBody,
    answer: W.ColumnDocument,
    credit: "none",
    idempotent: true,
  },
  {
    id: "upsertRows",
    method: "POST",
    ...studio(template(P.upsertRows, "audienceId"), AUDIENCE_MANAGE, false),
    body: W.UpsertRowsBody,
    answer: W.UpsertedRowsDocument,
    credit: "none",
    idempotent: true,
  },
  {
    id: "bulkUpsertRows",
    method: "POST",
    ...studio(template(P.bulkUpsertRows, "audienceId"), AUDIENCE_MANAGE),
    body: W.BulkUpsertRowsBody,
    answer: W.UpsertedRowsDocument,
    credit: "none",
    idempotent: true,
  },
  {
    id: "deleteRows",
    method: "DELETE",
    ...studio(template(P.deleteRows, "audienceId"), AUDIENCE_MANAGE),
    body: W.DeleteRowsBody,
    answer: W.RowAsyncJobDocument,
    credit: "none",
    idempotent: true,
  },
] as const satisfies readonly Operation[];

/** Folders belong to the account: the specification asks no scope beyond the data role. */
const folders = (path: string, production: string, client: boolean) => ({
  specification: at(path, []),
  production: at(`/studio${path}`, [production]),
  client,
  audiences: true,
});
export const FOLDER_OPERATIONS = [
  { id: "listFolders", method: "GET", ...folders(P.folders, AUDIENCE_READ, true), answer: W.FolderListDocument, credit: "none", idempotent: true },
  {
    id: "createFolder",
    method: "POST",
    ...folders(P.folders, AUDIENCE_MANAGE, true),
    body: W.CreateFolderBody,
    answer: W.FolderDocument,
    credit: "none",
    idempotent: false,
  },
  { id: "getFolder", method: "GET", ...folders(folder, AUDIENCE_READ, false), answer: W.FolderDocument, credit: "none", idempotent: true },
  {
    id: "patchFolder",
    method: "PATCH",
    ...folders(folder, AUDIENCE_MANAGE, false),
    body: W.PatchFolderBody,
    answer: W.FolderDocument,
    credit: "none",
    idempotent: true,
  },
  { id: "deleteFolder", method: "DELETE", ...folders(folder, AUDIENCE_MANAGE, false), credit: "none", idempotent: true },
] as const satisfies readonly Operation[];
