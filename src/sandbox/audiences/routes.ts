// Audience routes: listing audiences and rows, starting an enrichment and reading a
// job's status (docs/service.md, "Audiences and jobs"), plus a test-only route that creates an audience.
import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import {
  ERROR_CODES,
  LIMITS,
  MEDIA_TYPE,
  validateAudienceEnrichBody,
  validateSearchQuery,
  type ValidationIssue,
} from "../../core/contract/index.js";
import type { SandboxContext } from "../context.js";
import { ApiError, ValidationFailure } from "../errors.js";
// The core's API hook authenticates every /v1/ request (401/403, rate limit); this reads the result.
import { principalOf } from "../routes/principal.js";
import type { JobEngine } from "./engine.js";
import { parseRecordRef } from "./engine.js";
import { audienceDocument, jobStatusDocument, rowDocument } from "./present.js";
import { buildAudience } from "./seed.js";
import type { AudienceKind, AudienceStore } from "./store.js";

type Params = { audienceId?: string; jobId?: string };

interface Deps {
  ctx: SandboxContext;
  store: AudienceStore;
  engine: JobEngine;
}

const ATTR = "/data/attributes";

function notFound(what: string, parameter: string): ApiError {
  return new ApiError(404, ERROR_CODES.notFound, what, { parameter });
}

export function registerAudienceRoutes(app: FastifyInstance, { ctx, store, engine }: Deps): void {
  const audienceOf = (id: string | undefined) => {
    const audience = store.getAudience(id ?? "");
    if (!audience) throw notFound("No audience has this id.", "audienceId");
    return audience;
  };

  app.get(`/v1/audiences`, async (request, reply) => {
    principalOf(request);
    const data = store.listAudiences().map((a) => audienceDocument(a, store.columns(a.id)));
    return reply.type(MEDIA_TYPE).send({ data });
  });

  app.get<{ Params: Params }>(`/v1/audiences/:audienceId`, async (request, reply) => {
    principalOf(request);
    const audience = audienceOf(request.params.audienceId);
    return reply.type(MEDIA_TYPE).send({ data: audienceDocument(audience, store.columns(audience.id)) });
  });

  app.get<{ Params: Params; Querystring: Record<string, string | undefined> }>(
    `/v1/audiences/:audienceId/rows`,
    async (request, reply) => {
      principalOf(request);
      const query = { "page[number]": request.query["page[number]"], "page[size]": request.query["page[size]"] };
      // Rows are not a search: an audience of 20,000 rows has 200 pages, so the search page cap does not apply.
      const issues = validateSearchQuery(query, "company").filter((i) => !(i.parameter === "page[number]" && i.rule === "maximum"));
      if (issues.length > 0) throw new ValidationFailure(issues);
      const audience = audienceOf(request.params.audienceId);
      const number = Number(query["page[number]"] ?? 1);
      const size = Number(query["page[size]"] ?? LIMITS.defaultPageSize);
      const columns = store.columns(audience.id);
      const rows = store.rowPage(audience.id, (number - 1) * size, size);
      const total = Math.ceil(audience.recordCount / size);
      const link = (n: number) => `/v1/audiences/${audience.id}/rows?page[number]=${n}&page[size]=${size}`;
      const links: Record<string, string> = { first: link(1), last: link(Math.max(1, total)) };
      if (number > 1) links.prev = link(Math.min(number - 1, Math.max(1, total)));
      if (number < total) links.next = link(number + 1);
      return reply.type(MEDIA_TYPE).send({
        data: rows.map((r) => rowDocument(r, columns)),
        meta: { totalResults: audience.recordCount, page: { number, total } },
        links,
      });
    },
  );

  app.post<{ Params: Params }>(`/v1/audiences/:audienceId/actions/enrich`, async (request, reply) => {
    const principal = principalOf(request);
    const audience = audienceOf(request.params.audienceId);
    const body = request.body;
    const issues = validateAudienceEnrichBody(body);
    if (issues.length > 0) throw new ValidationFailure(issues);
    const attrs = (body as { data: { attributes: { scope: "AUDIENCE" | "ROW"; rows?: string[]; columns?: string[] } } }).data.attributes;

    const columns = store.columns(audience.id);
    const referenceIssues: ValidationIssue[] = [];
    const requestedRows = attrs.rows ?? [];
    const existing = store.existingRowIds(audience.id, requestedRows);
    requestedRows.forEach((rowId, i) => {
      if (!existing.has(rowId)) {
        referenceIssues.push(issue(`${ATTR}/rows/${i}`, `Rows item ${i + 1}`, "unknownRow", `Row ${rowId} is not in this audience.`));
      }
    });
    const enrichable = columns.filter((c) => c.columnType !== "INPUT");
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
    if (rowIds.length === 0) return reply.code(204).send();
    const columnIds = attrs.columns && attrs.columns.length > 0 ? [...new Set(attrs.columns)] : enrichable.map((c) => c.id);

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
    store.createJob({ id: jobId, audienceId: audience.id, account: principal.account, columnIds, rowIds }, new Date().toISOString());
    engine.wake();
    return reply.code(202).type(MEDIA_TYPE).send({ data: { id: jobId, type: "EnrichJob" } });
  });

  app.get<{ Params: Params }>(`/v1/audiences/:audienceId/jobs/:jobId`, async (request, reply) => {
    principalOf(request);
    const audience = audienceOf(request.params.audienceId);
    const job = store.getJob(request.params.jobId ?? "");
    if (!job || job.audienceId !== audience.id) throw notFound("This audience has no job with this id.", "jobId");
    return reply.type(MEDIA_TYPE).send(jobStatusDocument(job));
  });

  // Test and demo seam: create an audience referencing given records, optionally with bad rows.
  app.post(`/__sandbox/audiences`, async (request, reply) => {
    const parsed = parseCreateBody(request.body);
    if (typeof parsed === "string") {
      throw new ApiError(400, ERROR_CODES.validation, parsed);
    }
    const count = parsed.type === "COMPANY" ? ctx.records.companyCount() : ctx.records.contactCount();
    const audience = buildAudience({ ...parsed, description: parsed.description ?? "" }, randomUUID, count);
    store.createAudience(audience);
    const created = store.getAudience(audience.id);
    if (!created) throw new Error("audience vanished after creation");
    return reply
      .code(201)
      .type(MEDIA_TYPE)
      .send({ data: audienceDocument(created, store.columns(created.id)), meta: { rowIds: audience.rows.map((r) => r.id) } });
  });
}

function issue(pointer: string, label: string, rule: string, message: string): ValidationIssue {
  return { pointer, label, rule, code: ERROR_CODES.invalidValue, message };
}

interface CreateAudienceBody {
  name: string;
  description?: string;
  type: AudienceKind;
  recordIds: number[];
  badRows: number;
}

function parseCreateBody(body: unknown): CreateAudienceBody | string {
  if (body === null || typeof body !== "object") return "Send a JSON object {name, type, recordIds, badRows?}.";
  const b = body as Record<string, unknown>;
  if (typeof b.name !== "string" || b.name.trim() === "") return "name must be a non-empty string.";
  if (b.type !== "COMPANY" && b.type !== "CONTACT") return 'type must be "COMPANY" or "CONTACT".';
  if (!Array.isArray(b.recordIds) || !b.recordIds.every((id) => Number.isInteger(id) && (id as number) > 0)) {
    return "recordIds must be a list of positive whole numbers.";
  }
  if (b.recordIds.length > 20_000) return "recordIds can have at most 20000 items.";
  const badRows = b.badRows ?? 0;
  if (!Number.isInteger(badRows) || (badRows as number) < 0 || (badRows as number) > 20_000) return "badRows must be a whole number from 0 to 20000.";
  if (b.description !== undefined && typeof b.description !== "string") return "description must be a string.";
  const out: CreateAudienceBody = { name: b.name, type: b.type, recordIds: b.recordIds as number[], badRows: badRows as number };
  if (typeof b.description === "string") out.description = b.description;
  return out;
}
