// Audience operations (under /studio in production, as the environment says): audiences, their
// rows, starting an audience enrichment, and one status read of its job. Following a job until
// it ends is the job poller's (src/core/jobs/poller.ts).
import {
  AudienceDocument,
  AudienceListDocument,
  AudienceRow,
  EnrichJobDocument,
  JobStatusDocument,
  LIMITS,
  PATHS,
  SearchDocument,
  isTerminalJobState,
  isUuid,
  validateAudienceEnrichBody,
  validateSearchQuery,
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

type AudienceOperations = Pick<ServiceClient, "listAudiences" | "getAudience" | "getAudienceRows" | "startAudienceEnrichment" | "getJob">;

export function audienceOperations(ctx: ClientContext): AudienceOperations {
  const base = ctx.audiencesBaseUrl;
  return {
    async listAudiences(o) {
      const doc = await ctx.call(AudienceListDocument, {
        method: "GET",
        url: `${base}${PATHS.audiences}`,
        operation: `GET ${PATHS.audiences}`,
        idempotent: true,
        ...withSignal(o?.signal),
      });
      return doc.data;
    },

    async getAudience(audienceId, o) {
      const operation = `GET ${PATHS.audience("{audienceId}")}`;
      checkAudienceId(audienceId, operation);
      const doc = await ctx.call(AudienceDocument, {
        method: "GET",
        url: `${base}${PATHS.audience(audienceId)}`,
        operation,
        idempotent: true,
        ...withSignal(o?.signal),
      });
      return doc.data;
    },

    async getAudienceRows(audienceId, o = {}): Promise<AudienceRowsPage> {
      const operation = `GET ${PATHS.audienceRows("{audienceId}")}`;
      checkAudienceId(audienceId, operation);
      const query = {
        "page[number]": o.page === undefined ? undefined : String(o.page),
        "page[size]": o.size === undefined ? undefined : String(o.size),
      };
      // Rows are not a search: the 100-page cap of searches does not apply to them.
      const issues = validateSearchQuery(query, "company").filter((i) => !(i.parameter === "page[number]" && i.rule === "maximum"));
      if (issues.length > 0) refuse(issues, operation);
      const doc = await ctx.call(AudienceRowsDocument, {
        method: "GET",
        url: `${base}${PATHS.audienceRows(audienceId)}${queryString({ "page[number]": o.page, "page[size]": o.size })}`,
        operation,
        idempotent: true,
        priority: o.priority ?? "bulk",
        ...withSignal(o.signal),
      });
      const page = toSearchPage(doc, o.page ?? 1, o.size ?? LIMITS.defaultPageSize);
      return { rows: page.items, totalResults: page.totalResults, pageNumber: page.pageNumber, totalPages: page.totalPages };
    },

    async startAudienceEnrichment(audienceId, o: StartAudienceEnrichmentOptions) {
      const path = PATHS.enrichAudience(audienceId);
      const operation = `POST ${PATHS.enrichAudience("{audienceId}")}`;
      checkAudienceId(audienceId, operation);
      const attributes: Record<string, unknown> = { scope: o.scope };
      if (o.rows !== undefined) attributes.rows = o.rows;
      if (o.columns !== undefined) attributes.columns = o.columns;
      const body = { data: { type: "AudienceEnrichment", attributes } };
      const issues = validateAudienceEnrichBody(body);
      if (issues.length > 0) refuse(issues, operation);
      const response = await ctx.send({
        method: "POST",
        url: `${base}${path}`,
        operation,
        body,
        // A repeat could start a second job: only retried when the service surely refused it.
        idempotent: false,
        spends: true,
        expect: [202, 204, 200, 201],
        ...withSignal(o.signal),
      });
      if (response.status === 204) return null;
      return parseDocument(EnrichJobDocument, response, operation).data.id;
    },

    async getJob(audienceId, jobId, o): Promise<JobStatus> {
      const operation = `GET ${PATHS.job("{audienceId}", "{jobId}")}`;
      const response = await ctx.send({
        method: "GET",
        url: `${base}${PATHS.job(audienceId, jobId)}`,
        operation,
        idempotent: true,
        ...withSignal(o?.signal),
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
