// Audience routes: listing audiences and rows (GET .../rows, or a row search), starting an enrichment and reading a
// job's status (docs/service.md, "Audiences and jobs"), plus a test-only route that creates an audience.
import { randomUUID } from "node:crypto";
import { Type, type Static } from "@sinclair/typebox";
import type { FastifyInstance } from "fastify";
import {
  AUDIENCE_TYPES,
  AudienceEnrichBody,
  ERROR_CODES,
  LIMITS,
  MEDIA_TYPE,
  SCOPES,
  validateAudienceEnrichBody,
  validateSearchQuery,
  type ValidationIssue,
} from "../../core/contract/index.js";
import { requireScope } from "../auth.js";
import type { SandboxContext, TokenPrincipal } from "../context.js";
import { ApiError, ValidationFailure } from "../errors.js";
import { checkedBy, stringQuery } from "../routes/validation.js";
// The core's API hook authenticates every /v1/ request (401/403, rate limit); the handlers get its principal.
import { NO_CONTENT, answer, type OperationCall, type OperationTable } from "../routes/operations.js";
import type { JobEngine } from "./engine.js";
import { parseRecordRef } from "./engine.js";
import { emptyBodyIsNone } from "./emptyBody.js";
import { audienceDocument, jobStatusDocument, rowDocument } from "./present.js";
import { parseRowSearch, rowsPage, searchRows } from "./rowSearch.js";
import { buildAudience } from "./seed.js";
import { DEFAULT_OWNER, type AudienceKind, type AudienceRecord, type AudienceStore } from "./store.js";
import { notFound } from "./writes.js";

const AudienceParams = Type.Object({ audienceId: Type.String() });
const JobParams = Type.Object({ audienceId: Type.String(), jobId: Type.String() });

/** Rows are not a search: an audience of 20,000 rows has 200 pages, so the search page cap does not apply. */
const RowsQuery = checkedBy(Type.Object({ "page[number]": Type.Optional(Type.String()), "page[size]": Type.Optional(Type.String()) }), (raw) => {
  const all = stringQuery(raw);
  const value = { "page[number]": all["page[number]"], "page[size]": all["page[size]"] };
  const issues = validateSearchQuery(value, "company").filter((i) => !(i.parameter === "page[number]" && i.rule === "maximum"));
  return { issues, value };
});

const EnrichBody = checkedBy(AudienceEnrichBody, (body) => ({ issues: validateAudienceEnrichBody(body) }));

/** POST /__sandbox/audiences: an audience referencing the given records, optionally with bad rows. */
const CreateAudienceBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, pattern: "\\S" }),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    type: Type.Union(AUDIENCE_TYPES.map((t) => Type.Literal(t))),
    recordIds: Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 20_000 }),
    badRows: Type.Optional(Type.Integer({ minimum: 0, maximum: 20_000 })),
    /** Owner account (default "default", the default dev token's). */
    account: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);

interface Deps {
  ctx: SandboxContext;
  store: AudienceStore;
  engine: JobEngine;
  operations: OperationTable;
}

type Params = Static<typeof AudienceParams>;

const ATTR = "/data/attributes";

/** The data scope an audience of this kind needs: its records are companies or contacts. */
export const scopeFor = (type: AudienceKind) => (type === "COMPANY" ? SCOPES.company : SCOPES.contact);
/**
 * The production service's audience scopes (docs/service-production.md): a token holding either
 * reaches every audience of its account, whatever its records are; the production profile
 * tells reading and managing apart before a request gets here.
 */
const AUDIENCE_SCOPES = ["api:audience:read", "api:audience:manage"];
export const mayUse = (principal: TokenPrincipal, type: AudienceKind) =>
  principal.scopes.includes(scopeFor(type)) || AUDIENCE_SCOPES.some((scope) => principal.scopes.includes(scope));

/** Reads the caller's audience by id, or refuses (404 for another account's, 403 without its scope). */
type AudienceOf = (principal: TokenPrincipal, id: string) => AudienceRecord;

function audienceAccess(store: AudienceStore): AudienceOf {
  /**
   * The caller's audience: another account's audience is answered like a missing one (its
   * existence is not disclosed), and the token needs the scope of the audience's records.
   */
  const audienceOf = (principal: TokenPrincipal, id: string) => {
    const audience = store.getAudience(id);
    if (!audience || audience.account !== principal.account) throw notFound("No audience has this id.", "audienceId");
    if (!mayUse(principal, audience.type)) requireScope(principal, scopeFor(audience.type));
    return audience;
  };

  return audienceOf;
}

function audienceReadRoutes(app: FastifyInstance, { store, operations }: Deps, audienceOf: AudienceOf): void {
  const list = ({ principal }: OperationCall) => {
    const kinds = AUDIENCE_TYPES.filter((type) => mayUse(principal, type));
    if (kinds.length === 0) requireScope(principal, SCOPES.company);
    const data = store
      .listAudiences(principal.account)
      .filter((a) => kinds.includes(a.type))
      .map((a) => audienceDocument(a, store.columns(a.id)));
    return answer({ data });
  };
  operations.serve(app, { method: "GET", url: `/v1/audiences`, operation: "listAudiences", handle: list });

  operations.serve<unknown, unknown, Params>(app, {
    method: "GET",
    url: `/v1/audiences/:audienceId`,
    operation: "getAudience",
    schema: { params: AudienceParams },
    handle({ principal, params }) {
      const audience = audienceOf(principal, params.audienceId);
      return answer({ data: audienceDocument(audience, store.columns(audience.id)) });
    },
  });
}

function audienceRowRoutes(app: FastifyInstance, { store, operations }: Deps, audienceOf: AudienceOf): void {
  operations.serve<unknown, Static<typeof RowsQuery>, Params>(app, {
    method: "GET",
    url: `/v1/audiences/:audienceId/rows`,
    operation: "listAudienceRows",
    schema: { params: AudienceParams, querystring: RowsQuery },
    handle({ principal, params, query }) {
      const audience = audienceOf(principal, params.audienceId);
      const number = Number(query["page[number]"] ?? 1);
      const size = Number(query["page[size]"] ?? LIMITS.defaultPageSize);
      const columns = store.columns(audience.id);
      const rows = store.rowPage(audience.id, (number - 1) * size, size);
      const total = Math.ceil(audience.recordCount / size);
      const link = (n: number) => `/v1/audiences/${audience.id}/rows?page[number]=${n}&page[size]=${size}`;
      const links: Record<string, string> = { first: link(1), last: link(Math.max(1, total)) };
      if (number > 1) links.prev = link(Math.min(number - 1, Math.max(1, total)));
      if (number < total) links.next = link(number + 1);
      return answer({
        data: rows.map((r) => rowDocument(r, columns)),
        meta: { totalResults: audience.recordCount, page: { number, total } },
        links,
      });
    },
  });

  // Rows by search (the way production reads them): an optional RowSearch document, pages up to 500.
  operations.serve<unknown, Record<string, string | undefined>, Params>(app, {
    method: "POST",
    url: `/v1/audiences/:audienceId/rows/actions/search`,
    operation: "searchAudienceRows",
    schema: { params: AudienceParams },
    options: { onRequest: emptyBodyIsNone },
    handle({ principal, params, query, body }) {
      const audience = audienceOf(principal, params.audienceId);
      const page = rowsPage(query);
      const columns = store.columns(audience.id);
      const { rows, total } = searchRows(store, audience, columns, parseRowSearch(body, columns), page);
      return answer({
        data: rows.map((r) => rowDocument(r, columns)),
        meta: { totalResults: total, page: { number: page.number, total: Math.ceil(total / page.size) } },
      });
    },
  });
}

function audienceEnrichRoute(app: FastifyInstance, { ctx, store, engine, operations }: Deps, audienceOf: AudienceOf): void {
  operations.serve<AudienceEnrichBody, unknown, Params>(app, {
    method: "POST",
    url: `/v1/audiences/:audienceId/actions/enrich`,
    operation: "enrichAudience",
    schema: { params: AudienceParams, body: EnrichBody },
    handle({ principal, params, body }) {
      const audience = audienceOf(principal, params.audienceId);
      const attrs = body.data.attributes;

      const columns = store.columns(audience.id);
      const referenceIssues: ValidationIssue[] = [];
      const requestedRows = attrs.rows ?? [];
      const existing = store.existingRowIds(audience.id, requestedRows);
      requestedRows.forEach((rowId, i) => {
        if (!existing.has(rowId)) {
          referenceIssues.push(issue(`${ATTR}/rows/${i}`, `Rows item ${i + 1}`, "unknownRow", `Row ${rowId} is not in this audience.`));
        }
      });
      // Written audiences: their own (CUSTOM) columns are not filled by a job, the match column always is.
      const enrichable = columns.filter((c) => c.columnType !== "INPUT" && c.columnType !== "CUSTOM");
      const match = columns.find((c) => c.columnType === "MATCH");
      (attrs.columns ?? []).forEach((columnId, i) => {
        const column = columns.find((c) => c.id === columnId);
        if (!column) {
          referenceIssues.push(issue(`${ATTR}/columns/${i}`, `Columns item ${i + 1}`, "unknownColumn", `Column ${columnId} is not in this audience.`));
        } else if (column.columnType === "INPUT") {
          referenceIssues.push(
            issue(`${ATTR}/columns/${i}`, `Columns item ${i + 1}`, "inputColumn", `Column "${column.name}" holds the record id; it cannot be enriched.`),
          );
        }
      });
      if (referenceIssues.length > 0) throw new ValidationFailure(referenceIssues);

      // A row named twice is enriched once.
      const rowIds = attrs.scope === "AUDIENCE" ? store.allRowIds(audience.id) : [...new Set(requestedRows)];
      if (rowIds.length === 0) return NO_CONTENT;
      if (enrichable.length === 0) {
        throw new ApiError(400, ERROR_CODES.validation, "Map this audience's columns to match criteria first: it has no column the enrichment fills.", {
          pointer: ATTR,
        });
      }
      const asked = (attrs.columns ?? []).filter((id) => enrichable.some((c) => c.id === id));
      const columnIds = asked.length > 0 ? [...new Set([...(match ? [match.id] : []), ...asked])] : enrichable.map((c) => c.id);

      if (!ctx.credits.canSpend(principal.account)) {
        const kind = audience.type === "COMPANY" ? "company" : "contact";
        const needsCredit = store
          .recordRefs(audience.id, rowIds)
          .map(parseRecordRef)
          .some((id) => id !== undefined && ctx.credits.purchaseDate(principal.account, kind, id) === undefined);
        if (needsCredit) {
          throw new ApiError(402, ERROR_CODES.paymentRequired, "The account has no credits left to enrich new records in this audience.");
        }
      }

      const jobId = randomUUID();
      store.createJob({ id: jobId, audienceId: audience.id, account: principal.account, columnIds, rowIds }, new Date(ctx.clock.now()).toISOString());
      engine.wake();
      return answer({ data: { id: jobId, type: "EnrichJob" } }, 202);
    },
  });
}

function jobAndSeedRoutes(app: FastifyInstance, { ctx, store, operations }: Deps, audienceOf: AudienceOf): void {
  operations.serve<unknown, unknown, Static<typeof JobParams>>(app, {
    method: "GET",
    url: `/v1/audiences/:audienceId/jobs/:jobId`,
    operation: "getJob",
    schema: { params: JobParams },
    handle({ principal, params }) {
      const audience = audienceOf(principal, params.audienceId);
      const job = store.getJob(params.jobId);
      if (!job || job.audienceId !== audience.id || job.account !== principal.account) throw notFound("This audience has no job with this id.", "jobId");
      return answer(jobStatusDocument(job));
    },
  });

  // Test and demo seam: create an audience referencing given records, optionally with bad rows.
  app.post<{ Body: Static<typeof CreateAudienceBody> }>(`/__sandbox/audiences`, { schema: { body: CreateAudienceBody } }, async (request, reply) => {
    const parsed = { ...request.body, badRows: request.body.badRows ?? 0 };
    const count = parsed.type === "COMPANY" ? ctx.records.companyCount() : ctx.records.contactCount();
    const audience = buildAudience({ ...parsed, description: parsed.description ?? "" }, randomUUID, count);
    store.createAudience({ ...audience, account: request.body.account ?? DEFAULT_OWNER });
    const created = store.getAudience(audience.id);
    if (!created) throw new Error("audience vanished after creation");
    return reply
      .code(201)
      .type(MEDIA_TYPE)
      .send({ data: audienceDocument(created, store.columns(created.id)), meta: { rowIds: audience.rows.map((r) => r.id) } });
  });
}

export function registerAudienceRoutes(app: FastifyInstance, deps: Deps): void {
  const audienceOf = audienceAccess(deps.store);
  audienceReadRoutes(app, deps, audienceOf);
  audienceRowRoutes(app, deps, audienceOf);
  audienceEnrichRoute(app, deps, audienceOf);
  jobAndSeedRoutes(app, deps, audienceOf);
}

function issue(pointer: string, label: string, rule: string, message: string): ValidationIssue {
  return { pointer, label, rule, code: ERROR_CODES.invalidValue, message };
}
