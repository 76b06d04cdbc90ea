// Production's audience (studio) operations under /gtm/studio/v1: a paged, filterable list,
// rows read with POST .../rows/actions/search (a RowSearch document with a filter group and/or
// row ids, pages of up to 500, sort, columns: the sandbox's one row search; the body is
// optional, also when a JSON content type comes with an empty body), one row by its id, the
// filter metadata of an audience's columns, studio paging metadata ({page: {size, number},
// total}), and production's document shapes (studioDocuments.ts). Jobs start and report through
// the specification's operations, called directly.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { emptyBodyIsNone } from "../audiences/emptyBody.js";
import { ERROR_CODES } from "../../core/contract/index.js";
import { rowDocument } from "../audiences/present.js";
import { parseRowSearch, rowsPage, searchRows } from "../audiences/rowSearch.js";
import { AudienceStore, type AudienceRecord } from "../audiences/store.js";
import type { SandboxContext } from "../context.js";
import { ApiError } from "../errors.js";
import { gatewayHandler, relayAnswer } from "./gateway.js";
import type { CalledAnswer, OperationCaller } from "../routes/operations.js";
import { aiColumnId, filterMetadataDocument, studioAudience, studioRow, type CoreAudience } from "./studioDocuments.js";

const STUDIO = "/gtm/studio/v1";
export const AUDIENCE_SCOPES = { read: "api:audience:read", manage: "api:audience:manage" } as const;
const DEFAULT_SIZE = 25;
const MAX_SIZE = 100;

function pageParams(query: Record<string, string | undefined>): { number: number; size: number } {
  const number = Number(query["page[number]"] ?? 1);
  const size = Number(query["page[size]"] ?? DEFAULT_SIZE);
  if (!Number.isInteger(number) || number < 1)
    throw new ApiError(400, ERROR_CODES.validation, "page[number] must be a whole number of at least 1.", { parameter: "page[number]" });
  if (!Number.isInteger(size) || size < 1 || size > MAX_SIZE) {
    throw new ApiError(400, ERROR_CODES.validation, `page[size] must be a whole number from 1 to ${MAX_SIZE}.`, { parameter: "page[size]" });
  }
  return { number, size };
}

/** The columns a `columns` parameter asks (all without it), and the AI column's id when it is asked. */
function shownColumns<C extends { id: string }>(columns: C[], audienceId: string, parameter: string | undefined): { shown: C[]; ai: string | undefined } {
  const wanted = parameter
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const ai = aiColumnId(audienceId);
  for (const id of wanted ?? []) {
    if (!columns.some((c) => c.id === id) && id !== ai)
      throw new ApiError(400, ERROR_CODES.invalidValue, `Column ${id} is not in this audience.`, { parameter: "columns" });
  }
  return { shown: wanted ? columns.filter((c) => wanted.includes(c.id)) : columns, ai: !wanted || wanted.includes(ai) ? ai : undefined };
}

type P = { audienceId: string; jobId: string };
const paramsOf = (request: FastifyRequest) => request.params as P;
const queryOf = (request: FastifyRequest) => request.query as Record<string, string | undefined>;

/** What the studio routes share: the store, the caller's audience by id, and the core's answer for it (its access rules). */
interface StudioTools {
  store: AudienceStore;
  operations: OperationCaller;
  audienceOf: (id: string) => AudienceRecord;
  coreAudience: (request: FastifyRequest) => Promise<CalledAnswer>;
}

function studioAudienceRoutes(app: FastifyInstance, { operations, coreAudience }: StudioTools): void {
  // Audiences come from the specification's operations (their authentication, access control and rate limit
  // apply); this profile pages, filters and reshapes them.
  app.get(
    `${STUDIO}/audiences`,
    { config: { operation: "listAudiences", resource: `${STUDIO}/audiences` } },
    gatewayHandler(async (request, reply) => {
      const query = queryOf(request);
      const { number, size } = pageParams(query);
      const answer = await operations.call("listAudiences", request);
      if (answer.status !== 200) return relayAnswer(reply, answer);
      const type = query["filter[type]"]?.toUpperCase();
      const text = query["filter[searchText]"]?.toLowerCase();
      const matching = ((answer.body as { data?: CoreAudience[] }).data ?? [])
        .filter((a) => (type ? a.attributes.type === type : true))
        .filter((a) => (text ? `${a.attributes.name}\n${a.attributes.description ?? ""}`.toLowerCase().includes(text) : true));
      const page = matching.slice((number - 1) * size, number * size).map(studioAudience);
      return relayAnswer(reply, answer, { data: page, meta: { page: { size, number }, total: matching.length } });
    }),
  );

  app.get(
    `${STUDIO}/audiences/:audienceId`,
    { config: { operation: "getAudience", resource: `${STUDIO}/audiences` } },
    gatewayHandler(async (request, reply) => {
      const answer = await coreAudience(request);
      if (answer.status !== 200) return relayAnswer(reply, answer);
      return relayAnswer(reply, answer, { data: studioAudience((answer.body as { data: CoreAudience }).data) });
    }),
  );

  app.get(
    `${STUDIO}/audiences/:audienceId/filter-metadata`,
    { config: { operation: "audienceFilterMetadata", resource: `${STUDIO}/audiences` } },
    gatewayHandler(async (request, reply) => {
      const access = await coreAudience(request);
      if (access.status !== 200) return relayAnswer(reply, access);
      const audience = (access.body as { data: CoreAudience }).data;
      return relayAnswer(reply, access, filterMetadataDocument(audience.id, audience.attributes.columns));
    }),
  );
}

function studioRowRoutes(app: FastifyInstance, { store, audienceOf, coreAudience }: StudioTools): void {
  app.get(
    `${STUDIO}/audiences/:audienceId/rows/:rowId`,
    { config: { operation: "getAudienceRow", resource: `${STUDIO}/audiences/rows` } },
    gatewayHandler(async (request, reply) => {
      const access = await coreAudience(request);
      if (access.status !== 200) return relayAnswer(reply, access);
      const audience = audienceOf(paramsOf(request).audienceId);
      const [row] = store.rowsByIds(audience.id, [(request.params as { rowId: string }).rowId]);
      if (!row) throw new ApiError(404, ERROR_CODES.notFound, "No row of this audience has this id.", { parameter: "rowId" });
      const { shown, ai } = shownColumns(store.columns(audience.id), audience.id, queryOf(request).columns);
      return relayAnswer(reply, access, { data: studioRow(rowDocument(row, shown), ai) });
    }),
  );

  app.post(
    `${STUDIO}/audiences/:audienceId/rows/actions/search`,
    { onRequest: emptyBodyIsNone, config: { operation: "searchAudienceRows", resource: `${STUDIO}/audiences/rows` } },
    gatewayHandler(async (request, reply) => {
      const access = await coreAudience(request);
      if (access.status !== 200) return relayAnswer(reply, access);
      const audience = audienceOf(paramsOf(request).audienceId);
      const query = queryOf(request);
      const page = rowsPage(query);
      const columns = store.columns(audience.id);
      const byId = new Map(columns.map((c) => [c.id, c]));
      const search = parseRowSearch(request.body, columns);
      const sort = query.sort;
      const sortColumn = sort ? byId.get(sort.replace(/^-/, "")) : undefined;
      if (sort && !sortColumn)
        throw new ApiError(400, ERROR_CODES.invalidValue, `sort must be a column id of this audience, optionally after "-".`, { parameter: "sort" });
      const { shown, ai } = shownColumns(columns, audience.id, query.columns);
      const { rows, total } = searchRows(
        store,
        audience,
        columns,
        search,
        page,
        sortColumn ? { column: sortColumn, descending: Boolean(sort?.startsWith("-")) } : undefined,
      );
      const { number, size } = page;
      const data = rows.map((row) => studioRow(rowDocument(row, shown), ai));
      return relayAnswer(reply, access, { data, meta: { page: { size, number }, total } });
    }),
  );
}

function studioJobRoutes(app: FastifyInstance, { operations }: StudioTools): void {
  app.post(
    `${STUDIO}/audiences/:audienceId/actions/enrich`,
    { config: { operation: "enrichAudience", resource: `${STUDIO}/audiences/enrich` } },
    gatewayHandler(async (request, reply) => {
      const { audienceId } = paramsOf(request);
      // The AI column is filled by the service's own research, not by an enrichment job.
      const body = request.body as { data?: { attributes?: { columns?: unknown } } } | undefined;
      const columns = body?.data?.attributes?.columns;
      const forwarded =
        Array.isArray(columns) && body?.data?.attributes
          ? { ...body, data: { ...body.data, attributes: { ...body.data.attributes, columns: columns.filter((c) => c !== aiColumnId(audienceId)) } } }
          : body;
      return relayAnswer(reply, await operations.call("enrichAudience", request, { params: { audienceId }, body: forwarded }));
    }),
  );

  app.get(
    `${STUDIO}/audiences/:audienceId/jobs/:jobId`,
    { config: { operation: "getJob", resource: `${STUDIO}/audiences/jobs` } },
    gatewayHandler(async (request, reply) => {
      const { audienceId, jobId } = paramsOf(request);
      return relayAnswer(reply, await operations.call("getJob", request, { params: { audienceId, jobId } }));
    }),
  );
}

export async function productionStudioRoutes(app: FastifyInstance, ctx: SandboxContext, operations: OperationCaller): Promise<void> {
  const store = new AudienceStore(ctx.db);
  const audienceOf = (id: string) => {
    const audience = store.getAudience(id);
    if (!audience) throw new ApiError(404, ERROR_CODES.notFound, "No audience has this id.", { parameter: "audienceId" });
    return audience;
  };
  const coreAudience = async (request: FastifyRequest) => operations.call("getAudience", request, { params: { audienceId: paramsOf(request).audienceId } });
  const tools: StudioTools = { store, operations, audienceOf, coreAudience };
  studioAudienceRoutes(app, tools);
  studioRowRoutes(app, tools);
  studioJobRoutes(app, tools);
}
