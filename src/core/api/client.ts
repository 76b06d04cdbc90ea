// createServiceClient: the composition of the client's parts (transport, request runner with
// retry, rate limiter and concurrency cap, paging, enrichment, jobs) behind the ServiceClient
// interface of types.ts. Every request is validated with the contract before it is sent and
// every answer is shape-checked after.
import type { TSchema } from "@sinclair/typebox";
import {
  AudienceDocument,
  AudienceListDocument,
  AudienceRow,
  CompanyItem,
  CompanySearchResult,
  ContactItem,
  ContactSearchResult,
  EnrichJobDocument,
  EnrichResultDocument,
  JobStatusDocument,
  LIMITS,
  LookupDocument,
  PATHS,
  SearchDocument,
  UsageDocument,
  companySearchBody,
  contactSearchBody,
  isTerminalJobState,
  isUuid,
  validateAudienceEnrichBody,
  validateCompanyEnrichBody,
  validateCompanySearchBody,
  validateContactEnrichBody,
  validateContactSearchBody,
  validateSearchQuery,
  type CompanySearchFilters,
  type ContactSearchFilters,
  type EnrichResultItem,
  type LookupItem,
  type MatchCompanyInput,
  type MatchPersonInput,
  type SearchKind,
  type ValidationIssue,
} from "../contract/index.js";
import { systemClock } from "./clock.js";
import { ConcurrencyLimit } from "./concurrency.js";
import { enrichAll } from "./enrich.js";
import { parseRetryAfter, serviceError } from "./errors.js";
import { pollJob, type PolledStatus } from "./jobs.js";
import { iteratePages } from "./paging.js";
import { RateLimiter } from "./rateLimiter.js";
import { RequestRunner, cancelledError, type RawResponse, type RequestSpec } from "./request.js";
import { parseDocument } from "./responses.js";
import { DEFAULT_RETRY } from "./retry.js";
import { fetchTransport } from "./transport.js";
import type {
  AudienceRowsPage,
  IterateOptions,
  IteratedPage,
  JobStatus,
  SearchOptions,
  SearchPage,
  ServiceClient,
  ServiceClientOptions,
  StartAudienceEnrichmentOptions,
  UsageSummary,
} from "./types.js";

export const DEFAULTS = {
  perSecond: 25,
  burst: 1,
  safetyMargin: 0.02,
  concurrency: 6,
  timeoutMs: 30000,
  iteratePageSize: LIMITS.maxPageSize,
} as const;

const AudienceRowsDocument = SearchDocument(AudienceRow);

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

function queryString(params: Record<string, string | number | undefined>): string {
  const parts = Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`);
  return parts.length > 0 ? `?${parts.join("&")}` : "";
}

function refuse(issues: ValidationIssue[], operation: string): never {
  throw serviceError("validation", {
    issues,
    operation,
    message: `${operation} not sent: ${issues.map((i) => i.message).join(" ")}`,
  });
}

/** Waits for a shared promise, but lets this caller stop waiting on its own signal. */
function awaitWithSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined, operation: string): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(cancelledError(operation));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelledError(operation));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const baseUrl = trimSlash(options.baseUrl);
  const audiencesBaseUrl = trimSlash(options.audiencesBaseUrl ?? options.baseUrl);
  const clock = options.clock ?? systemClock;
  const runner = new RequestRunner({
    transport: options.fetch ?? fetchTransport(),
    getAccessToken: options.getAccessToken,
    limiter: new RateLimiter(clock, {
      perSecond: options.rateLimit?.perSecond ?? DEFAULTS.perSecond,
      burst: options.rateLimit?.burst ?? DEFAULTS.burst,
      safetyMargin: options.rateLimit?.safetyMargin ?? DEFAULTS.safetyMargin,
      probeFirst: options.rateLimit?.probeFirst ?? false,
    }),
    cap: new ConcurrencyLimit(options.concurrency ?? DEFAULTS.concurrency),
    clock,
    retry: { ...DEFAULT_RETRY, ...definedOnly(options.retry ?? {}) },
    timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
    random: options.random ?? Math.random,
    ...(options.log ? { log: options.log } : {}),
  });
  const concurrency = options.concurrency ?? DEFAULTS.concurrency;

  async function call<T extends TSchema>(schema: T, spec: RequestSpec) {
    const response = await runner.send(spec);
    return parseDocument(schema, response, spec.operation);
  }

  // ---------- search ----------

  interface SearchSetup {
    kind: SearchKind;
    path: string;
    body: unknown;
    issues: ValidationIssue[];
    schema: typeof CompanySearchResult | typeof ContactSearchResult;
  }

  function companySetup(filters: CompanySearchFilters): SearchSetup {
    const body = companySearchBody(filters);
    return { kind: "company", path: PATHS.searchCompanies, body, issues: validateCompanySearchBody(body), schema: CompanySearchResult };
  }
  function contactSetup(filters: ContactSearchFilters): SearchSetup {
    const body = contactSearchBody(filters);
    return { kind: "contact", path: PATHS.searchContacts, body, issues: validateContactSearchBody(body), schema: ContactSearchResult };
  }

  function checkSearch(setup: SearchSetup, page: number | undefined, size: number | undefined, sort: string | undefined): void {
    const query: Record<string, string | undefined> = {
      "page[number]": page === undefined ? undefined : String(page),
      "page[size]": size === undefined ? undefined : String(size),
      sort,
    };
    const issues = [...setup.issues, ...validateSearchQuery(query, setup.kind)];
    if (issues.length > 0) refuse(issues, `POST ${setup.path}`);
  }

  async function searchPage<T>(
    setup: SearchSetup,
    page: number | undefined,
    size: number | undefined,
    sort: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<SearchPage<T>> {
    const operation = `POST ${setup.path}`;
    const url = `${baseUrl}${setup.path}${queryString({ "page[number]": page, "page[size]": size, sort })}`;
    const doc = await call(setup.schema, { method: "POST", url, operation, body: setup.body, idempotent: true, ...(signal ? { signal } : {}) });
    return toSearchPage<T>(doc as SearchDocLike<T>, page ?? 1, size ?? LIMITS.defaultPageSize);
  }

  async function search<T>(setup: SearchSetup, o: SearchOptions = {}): Promise<SearchPage<T>> {
    checkSearch(setup, o.page, o.size, o.sort);
    return searchPage<T>(setup, o.page, o.size, o.sort, o.signal);
  }

  function iterate<T>(setup: SearchSetup, o: IterateOptions = {}): AsyncIterable<IteratedPage<T>> {
    const pageSize = o.pageSize ?? DEFAULTS.iteratePageSize;
    return {
      async *[Symbol.asyncIterator]() {
        // Checked when iteration starts, so an invalid search rejects the first next().
        checkSearch(setup, 1, pageSize, o.sort);
        yield* iteratePages<T>((n, size, signal) => searchPage<T>(setup, n, size, o.sort, signal), {
          pageSize,
          window: concurrency,
          ...(o.maxResults !== undefined ? { maxResults: o.maxResults } : {}),
          ...(o.signal ? { signal: o.signal } : {}),
          ...(o.onProgress ? { onProgress: o.onProgress } : {}),
        });
      },
    };
  }

  // ---------- enrichment ----------

  function enrichSender(path: string) {
    return async (body: unknown, signal: AbortSignal): Promise<EnrichResultItem[]> => {
      const doc = await call(EnrichResultDocument, {
        method: "POST",
        url: `${baseUrl}${path}`,
        operation: `POST ${path}`,
        body,
        // Enriching a record again costs no credit (it is under management), so a repeat is harmless.
        idempotent: true,
        signal,
      });
      return doc.data;
    };
  }

  // ---------- lookup (cached for the client's life, one request per field) ----------

  const lookups = new Map<string, Promise<LookupItem[]>>();

  // ---------- jobs ----------

  async function pollStatus(audienceId: string, jobId: string, signal?: AbortSignal): Promise<PolledStatus> {
    const path = PATHS.job(audienceId, jobId);
    const operation = `GET ${PATHS.job("{audienceId}", "{jobId}")}`;
    const response: RawResponse = await runner.send({
      method: "GET",
      url: `${audiencesBaseUrl}${path}`,
      operation,
      idempotent: true,
      ...(signal ? { signal } : {}),
    });
    const doc = parseDocument(JobStatusDocument, response, operation);
    const a = doc.data.attributes;
    const status: JobStatus = { id: doc.data.id, status: a.status, terminal: isTerminalJobState(a.status) };
    if (a.percentProgress !== undefined) status.percentProgress = a.percentProgress;
    const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"), clock.now());
    return retryAfterMs === undefined ? { status } : { status, retryAfterMs };
  }

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

  const sig = (signal: AbortSignal | undefined) => (signal ? { signal } : {});

  return {
    searchCompanies: (filters, o) => search<CompanyItem>(companySetup(filters), o),
    searchContacts: (filters, o) => search<ContactItem>(contactSetup(filters), o),
    iterateCompanies: (filters, o) => iterate<CompanyItem>(companySetup(filters), o),
    iterateContacts: (filters, o) => iterate<ContactItem>(contactSetup(filters), o),

    enrichCompanies: (inputs: MatchCompanyInput[], outputFields: string[], o) =>
      enrichAll({
        inputs,
        idField: "companyId",
        inputMember: "matchCompanyInput",
        buildBody: (chunk) => ({ data: { type: "CompanyEnrich", attributes: { matchCompanyInput: chunk, outputFields } } }),
        validate: validateCompanyEnrichBody,
        send: enrichSender(PATHS.enrichCompanies),
        workers: concurrency,
        ...(o ? { options: o } : {}),
      }),
    enrichContacts: (inputs: MatchPersonInput[], outputFields: string[], o) =>
      enrichAll({
        inputs,
        idField: "personId",
        inputMember: "matchPersonInput",
        buildBody: (chunk) => ({ data: { type: "ContactEnrich", attributes: { matchPersonInput: chunk, outputFields } } }),
        validate: validateContactEnrichBody,
        send: enrichSender(PATHS.enrichContacts),
        workers: concurrency,
        ...(o ? { options: o } : {}),
      }),

    lookup(fieldName, o) {
      const operation = `GET ${PATHS.lookup(fieldName)}`;
      let shared = lookups.get(fieldName);
      if (!shared) {
        // Not tied to one caller's signal: other callers may be waiting for the same answer.
        shared = call(LookupDocument, { method: "GET", url: `${baseUrl}${PATHS.lookup(fieldName)}`, operation, idempotent: true }).then(
          (doc) => doc.data,
        );
        lookups.set(fieldName, shared);
        // A failure is not cached: the next caller asks again.
        shared.catch(() => lookups.delete(fieldName));
      }
      return awaitWithSignal(shared, o?.signal, operation);
    },

    async usage(o): Promise<UsageSummary> {
      const doc = await call(UsageDocument, {
        method: "GET",
        url: `${baseUrl}${PATHS.usage}`,
        operation: `GET ${PATHS.usage}`,
        idempotent: true,
        ...sig(o?.signal),
      });
      return { entries: doc.data.flatMap((d) => d.attributes.usage) };
    },

    async listAudiences(o) {
      const doc = await call(AudienceListDocument, {
        method: "GET",
        url: `${audiencesBaseUrl}${PATHS.audiences}`,
        operation: `GET ${PATHS.audiences}`,
        idempotent: true,
        ...sig(o?.signal),
      });
      return doc.data;
    },

    async getAudience(audienceId, o) {
      const operation = `GET ${PATHS.audience("{audienceId}")}`;
      checkAudienceId(audienceId, operation);
      const doc = await call(AudienceDocument, {
        method: "GET",
        url: `${audiencesBaseUrl}${PATHS.audience(audienceId)}`,
        operation,
        idempotent: true,
        ...sig(o?.signal),
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
      const doc = await call(AudienceRowsDocument, {
        method: "GET",
        url: `${audiencesBaseUrl}${PATHS.audienceRows(audienceId)}${queryString({ "page[number]": o.page, "page[size]": o.size })}`,
        operation,
        idempotent: true,
        ...sig(o.signal),
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
      const response = await runner.send({
        method: "POST",
        url: `${audiencesBaseUrl}${path}`,
        operation,
        body,
        // A repeat could start a second job: only retried when the service surely refused it.
        idempotent: false,
        expect: [202, 204, 200, 201],
        ...sig(o.signal),
      });
      if (response.status === 204) return null;
      return parseDocument(EnrichJobDocument, response, operation).data.id;
    },

    async getJob(audienceId, jobId, o) {
      return (await pollStatus(audienceId, jobId, o?.signal)).status;
    },

    waitForJob(audienceId, jobId, o = {}) {
      return pollJob((signal) => pollStatus(audienceId, jobId, signal), clock, o);
    },
  };
}

interface SearchDocLike<T> {
  data: T[];
  meta?: { totalResults: number; page: { number: number; total: number } };
  links?: { first?: string; last?: string; prev?: string; next?: string };
}

function toSearchPage<T>(doc: SearchDocLike<T>, page: number, size: number): SearchPage<T> {
  const links: SearchPage<T>["links"] = {};
  for (const key of ["first", "last", "prev", "next"] as const) {
    const v = doc.links?.[key];
    if (typeof v === "string") links[key] = v;
  }
  if (doc.meta) {
    return { items: doc.data, totalResults: doc.meta.totalResults, pageNumber: doc.meta.page.number, totalPages: doc.meta.page.total, links };
  }
  // Without meta the totals are unknown: assume a next page exists while one is linked.
  const seen = (page - 1) * size + doc.data.length;
  return {
    items: doc.data,
    totalResults: links.next ? seen + size : seen,
    pageNumber: page,
    totalPages: links.next ? page + 1 : page,
    links,
  };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
