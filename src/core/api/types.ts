// The service client's public surface: features (pane, cells, jobs) depend on it only; client.ts implements it.
import type { Clock } from "../contract/clock.js";
import type { RequestPriority } from "./requestSpec.js";
import type { RequestHooks } from "./hooks.js";
import type { PacingStatus } from "./pacing.js";
import type { AudienceWriteOperations } from "./audienceWriteTypes.js";
import type { DocumentOperations } from "./documentTypes.js";
import type { EntitlementOperations } from "./entitlementTypes.js";
import type { HierarchyOperations } from "./hierarchyTypes.js";
import type { AiActionBalance, ResearchOperations } from "./researchTypes.js";
export type * from "./researchTypes.js";
import type {
  IntentEnrichInput,
  IntentItem,
  IntentSearchFilters,
  NewsEnrichInput,
  NewsItem,
  NewsSearchFilters,
  ScoopEnrichInput,
  ScoopItem,
  ScoopSearchFilters,
  TechnologiesItem,
  Audience,
  AudienceEnrichBody,
  AudienceRow,
  CompanyItem,
  CompanySearchFilters,
  ContactItem,
  ContactSearchFilters,
  EnrichResultItem,
  ErrorObject,
  GatewayErrorDocument,
  JobStatusDocument,
  LookupItem,
  MatchCompanyInput,
  MatchPersonInput,
  OutputFieldLookupDocument,
  RecordKind,
  RowSearchAttributes,
  UsageEntry,
  ValidationIssue,
} from "../contract/index.js";

export interface AccessTokenRequest {
  /** Ask for a new token even if the cached one looks valid (after a 401). */
  forceRefresh?: boolean;
}
/** Returns a bearer token, or throws an UnauthorizedError ("sign in") when there is none. */
export type GetAccessToken = (request?: AccessTokenRequest) => Promise<string>;

/** A small fetch-like transport, so the same core runs in Node, the browser and tests. */
export type Transport = (url: string, init: TransportRequest) => Promise<TransportResponse>;
export interface TransportRequest {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}
export interface TransportResponse {
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

export interface LogEntry {
  level: "debug" | "info" | "warn" | "error";
  message: string;
  data?: Record<string, unknown>;
}
export type Logger = (entry: LogEntry) => void;

export interface RetryOptions {
  /** Attempts in all after a 5xx, a dropped connection or a timeout, including the first (default 4). */
  maxAttempts?: number;
  /** The same for bulk requests (default 6): a page of an import is worth more patience than a cell. */
  bulkMaxAttempts?: number;
  /** Base delay of exponential backoff in ms (default 500); tests set it small. */
  baseDelayMs?: number;
  /** Cap of one backoff delay in ms (default 8000). */
  maxDelayMs?: number;
  /**
   * How long an interactive request (a cell, a preview, a picker) keeps waiting for the
   * organization's rate limit, in ms (default 30000). A 429 costs nothing, so patience is
   * bounded by time, never by a count of refusals.
   */
  patienceMs?: number;
  /** The same for bulk work (imports, Enrich selection, partition probes, audience rows); default 300000. */
  bulkPatienceMs?: number;
}

/**
 * Who waits for a request: `interactive` (a person looking at a cell, a preview, a picker, a job's status)
 * goes ahead of `bulk` (imports, Enrich selection, partition probes, audience rows); defined beside RequestSpec, which carries it.
 */
export type { RequestPriority } from "./requestSpec.js";

export interface RateLimitOptions {
  /** Requests per second allowed to leave the client (default 25). */
  perSecond?: number;
  /**
   * Requests that may leave back to back after an idle spell (default 1: evenly spaced, so a
   * fixed or sliding one-second window at the service never sees more than perSecond).
   */
  burst?: number;
  /**
   * Extra spacing as a share of 1000/perSecond (default 0.02): requests reach the service with a little
   * jitter, and one that lands in an already full one-second window costs a whole Retry-After second.
   */
  safetyMargin?: number;
  /**
   * Send one request alone until the first answer tells the service's per-second limit
   * (default false). Worth turning on where the account's allowance may be lower than
   * perSecond: the first second then brings no 429s.
   */
  probeFirst?: boolean;
  /**
   * Share the organization's bucket with the other add-ins of the organization (default true):
   * learn this client's share from the service's headers and refusals (src/core/api/tenantShare.ts).
   * False paces at perSecond whatever the others do (a relay that paces the whole tenant).
   */
  cooperative?: boolean;
}

/** The one Clock type (core/contract/clock.ts). */
export type { Clock } from "../contract/clock.js";

/** What the client knows of the account's unentitled output fields (fieldEntitlements.ts keeps it). */
export interface ClientEntitlements {
  /** Fields known to be refused: never asked. */
  refused(kind: RecordKind): ReadonlySet<string>;
  /** Fields an answer refused (they were dropped and the same inputs sent again). */
  learn(kind: RecordKind, fields: readonly string[]): void;
}

export interface ServiceClientOptions {
  /** Base URL of the data API, e.g. https://localhost:4010 (paths start with /data/v1). */
  baseUrl: string;
  /** Base URL of the audience API (paths start with /v1); defaults to baseUrl. */
  audiencesBaseUrl?: string;
  getAccessToken: GetAccessToken;
  fetch?: Transport;
  rateLimit?: RateLimitOptions;
  retry?: RetryOptions;
  /** Requests in flight at once (default 6). */
  concurrency?: number;
  /** Timeout of one request in ms (default 30000). */
  timeoutMs?: number;
  log?: Logger;
  clock?: Clock;
  /** Source of randomness for backoff jitter, in [0, 1) (default Math.random); a test seam. */
  random?: () => number;
  /** Cross-cutting behaviour around every request (sign-out, usage refresh, relay, wire names): see hooks.ts. */
  hooks?: RequestHooks;
  /** The account's unentitled output fields: left out before sending, and told the ones an answer refuses. */
  entitlements?: ClientEntitlements;
  /** The service's profile: "production" speaks its copilot API for research (default "specification"). */
  profile?: "specification" | "production";
  /**
   * Tell the API relay each request's priority (header X-BizData-Priority: interactive or bulk),
   * so its central pacing serves a person's requests before bulk work. Only for requests that go
   * through the organization's relay (the broker's --relay); the service does not know the header.
   */
  tellPriority?: boolean;
}

export interface SearchOptions {
  page?: number;
  size?: number;
  sort?: string;
  signal?: AbortSignal;
  /** Who waits for it (default interactive; see RequestPriority). */
  priority?: RequestPriority;
}

export interface SearchPage<T> {
  items: T[];
  totalResults: number;
  pageNumber: number;
  totalPages: number;
  links: { first?: string; last?: string; prev?: string; next?: string };
}

export interface IterateProgress {
  pagesFetched: number;
  pagesTotal: number;
  itemsYielded: number;
  /** Results the filters match. */
  totalResults: number;
  /** Results the service lets one search reach (at most 100 pages). */
  reachableResults: number;
}

export interface IterateOptions {
  /** Page size (default 100, the maximum). */
  pageSize?: number;
  /** Stop after this many results. */
  maxResults?: number;
  sort?: string;
  signal?: AbortSignal;
  onProgress?: (progress: IterateProgress) => void;
  /** Who waits for it (default interactive; see RequestPriority). */
  priority?: RequestPriority;
}

/** One page of results, yielded in order by iterateCompanies / iterateContacts. */
export interface IteratedPage<T> {
  items: T[];
  pageNumber: number;
  progress: IterateProgress;
}

export type EnrichOutcome = "matched" | "noMatch" | "limitExceeded" | "invalidInput" | "other";

/** The result for one input, in input order. Per-record outcomes are values, not exceptions. */
export interface EnrichRecord<TInput> {
  input: TInput;
  /** The service's matchStatus, as it said it. */
  matchStatus: string;
  outcome: EnrichOutcome;
  /** Record id when matched. */
  id?: string;
  attributes: Record<string, unknown>;
  /** The raw result item. */
  item?: EnrichResultItem;
  /** Why the client refused this input before sending it (outcome "invalidInput"). */
  issues?: ValidationIssue[];
  /** Output fields the service refused as unentitled: left out of the answer (the others came). */
  unentitledFields?: string[];
}

/** A signal enrich request's options: cancel, and whose wait it is (a cell's, or bulk work's). */
export interface SignalEnrichOptions {
  signal?: AbortSignal;
  priority?: RequestPriority;
}

export interface EnrichOptions {
  signal?: AbortSignal;
  /** Who waits for it (default interactive; see RequestPriority). */
  priority?: RequestPriority;
}

export interface UsageSummary {
  entries: UsageEntry[];
  aiActions?: AiActionBalance; // the AI action credits (research), when the usage lists them
}

export type AudienceScope = AudienceEnrichBody["data"]["attributes"]["scope"];
export interface StartAudienceEnrichmentOptions {
  scope: AudienceScope;
  rows?: string[];
  columns?: string[];
  signal?: AbortSignal;
}

type JobStatusAttributes = JobStatusDocument["data"]["attributes"];
/** A job's state as the service said it, its progress, and whether the state is final. */
export interface JobStatus extends Pick<JobStatusDocument["data"], "id">, Pick<JobStatusAttributes, "status" | "percentProgress"> {
  terminal: boolean;
  /** The answer's Retry-After in ms: the next poll waits at least this long. */
  retryAfterMs?: number;
}

/** One enrichment request whose content is read when the request leaves. */
export interface OpenEnrichBatch<TInput = MatchCompanyInput | MatchPersonInput> {
  /** Called once, when the request leaves: its inputs (1 to 25) and the fields it asks. */
  seal(): { inputs: TInput[]; outputFields: string[] };
  /** Read the content at once (a request whose inputs are fixed): nothing is sent when every input is refused. */
  sealNow?: boolean;
}

export interface AudienceRowsPage {
  rows: AudienceRow[];
  totalResults: number;
  pageNumber: number;
  totalPages: number;
}

/** Signal operations (docs/signals.md); implemented in signalOperations.ts. */
export interface SignalOperations {
  searchIntent(filters: IntentSearchFilters, options?: SearchOptions): Promise<SearchPage<IntentItem>>;
  iterateIntent(filters: IntentSearchFilters, options?: IterateOptions): AsyncIterable<IteratedPage<IntentItem>>;
  /** Every signal of one company on the topics (all pages of the answer). */
  enrichIntent(input: IntentEnrichInput, options?: SignalEnrichOptions): Promise<IntentItem[]>;
  searchScoops(filters: ScoopSearchFilters, options?: SearchOptions): Promise<SearchPage<ScoopItem>>;
  iterateScoops(filters: ScoopSearchFilters, options?: IterateOptions): AsyncIterable<IteratedPage<ScoopItem>>;
  /** Scoops of the companies named (companyId may list several, comma-separated). */
  enrichScoops(input: ScoopEnrichInput, options?: SignalEnrichOptions): Promise<ScoopItem[]>;
  searchNews(filters: NewsSearchFilters, options?: SearchOptions): Promise<SearchPage<NewsItem>>;
  iterateNews(filters: NewsSearchFilters, options?: IterateOptions): AsyncIterable<IteratedPage<NewsItem>>;
  enrichNews(input: NewsEnrichInput, options?: SignalEnrichOptions): Promise<NewsItem[]>;
  enrichTechnologies(companyId: number, options?: SignalEnrichOptions): Promise<TechnologiesItem[]>;
}

export interface ServiceClient
  extends SignalOperations, ResearchOperations, AudienceWriteOperations, DocumentOperations, HierarchyOperations, EntitlementOperations {
  searchCompanies(filters: CompanySearchFilters, options?: SearchOptions): Promise<SearchPage<CompanyItem>>;
  searchContacts(filters: ContactSearchFilters, options?: SearchOptions): Promise<SearchPage<ContactItem>>;
  companyInsights: import("./insightTypes.js").InsightOperations["companyInsights"];
  iterateCompanies(filters: CompanySearchFilters, options?: IterateOptions): AsyncIterable<IteratedPage<CompanyItem>>;
  iterateContacts(filters: ContactSearchFilters, options?: IterateOptions): AsyncIterable<IteratedPage<ContactItem>>;
  /** One request: 1 to 25 inputs, sent as given (an input the contract refuses is its own outcome, not sent). */
  enrichCompanies(inputs: MatchCompanyInput[], outputFields: string[], options?: EnrichOptions): Promise<EnrichRecord<MatchCompanyInput>[]>;
  /** One request: 1 to 25 inputs, sent as given. */
  enrichContacts(inputs: MatchPersonInput[], outputFields: string[], options?: EnrichOptions): Promise<EnrichRecord<MatchPersonInput>[]>;
  lookup(fieldName: string, options?: { signal?: AbortSignal }): Promise<LookupItem[]>;
  /** The output-field lookup (production): a hint, since accessGranted is documented for input fields only. */
  outputFields(kind: RecordKind, options?: { signal?: AbortSignal }): Promise<OutputFieldLookupDocument["data"]>;
  usage(options?: { signal?: AbortSignal }): Promise<UsageSummary>;
  listAudiences(options?: { signal?: AbortSignal }): Promise<Audience[]>;
  getAudience(audienceId: string, options?: { signal?: AbortSignal }): Promise<Audience>;
  getAudienceRows(
    audienceId: string,
    /** `search`: a filter group and/or the row ids to read (a RowSearch document). Rows are bulk work unless `priority` says otherwise. */
    options?: { page?: number; size?: number; search?: RowSearchAttributes; signal?: AbortSignal; priority?: RequestPriority },
  ): Promise<AudienceRowsPage>;
  startAudienceEnrichment(audienceId: string, options: StartAudienceEnrichmentOptions): Promise<string | null>;
  /**
   * One enrichment request whose inputs and fields are read when it leaves (after its rate-limit
   * slot), so work arriving meanwhile rides in it. One record per sealed input, in their order.
   */
  enrichBatch(
    kind: RecordKind,
    batch: OpenEnrichBatch,
    options?: { signal?: AbortSignal; priority?: RequestPriority },
  ): Promise<EnrichRecord<MatchCompanyInput | MatchPersonInput>[]>;
  getJob(audienceId: string, jobId: string, options?: { signal?: AbortSignal }): Promise<JobStatus>;
  /**
   * Settles once none of this client's requests is in flight, retries included (at once when
   * none is): after a cancellation, nothing the cancelled work started is still on its way.
   */
  idle(): Promise<void>;
  /** How this client paces itself on the organization's rate limit, and the hour and day budgets. */
  pacing(): PacingStatus;
  /** Calls `listener` when waiting on the organization's rate limit starts or ends, or a budget changes. */
  onPacingChange(listener: (status: PacingStatus) => void): () => void;
}

/** Every failure of the client is a ServiceError (errors.ts) with one of these kinds, an HTTP status (0 when none), the service's error objects, and a message for a sales-ops user. */
export type ServiceErrorKind =
  | "validation" // 400, or refused before sending; carries issues with pointers
  | "unauthorized" // 401, or no token ("sign in")
  | "paymentRequired" // 402
  | "forbidden" // 403; names the missing scope or role when the service says
  | "notFound" // 404
  | "rateLimited" // 429; carries retryAfterMs
  | "server" // 5xx
  | "network" // connection dropped or refused
  | "timeout"
  | "invalidResponse" // non-JSON or wrong shape
  | "cancelled"; // the caller's AbortSignal fired

/** The organization's rate-limit buckets (X-RateLimit-Rejected-Bucket names the one that refused). */
export type RateLimitBucket = "second" | "hour" | "day";

type GatewayError = GatewayErrorDocument["error"];
/**
 * One error object of the service, read from either the JSON:API document or the gateway shape
 * (requestId and retryable come from the gateway only; status as the service wrote it).
 */
export type ServiceErrorObject = Partial<Pick<ErrorObject, "id" | "code" | "status" | "title" | "detail" | "source">> &
  Pick<GatewayError, "requestId" | "retryable">;

/** What shouldRetry needs to know about one failed attempt. */
export interface RetryDecisionInput {
  /** The failure's kind. */
  kind: ServiceErrorKind;
  /** HTTP status (0 when none). */
  status: number;
  /** Attempts made so far, including the one that failed (1 after the first). */
  attempt: number;
  /** Whether the access token was already refreshed for this request. */
  tokenRefreshed: boolean;
  /** Retry-After of the response in ms, when it had one. */
  retryAfterMs?: number;
  /** The service's own word on retrying (`retryable` of its error document), when it said. */
  retryable?: boolean;
  /**
   * Whether sending the request again is harmless even if the first one reached the service.
   * Searches, enrichment (a record already enriched costs nothing again) and GETs are; starting
   * an audience job is not, so it is retried only when the service surely refused it (429, 401).
   */
  idempotent: boolean;
  /** Interactive or bulk: chooses the attempts and the patience below. */
  priority: RequestPriority;
  /** Time since the request was first tried, in ms. */
  elapsedMs: number;
  /** A number in [0, 1) for full jitter. */
  random: number;
  maxAttempts: number;
  bulkMaxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  patienceMs: number;
  bulkPatienceMs: number;
}

export type RetryDecision = { retry: false; reason: string } | { retry: true; delayMs: number; refreshToken: boolean; reason: string };
