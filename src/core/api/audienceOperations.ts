// Audience operations (under /studio in production, as the environment says): audiences, their
// rows (read with a RowSearch document: a filter group and/or row ids), starting an audience
// enrichment, and one status read of its job. Following a job until it ends is the job poller's
// (src/core/jobs/poller.ts).
import {
  AudienceDocument,
  AudienceListDocument,
  AudienceRow,
  ERROR_CODES,
  EnrichJobDocument,
  JobStatusDocument,
  LIMITS,
  MAX_ROWS_PAGE_SIZE,
  PATHS,
  SearchDocument,
  isTerminalJobState,
  isUuid,
  rowSearchDocument,
  validateAudienceEnrichBody,
  validateRowSearch,
  type ValidationIssue,
} from "../contract/index.js";
import { parseRetryAfter } from "./errors.js";
import { queryString, refuse, withSignal, type ClientContext } from "./clientContext.js";
import { toSearchPage } from "./searchOperations.js";
import type { AudienceRowsPage, JobStatus, ServiceClient, StartAudienceEnrichmentOptions } from "./types.js";
import { parseDocument } from "./responses.js";

const AudienceRowsDocument = SearchDocument(AudienceRow);

function checkAudienceId(audienceId: string, operation: string): void {
  if (!isUuid(audienceId)) {
    refuse(
      [
        {
          parameter: "audienceId",
          label: "Audience",
          rule: "uuid",
          code: "PFAPI0002",
          message: "Audience must be an id like 3f2b1c9e-1234-4abc-9def-0123456789ab.",
        },
      ],
      operation,
    );
  }
}

function pageIssue(parameter: string, message: string): ValidationIssue {
  return { parameter, label: parameter === "page[size]" ? "Page size" : "Page number", rule: "range", code: ERROR_CODES.validation, message };
}

/** A rows read's page size and RowSearch body, checked before sending. */
function checkedRowsRequest(options: { page?: number; size?: number; search?: Parameters<typeof rowSearchDocument>[0] }, operation: string) {
  const size = options.size ?? LIMITS.defaultPageSize;
  const issues: ValidationIssue[] = [];
  // Rows are not a search: no 100-page cap, and pages go up to 500.
  if (options.page !== undefined && (!Number.isInteger(options.page) || options.page < 1))
    issues.push(pageIssue("page[number]", "Page number must be a whole number of at least 1."));
  if (!Number.isInteger(size) || size < 1 || size > MAX_ROWS_PAGE_SIZE)
    issues.push(pageIssue("page[size]", `Page size must be between 1 and ${MAX_ROWS_PAGE_SIZE}.`));
  const body = rowSearchDocument(options.search);
  issues.push(...validateRowSearch(body));
  if (issues.length > 0) refuse(issues, operation);
  return { size, body };
}

/** An audience enrichment's body (scope, rows, columns), checked before sending. */
function checkedEnrichmentBody(options: StartAudienceEnrichmentOptions, operation: string) {
  const attributes: Record<string, unknown> = { scope: options.scope };
  if (options.rows !== undefined) attributes.rows = options.rows;
  if (options.columns !== undefined) attributes.columns = options.columns;
  const body = { data: { type: "AudienceEnrichment", attributes } };
  const issues = validateAudienceEnrichBody(body);
  if (issues.length > 0) refuse(issues, operation);
  return body;
}

type AudienceOperations = Pick<ServiceClient, "listAudiences" | "getAudience" | "getAudienceRows" | "startAudienceEnrichment" | "getJob">;

export function audienceOperations(ctx: ClientContext): AudienceOperations {
  const base = ctx.audiencesBaseUrl;
  return {
    async listAudiences(options) {
      const doc = await ctx.call(AudienceListDocument, {
        method: "GET",
        url: `${base}${PATHS.audiences}`,
        operation: `GET ${PATHS.audiences}`,
        idempotent: true,
        ...withSignal(options?.signal),
      });
      return doc.data;
    },

    async getAudience(audienceId, options) {
      const operation = `GET ${PATHS.audience("{audienceId}")}`;
      checkAudienceId(audienceId, operation);
      const doc = await ctx.call(AudienceDocument, {
        method: "GET",
        url: `${base}${PATHS.audience(audienceId)}`,
        operation,
        idempotent: true,
        ...withSignal(options?.signal),
      });
      return doc.data;
    },

    async getAudienceRows(audienceId, options = {}): Promise<AudienceRowsPage> {
      const operation = `POST ${PATHS.audienceRowsSearch("{audienceId}")}`;
      checkAudienceId(audienceId, operation);
      const { size, body } = checkedRowsRequest(options, operation);
      const doc = await ctx.call(AudienceRowsDocument, {
        method: "POST",
        url: `${base}${PATHS.audienceRowsSearch(audienceId)}${queryString({ "page[number]": options.page, "page[size]": options.size })}`,
        operation,
        ...(body !== undefined ? { body } : {}),
        // Reading rows changes nothing: safe to repeat.
        idempotent: true,
        priority: options.priority ?? "bulk",
        ...withSignal(options.signal),
      });
      const page = toSearchPage(doc, options.page ?? 1, size);
      return { rows: page.items, totalResults: page.totalResults, pageNumber: page.pageNumber, totalPages: page.totalPages };
    },

    async startAudienceEnrichment(audienceId, options: StartAudienceEnrichmentOptions) {
      const path = PATHS.enrichAudience(audienceId);
      const operation = `POST ${PATHS.enrichAudience("{audienceId}")}`;
      checkAudienceId(audienceId, operation);
      const body = checkedEnrichmentBody(options, operation);
      const response = await ctx.send({
        method: "POST",
        url: `${base}${path}`,
        operation,
        body,
        // A repeat could start a second job: only retried when the service surely refused it.
        idempotent: false,
        spends: true,
        expect: [202, 204, 200, 201],
        ...withSignal(options.signal),
      });
      if (response.status === 204) return null;
      return parseDocument(EnrichJobDocument, response, operation).data.id;
    },

    async getJob(audienceId, jobId, options): Promise<JobStatus> {
      const operation = `GET ${PATHS.job("{audienceId}", "{jobId}")}`;
      const response = await ctx.send({
        method: "GET",
        url: `${base}${PATHS.job(audienceId, jobId)}`,
        operation,
        idempotent: true,
        ...withSignal(options?.signal),
      });
      const doc = parseDocument(JobStatusDocument, response, operation);
      const a = doc.data.attributes;
      const status: JobStatus = { id: doc.data.id, status: a.status, terminal: isTerminalJobState(a.status) };
      if (a.percentProgress !== undefined) status.percentProgress = a.percentProgress;
      const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"), ctx.clock.now());
      if (retryAfterMs !== undefined) status.retryAfterMs = retryAfterMs;
      return status;
    },
  };
}
