// The specification profile's audience writes (docs/audiences.md): the studio operations'
// documents and semantics under our own /v1/audiences and /v1/folders paths. The production
// profile's studio routes reach the same engine (writes.ts) through these routes.
import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  AUDIENCE_WRITE_LIMITS,
  AUDIENCE_WRITE_PATHS as P,
  MEDIA_TYPE,
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
import { ValidationFailure } from "../errors.js";
import { principalOf } from "../routes/principal.js";
import { emptyBodyIsNone } from "./emptyBody.js";
import { audienceDocument, columnDocument, folderDocument, rowDocument } from "./present.js";
import { mayUse, scopeFor } from "./routes.js";
import type { AudienceStore } from "./store.js";
import { notFound, type AudienceWrites } from "./writes.js";

interface Deps {
  store: AudienceStore;
  writes: AudienceWrites;
}

/** The body, checked with the contract; a request with any issue is refused whole. */
function checked<T>(body: unknown, validate: (body: unknown) => ValidationIssue[]): T {
  const issues = validate(body);
  if (issues.length > 0) throw new ValidationFailure(issues);
  return body as T;
}

type Params = { audienceId: string };

/** Bytes a row upsert may carry: 500 rows of many columns pass the sandbox's usual 1 MiB (the service publishes no limit). */
export const ROWS_BODY_LIMIT = 16 * 1024 * 1024;

export function registerAudienceWriteRoutes(app: FastifyInstance, { store, writes }: Deps): void {
  /** The caller's audience (another account's is answered like a missing one). */
  const audienceOf = (request: FastifyRequest) => {
    const principal: TokenPrincipal = principalOf(request);
    const audience = store.getAudience((request.params as Params).audienceId);
    if (!audience || audience.account !== principal.account) throw notFound("No audience has this id.", "audienceId");
    if (!mayUse(principal, audience.type)) requireScope(principal, scopeFor(audience.type));
    return audience;
  };
  const send = (status: number, doc: unknown) => (reply: { code(n: number): { type(t: string): { send(d: unknown): unknown } } }) =>
    reply.code(status).type(MEDIA_TYPE).send(doc);

  app.post(P.audiences, { config: { operation: "createAudience" } }, async (request, reply) => {
    const principal = principalOf(request);
    const { attributes } = checked<CreateAudienceBody>(request.body, validateCreateAudienceBody).data;
    if (!mayUse(principal, attributes.type)) requireScope(principal, scopeFor(attributes.type));
    const columns = (attributes.columns ?? []).map((c) => ({ name: c.attributes.name, dataType: c.attributes.dataType }));
    const audience = writes.createAudience(principal.account, { ...attributes, columns });
    if ((request.query as Record<string, string | undefined>).autoMatchCriteria === "true") writes.setMatchCriteria(audience, undefined);
    return send(201, { data: audienceDocument(store.getAudience(audience.id)!, store.columns(audience.id)) })(reply);
  });

  app.patch(`${P.audiences}/:audienceId`, { config: { operation: "patchAudience" } }, async (request, reply) => {
    const audience = audienceOf(request);
    const { attributes } = checked<PatchAudienceBody>(request.body, validatePatchAudienceBody).data;
    const changed = writes.patchAudience(audience, attributes);
    return send(200, { data: audienceDocument(changed, store.columns(changed.id)) })(reply);
  });

  app.delete(`${P.audiences}/:audienceId`, { config: { operation: "deleteAudience" } }, async (request, reply) => {
    writes.deleteAudience(audienceOf(request));
    return reply.code(204).send();
  });

  app.post(`${P.audiences}/:audienceId/columns/actions/bulk/create`, { config: { operation: "addColumns" } }, async (request, reply) => {
    const audience = audienceOf(request);
    const body = checked<AddColumnsBody>(request.body, validateAddColumnsBody);
    const added = writes.addColumns(
      audience,
      body.data.map((c) => ({ name: c.attributes.name, dataType: c.attributes.dataType })),
    );
    return send(201, { data: added.map(columnDocument) })(reply);
  });

  app.patch(`${P.audiences}/:audienceId/columns/:columnId`, { config: { operation: "patchColumn" } }, async (request, reply) => {
    const audience = audienceOf(request);
    const column = writes.columnOf(audience, (request.params as { columnId: string }).columnId);
    const { attributes } = checked<PatchColumnBody>(request.body, validatePatchColumnBody).data;
    return send(200, { data: columnDocument(writes.renameColumn(audience, column, attributes.name)) })(reply);
  });

  app.delete(`${P.audiences}/:audienceId/columns/:columnId`, { config: { operation: "deleteColumn" } }, async (request, reply) => {
    const audience = audienceOf(request);
    writes.deleteColumn(audience, writes.columnOf(audience, (request.params as { columnId: string }).columnId));
    return reply.code(204).send();
  });

  app.post(
    `${P.audiences}/:audienceId/actions/match-criteria`,
    { onRequest: emptyBodyIsNone, config: { operation: "setMatchCriteria" } },
    async (request, reply) => {
      const audience = audienceOf(request);
      const body = checked<MatchCriteriaBody | undefined>(request.body ?? undefined, validateMatchCriteriaBody);
      const column = writes.setMatchCriteria(audience, body?.data.attributes.matchCriteria);
      return send(200, { data: columnDocument(column) })(reply);
    },
  );

  for (const [path, max, operation] of [
    ["rows/actions/upsert", AUDIENCE_WRITE_LIMITS.upsertRows, "upsertRows"],
    ["rows/actions/bulk/upsert", AUDIENCE_WRITE_LIMITS.bulkUpsertRows, "bulkUpsertRows"],
  ] as const) {
    app.post(`${P.audiences}/:audienceId/${path}`, { bodyLimit: ROWS_BODY_LIMIT, config: { operation } }, async (request, reply) => {
      const audience = audienceOf(request);
      const body = checked<UpsertRowsBody>(request.body, (b) => validateUpsertRowsBody(b, max));
      const rows = writes.upsertRows(audience, body.data);
      const columns = store.columns(audience.id);
      return send(200, { data: rows.map((row) => rowDocument(row, columns)) })(reply);
    });
  }

  app.delete(`${P.audiences}/:audienceId/rows/actions/bulk/delete`, { config: { operation: "deleteRows" } }, async (request, reply) => {
    const audience = audienceOf(request);
    const body = checked<DeleteRowsBody>(request.body, validateDeleteRowsBody);
    const jobId = writes.deleteRows(
      audience,
      body.data.map((r) => r.id),
    );
    return send(202, { data: { id: jobId, type: "RowAsyncJob" } })(reply);
  });

  app.get(P.folders, { config: { operation: "listFolders" } }, async (request, reply) => {
    const all = writes.folders(principalOf(request).account);
    return send(200, { data: all.map(folderDocument), meta: { page: { size: all.length, number: 1 }, total: all.length } })(reply);
  });

  app.post(P.folders, { config: { operation: "createFolder" } }, async (request, reply) => {
    const { attributes } = checked<CreateFolderBody>(request.body, validateCreateFolderBody).data;
    return send(201, { data: folderDocument(writes.createFolder(principalOf(request).account, attributes.name, attributes.description)) })(reply);
  });

  const folderOf = (request: FastifyRequest) => {
    const folder = writes.folder(principalOf(request).account, (request.params as { folderId: string }).folderId);
    if (!folder) throw notFound("No folder has this id.", "folderId");
    return folder;
  };

  app.get(`${P.folders}/:folderId`, { config: { operation: "getFolder" } }, async (request, reply) =>
    send(200, { data: folderDocument(folderOf(request)) })(reply),
  );

  app.patch(`${P.folders}/:folderId`, { config: { operation: "patchFolder" } }, async (request, reply) => {
    const folder = folderOf(request);
    const { attributes } = checked<PatchFolderBody>(request.body, validatePatchFolderBody).data;
    return send(200, { data: folderDocument(writes.patchFolder(principalOf(request).account, folder, attributes)) })(reply);
  });

  app.delete(`${P.folders}/:folderId`, { config: { operation: "deleteFolder" } }, async (request, reply) => {
    writes.deleteFolder(folderOf(request));
    return reply.code(204).send();
  });
}
