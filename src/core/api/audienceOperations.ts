// Audience operations (under /studio in production, as the environment says): audiences, their
// rows (read with a RowSearch document: a filter group and/or row ids), starting an audience
// enrichment, and one status read of its job. Following a job until it ends is the job poller's
// (src/core/jobs/poller.ts).
import {
  AudienceRow,
  ERROR_CODES,
  LIMITS,
  MAX_ROWS_PAGE_SIZE,
  SearchDocument,
  isTerminalJobState,
  isUuid,
  rowSearchDocument,
  validateAudienceEnrichBody,
  validateRowSearch,
  type ValidationIssue,
} from "../contract/index.js";
import { parseRetryAfter } from "./errors.js";
import { refuse, type ClientContext } from "./clientContext.js";
import { callOperation, operationLabel, sendOperation } from "./operationCall.js";
import { toSearchPage } from "./searchOperations.js";
import type { AudienceRowsPage, JobStatus, ServiceClient, StartAudienceEnrichmentOptions } from "./types.js";

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
  return {
    async listAudiences(options) {
      return (await callOperation(ctx, "listAudiences", { signal: options?.signal })).data;
    },

    async getAudience(audienceId, options) {
      const operation = operationLabel("getAudience");
      checkAudienceId(audienceId, operation);
      return (await callOperation(ctx, "getAudience", { params: { audienceId }, signal: options?.signal })).data;
    },

    async getAudienceRows(audienceId, options = {}): Promise<AudienceRowsPage> {
      const operation = operationLabel("searchAudienceRows");
      checkAudienceId(audienceId, operation);
      const { size, body } = checkedRowsRequest(options, operation);
      // Reading rows changes nothing: the table calls a repeat harmless.
      const doc = await callOperation(ctx, "searchAudienceRows", {
        params: { audienceId },
        query: { "page[number]": options.page, "page[size]": options.size },
        body,
        answer: AudienceRowsDocument,
        priority: options.priority ?? "bulk",
        signal: options.signal,
      });
      const page = toSearchPage(doc, options.page ?? 1, size);
      return { rows: page.items, totalResults: page.totalResults, pageNumber: page.pageNumber, totalPages: page.totalPages };
    },

    async startAudienceEnrichment(audienceId, options: StartAudienceEnrichmentOptions) {
      const operation = operationLabel("enrichAudience");
      checkAudienceId(audienceId, operation);
      const body = checkedEnrichmentBody(options, operation);
      // A repeat could start a second job (the table says so): only retried when the service surely refused it.
      const sent = await sendOperation(ctx, "enrichAudience", { params: { audienceId }, body, expect: [202, 204, 200, 201], signal: options.signal });
      if (sent.response.status === 204) return null;
      return sent.answer().data.id;
    },

    async getJob(audienceId, jobId, options): Promise<JobStatus> {
      const sent = await sendOperation(ctx, "getJob", { params: { audienceId, jobId }, signal: options?.signal });
      const { response } = sent;
      const doc = sent.answer();
      const a = doc.data.attributes;
      const status: JobStatus = { id: doc.data.id, status: a.status, terminal: isTerminalJobState(a.status) };
      if (a.percentProgress !== undefined) status.percentProgress = a.percentProgress;
      const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"), ctx.clock.now());
      if (retryAfterMs !== undefined) status.retryAfterMs = retryAfterMs;
      return status;
    },
  };
}
