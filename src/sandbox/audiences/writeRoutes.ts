// The specification profile's audience writes (docs/audiences.md): the studio operations'
// documents and semantics under our own /v1/audiences and /v1/folders paths. The production
// profile's studio routes reach the same engine (writes.ts) through these routes.
import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  AUDIENCE_WRITE_LIMITS,
  AUDIENCE_WRITE_PATHS as P,
  MEDIA_TYPE,
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
import type { TokenPrincipal } from "../context.js";
import { principalOf } from "../routes/principal.js";
import { checkedBy } from "../routes/validation.js";
import { emptyBodyIsNone } from "./emptyBody.js";
import { audienceDocument, columnDocument, folderDocument, rowDocument } from "./present.js";
import { mayUse, scopeFor } from "./routes.js";
import type { AudienceRecord, AudienceStore } from "./store.js";
import { notFound, type AudienceWrites } from "./writes.js";

interface Deps {
  store: AudienceStore;
  writes: AudienceWrites;
}

/**
 * A route's options: the operation it serves (its scopes are the table's) and its body schema,
 * the operation's own, checked by the contract's validator (a request with any issue is refused
 * whole, with every issue). The schema is copied: a check belongs to one route's schema.
 */
function serves(id: string, validate?: (body: unknown) => ValidationIssue[]) {
  const body = operation(id).body;
  const schema = body && validate ? { body: checkedBy({ ...body }, (value) => ({ issues: validate(value ?? undefined) })) } : undefined;
  return { config: { operation: id }, ...(schema ? { schema } : {}) };
}

type Params = { audienceId: string };

/** Bytes a row upsert may carry: 500 rows of many columns pass the sandbox's usual 1 MiB (the service publishes no limit). */
export const ROWS_BODY_LIMIT = 16 * 1024 * 1024;

type AudienceOfRequest = (request: FastifyRequest) => AudienceRecord;

function writableAudience(store: AudienceStore): AudienceOfRequest {
  /** The caller's audience (another account's is answered like a missing one). */
  const audienceOf = (request: FastifyRequest) => {
    const principal: TokenPrincipal = principalOf(request);
    const audience = store.getAudience((request.params as Params).audienceId);
    if (!audience || audience.account !== principal.account) throw notFound("No audience has this id.", "audienceId");
    if (!mayUse(principal, audience.type)) requireScope(principal, scopeFor(audience.type));
    return audience;
  };
  return audienceOf;
}

const send = (status: number, doc: unknown) => (reply: { code(n: number): { type(t: string): { send(d: unknown): unknown } } }) =>
  reply.code(status).type(MEDIA_TYPE).send(doc);

function audienceAndColumnRoutes(app: FastifyInstance, { store, writes }: Deps, audienceOf: AudienceOfRequest): void {
  app.post(P.audiences, serves("createAudience", validateCreateAudienceBody), async (request, reply) => {
    const principal = principalOf(request);
    const { attributes } = (request.body as CreateAudienceBody).data;
    if (!mayUse(principal, attributes.type)) requireScope(principal, scopeFor(attributes.type));
    const columns = (attributes.columns ?? []).map((c) => ({ name: c.attributes.name, dataType: c.attributes.dataType }));
    const audience = writes.createAudience(principal.account, { ...attributes, columns });
    if ((request.query as Record<string, string | undefined>).autoMatchCriteria === "true") writes.setMatchCriteria(audience, undefined);
    return send(201, { data: audienceDocument(store.getAudience(audience.id)!, store.columns(audience.id)) })(reply);
  });

  app.patch(`${P.audiences}/:audienceId`, serves("patchAudience", validatePatchAudienceBody), async (request, reply) => {
    const audience = audienceOf(request);
    const { attributes } = (request.body as PatchAudienceBody).data;
    const changed = writes.patchAudience(audience, attributes);
    return send(200, { data: audienceDocument(changed, store.columns(changed.id)) })(reply);
  });

  app.delete(`${P.audiences}/:audienceId`, serves("deleteAudience"), async (request, reply) => {
    writes.deleteAudience(audienceOf(request));
    return reply.code(204).send();
  });

  app.post(`${P.audiences}/:audienceId/columns/actions/bulk/create`, serves("addColumns", validateAddColumnsBody), async (request, reply) => {
    const audience = audienceOf(request);
    const body = request.body as AddColumnsBody;
    const added = writes.addColumns(
      audience,
      body.data.map((c) => ({ name: c.attributes.name, dataType: c.attributes.dataType })),
    );
    return send(201, { data: added.map(columnDocument) })(reply);
  });

  app.patch(`${P.audiences}/:audienceId/columns/:columnId`, serves("patchColumn", validatePatchColumnBody), async (request, reply) => {
    const audience = audienceOf(request);
    const column = writes.columnOf(audience, (request.params as { columnId: string }).columnId);
    const { attributes } = (request.body as PatchColumnBody).data;
    return send(200, { data: columnDocument(writes.renameColumn(audience, column, attributes.name)) })(reply);
  });

  app.delete(`${P.audiences}/:audienceId/columns/:columnId`, serves("deleteColumn"), async (request, reply) => {
    const audience = audienceOf(request);
    writes.deleteColumn(audience, writes.columnOf(audience, (request.params as { columnId: string }).columnId));
    return reply.code(204).send();
  });

  app.post(
    `${P.audiences}/:audienceId/actions/match-criteria`,
    { onRequest: emptyBodyIsNone, ...serves("setMatchCriteria", validateMatchCriteriaBody) },
    async (request, reply) => {
      const audience = audienceOf(request);
      const body = (request.body ?? undefined) as MatchCriteriaBody | undefined;
      const column = writes.setMatchCriteria(audience, body?.data.attributes.matchCriteria);
      return send(200, { data: columnDocument(column) })(reply);
    },
  );
}

function rowRoutes(app: FastifyInstance, { store, writes }: Deps, audienceOf: AudienceOfRequest): void {
  for (const [path, max, operation] of [
    ["rows/actions/upsert", AUDIENCE_WRITE_LIMITS.upsertRows, "upsertRows"],
    ["rows/actions/bulk/upsert", AUDIENCE_WRITE_LIMITS.bulkUpsertRows, "bulkUpsertRows"],
  ] as const) {
    app.post(
      `${P.audiences}/:audienceId/${path}`,
      { bodyLimit: ROWS_BODY_LIMIT, ...serves(operation, (b) => validateUpsertRowsBody(b, max)) },
      async (request, reply) => {
        const audience = audienceOf(request);
        const body = request.body as UpsertRowsBody;
        const rows = writes.upsertRows(audience, body.data);
        const columns = store.columns(audience.id);
        return send(200, { data: rows.map((row) => rowDocument(row, columns)) })(reply);
      },
    );
  }

  app.delete(`${P.audiences}/:audienceId/rows/actions/bulk/delete`, serves("deleteRows", validateDeleteRowsBody), async (request, reply) => {
    const audience = audienceOf(request);
    const body = request.body as DeleteRowsBody;
    const jobId = writes.deleteRows(
      audience,
      body.data.map((r) => r.id),
    );
    return send(202, { data: { id: jobId, type: "RowAsyncJob" } })(reply);
  });
}

function folderRoutes(app: FastifyInstance, { writes }: Deps): void {
  app.get(P.folders, serves("listFolders"), async (request, reply) => {
    const all = writes.folders(principalOf(request).account);
    return send(200, { data: all.map(folderDocument), meta: { page: { size: all.length, number: 1 }, total: all.length } })(reply);
  });

  app.post(P.folders, serves("createFolder", validateCreateFolderBody), async (request, reply) => {
    const { attributes } = (request.body as CreateFolderBody).data;
    return send(201, { data: folderDocument(writes.createFolder(principalOf(request).account, attributes.name, attributes.description)) })(reply);
  });

  const folderOf = (request: FastifyRequest) => {
    const folder = writes.folder(principalOf(request).account, (request.params as { folderId: string }).folderId);
    if (!folder) throw notFound("No folder has this id.", "folderId");
    return folder;
  };

  app.get(`${P.folders}/:folderId`, serves("getFolder"), async (request, reply) => send(200, { data: folderDocument(folderOf(request)) })(reply));

  app.patch(`${P.folders}/:folderId`, serves("patchFolder", validatePatchFolderBody), async (request, reply) => {
    const folder = folderOf(request);
    const { attributes } = (request.body as PatchFolderBody).data;
    return send(200, { data: folderDocument(writes.patchFolder(principalOf(request).account, folder, attributes)) })(reply);
  });

  app.delete(`${P.folders}/:folderId`, serves("deleteFolder"), async (request, reply) => {
    writes.deleteFolder(folderOf(request));
    return reply.code(204).send();
  });
}

export function registerAudienceWriteRoutes(app: FastifyInstance, deps: Deps): void {
  const audienceOf = writableAudience(deps.store);
  audienceAndColumnRoutes(app, deps, audienceOf);
  rowRoutes(app, deps, audienceOf);
  folderRoutes(app, deps);
}
