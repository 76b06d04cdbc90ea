// The specification profile's audience writes (docs/audiences.md): the studio operations'
// documents and semantics under our own /v1/audiences and /v1/folders paths. The production
// profile's studio routes call these operations' handlers directly (the same engine, writes.ts).
import type { FastifyInstance } from "fastify";
import {
  AUDIENCE_WRITE_LIMITS,
  AUDIENCE_WRITE_PATHS as P,
  operation,
  validateAddColumnsBody,
  validateCreateAudienceBody,
  validateCreateFolderBody,
  validateDeleteRowsBody,
  validateMatchCriteriaBody,
  validatePatchAudienceBody,
  validatePatchColumnBody,
  validatePatchFolderBody,
  validateUpsertRowsBody,
  type AddColumnsBody,
  type CreateAudienceBody,
  type CreateFolderBody,
  type DeleteRowsBody,
  type MatchCriteriaBody,
  type PatchAudienceBody,
  type PatchColumnBody,
  type PatchFolderBody,
  type UpsertRowsBody,
  type ValidationIssue,
} from "../../core/contract/index.js";
import { requireScope } from "../auth.js";
import { NO_CONTENT, answer, type OperationAnswer, type OperationCall, type OperationTable, type SpecOperation } from "../routes/operations.js";
import { checkedBy } from "../routes/validation.js";
import { emptyBodyIsNone } from "./emptyBody.js";
import { audienceDocument, columnDocument, folderDocument, rowDocument } from "./present.js";
import { mayUse, scopeFor } from "./routes.js";
import type { AudienceRecord, AudienceStore } from "./store.js";
import { notFound, type AudienceWrites } from "./writes.js";

interface Deps {
  store: AudienceStore;
  writes: AudienceWrites;
  operations: OperationTable;
}

type Method = SpecOperation["method"];
type Call = OperationCall<unknown, Record<string, string | undefined>, Record<string, string>>;

/**
 * A route of an operation (its scopes are the table's) with its body schema, the operation's own,
 * checked by the contract's validator (a request with any issue is refused whole, with every
 * issue). The schema is copied: a check belongs to one route's schema.
 */
function serves(
  method: Method,
  url: string,
  id: string,
  handle: (call: Call) => OperationAnswer,
  validate?: (body: unknown) => ValidationIssue[],
): SpecOperation<unknown> {
  const body = operation(id).body;
  const schema = body && validate ? { body: checkedBy({ ...body }, (value) => ({ issues: validate(value ?? undefined) })) } : undefined;
  return { method, url, operation: id, ...(schema ? { schema } : {}), handle };
}

/** Bytes a row upsert may carry: 500 rows of many columns pass the sandbox's usual 1 MiB (the service publishes no limit). */
export const ROWS_BODY_LIMIT = 16 * 1024 * 1024;

type AudienceOfCall = (call: Call) => AudienceRecord;

function writableAudience(store: AudienceStore): AudienceOfCall {
  /** The caller's audience (another account's is answered like a missing one). */
  const audienceOf = ({ principal, params }: Call) => {
    const audience = store.getAudience(params.audienceId!);
    if (!audience || audience.account !== principal.account) throw notFound("No audience has this id.", "audienceId");
    if (!mayUse(principal, audience.type)) requireScope(principal, scopeFor(audience.type));
    return audience;
  };
  return audienceOf;
}

const A = `${P.audiences}/:audienceId`;

function audienceWriteRoutes(app: FastifyInstance, { store, writes, operations }: Deps, audienceOf: AudienceOfCall): void {
  const create = ({ principal, body, query }: Call) => {
    const { attributes } = (body as CreateAudienceBody).data;
    if (!mayUse(principal, attributes.type)) requireScope(principal, scopeFor(attributes.type));
    const columns = (attributes.columns ?? []).map((c) => ({ name: c.attributes.name, dataType: c.attributes.dataType }));
    const audience = writes.createAudience(principal.account, { ...attributes, columns });
    if (query.autoMatchCriteria === "true") writes.setMatchCriteria(audience, undefined);
    return answer({ data: audienceDocument(store.getAudience(audience.id)!, store.columns(audience.id)) }, 201);
  };
  operations.serve(app, serves("POST", P.audiences, "createAudience", create, validateCreateAudienceBody));

  const patch = (call: Call) => {
    const { attributes } = (call.body as PatchAudienceBody).data;
    const changed = writes.patchAudience(audienceOf(call), attributes);
    return answer({ data: audienceDocument(changed, store.columns(changed.id)) });
  };
  operations.serve(app, serves("PATCH", A, "patchAudience", patch, validatePatchAudienceBody));

  const remove = (call: Call) => {
    writes.deleteAudience(audienceOf(call));
    return NO_CONTENT;
  };
  operations.serve(app, serves("DELETE", A, "deleteAudience", remove));
}

function columnRoutes(app: FastifyInstance, { writes, operations }: Deps, audienceOf: AudienceOfCall): void {
  const add = (call: Call) => {
    const added = writes.addColumns(
      audienceOf(call),
      (call.body as AddColumnsBody).data.map((c) => ({ name: c.attributes.name, dataType: c.attributes.dataType })),
    );
    return answer({ data: added.map(columnDocument) }, 201);
  };
  operations.serve(app, serves("POST", `${A}/columns/actions/bulk/create`, "addColumns", add, validateAddColumnsBody));

  const rename = (call: Call) => {
    const audience = audienceOf(call);
    const column = writes.columnOf(audience, call.params.columnId!);
    const { attributes } = (call.body as PatchColumnBody).data;
    return answer({ data: columnDocument(writes.renameColumn(audience, column, attributes.name)) });
  };
  operations.serve(app, serves("PATCH", `${A}/columns/:columnId`, "patchColumn", rename, validatePatchColumnBody));

  const remove = (call: Call) => {
    const audience = audienceOf(call);
    writes.deleteColumn(audience, writes.columnOf(audience, call.params.columnId!));
    return NO_CONTENT;
  };
  operations.serve(app, serves("DELETE", `${A}/columns/:columnId`, "deleteColumn", remove));

  const matchCriteria = (call: Call) => {
    const body = (call.body ?? undefined) as MatchCriteriaBody | undefined;
    return answer({ data: columnDocument(writes.setMatchCriteria(audienceOf(call), body?.data.attributes.matchCriteria)) });
  };
  const route = serves("POST", `${A}/actions/match-criteria`, "setMatchCriteria", matchCriteria, validateMatchCriteriaBody);
  operations.serve(app, { ...route, options: { onRequest: emptyBodyIsNone } });
}

function rowRoutes(app: FastifyInstance, { store, writes, operations }: Deps, audienceOf: AudienceOfCall): void {
  for (const [path, max, id] of [
    ["rows/actions/upsert", AUDIENCE_WRITE_LIMITS.upsertRows, "upsertRows"],
    ["rows/actions/bulk/upsert", AUDIENCE_WRITE_LIMITS.bulkUpsertRows, "bulkUpsertRows"],
  ] as const) {
    const upsert = (call: Call) => {
      const audience = audienceOf(call);
      const rows = writes.upsertRows(audience, (call.body as UpsertRowsBody).data);
      const columns = store.columns(audience.id);
      return answer({ data: rows.map((row) => rowDocument(row, columns)) });
    };
    const route = serves("POST", `${A}/${path}`, id, upsert, (b) => validateUpsertRowsBody(b, max));
    operations.serve(app, { ...route, options: { bodyLimit: ROWS_BODY_LIMIT } });
  }

  const remove = (call: Call) => {
    const jobId = writes.deleteRows(
      audienceOf(call),
      (call.body as DeleteRowsBody).data.map((r) => r.id),
    );
    return answer({ data: { id: jobId, type: "RowAsyncJob" } }, 202);
  };
  operations.serve(app, serves("DELETE", `${A}/rows/actions/bulk/delete`, "deleteRows", remove, validateDeleteRowsBody));
}

function folderRoutes(app: FastifyInstance, { writes, operations }: Deps): void {
  const list = ({ principal }: Call) => {
    const all = writes.folders(principal.account);
    return answer({ data: all.map(folderDocument), meta: { page: { size: all.length, number: 1 }, total: all.length } });
  };
  operations.serve(app, serves("GET", P.folders, "listFolders", list));

  const create = ({ principal, body }: Call) => {
    const { attributes } = (body as CreateFolderBody).data;
    return answer({ data: folderDocument(writes.createFolder(principal.account, attributes.name, attributes.description)) }, 201);
  };
  operations.serve(app, serves("POST", P.folders, "createFolder", create, validateCreateFolderBody));

  const folderOf = ({ principal, params }: Call) => {
    const folder = writes.folder(principal.account, params.folderId!);
    if (!folder) throw notFound("No folder has this id.", "folderId");
    return folder;
  };
  const F = `${P.folders}/:folderId`;
  operations.serve(
    app,
    serves("GET", F, "getFolder", (call) => answer({ data: folderDocument(folderOf(call)) })),
  );

  const patch = (call: Call) => {
    const folder = folderOf(call);
    const { attributes } = (call.body as PatchFolderBody).data;
    return answer({ data: folderDocument(writes.patchFolder(call.principal.account, folder, attributes)) });
  };
  operations.serve(app, serves("PATCH", F, "patchFolder", patch, validatePatchFolderBody));

  const remove = (call: Call) => {
    writes.deleteFolder(folderOf(call));
    return NO_CONTENT;
  };
  operations.serve(app, serves("DELETE", F, "deleteFolder", remove));
}

export function registerAudienceWriteRoutes(app: FastifyInstance, deps: Deps): void {
  const audienceOf = writableAudience(deps.store);
  audienceWriteRoutes(app, deps, audienceOf);
  columnRoutes(app, deps, audienceOf);
  rowRoutes(app, deps, audienceOf);
  folderRoutes(app, deps);
}
