// Shared pieces of the wire format: JSON:API envelopes, paging, errors, limits.
import { Type, type Static, type TSchema } from "@sinclair/typebox";

export const MEDIA_TYPE = "application/vnd.api+json";

/** The two kinds of record the service searches and enriches. */
export const RecordKind = Type.Union([Type.Literal("company"), Type.Literal("contact")]);
export type RecordKind = Static<typeof RecordKind>;

/** The service's limits (docs/service.md, "Limits"). */
export const LIMITS = {
  maxStringLength: 500,
  maxArrayItems: 50,
  maxPageSize: 100,
  defaultPageSize: 25,
  /** The service refuses page[number] above this, so one filter set reaches 10,000 results. */
  maxPageNumber: 100,
  maxEnrichInputs: 25,
  maxInt32: 2147483647,
} as const;

/**
 * The service's rate-limit and back-off answer headers. The client reads them, so whatever serves
 * the API to a browser exposes them through CORS.
 */
export const RATE_LIMIT_HEADERS = [
  "X-RateLimit-Limit-Second",
  "X-RateLimit-Remaining-Second",
  "X-RateLimit-Limit-Hour",
  "X-RateLimit-Remaining-Hour",
  "X-RateLimit-Limit-Day",
  "X-RateLimit-Remaining-Day",
  "X-RateLimit-Rejected-Bucket",
  "X-RateLimit-Reset",
  "Retry-After",
] as const;
/** The production gateway also counts per minute. */
export const MINUTE_RATE_LIMIT_HEADERS = ["X-RateLimit-Limit-Minute", "X-RateLimit-Remaining-Minute"] as const;

/**
 * Who waits for a request: `interactive` (cells, previews, pickers, job status) goes ahead of
 * `bulk` (imports, Enrich selection, partition probes, audience rows).
 */
export type RequestPriority = "interactive" | "bulk";
/** The request header in which the add-in tells the organization's relay a request's priority. */
export const PRIORITY_HEADER = "x-bizdata-priority";
/**
 * The answer header by which the organization's relay says that it paces the organization's
 * requests centrally (its value: the rate). The client then leaves sharing the bucket to it.
 */
export const RELAY_PACED_HEADER = "x-bizdata-relay-paced";

const PaginationLinks = Type.Object(
  {
    first: Type.Optional(Type.String()),
    last: Type.Optional(Type.String()),
    prev: Type.Optional(Type.String()),
    next: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);

const SearchMeta = Type.Object(
  {
    totalResults: Type.Integer({ minimum: 0 }),
    page: Type.Object({ number: Type.Integer({ minimum: 0 }), total: Type.Integer({ minimum: 0 }) }, { additionalProperties: true }),
  },
  { additionalProperties: true },
);

/** The search result document (docs/service.md, "Search"), generic over its item schema. */
export function SearchDocument<T extends TSchema>(item: T) {
  return Type.Object(
    {
      data: Type.Array(item),
      meta: Type.Optional(SearchMeta),
      links: Type.Optional(PaginationLinks),
    },
    { additionalProperties: true },
  );
}

/** An error object (docs/service.md, "Errors"). */
export const ErrorObject = Type.Object(
  {
    id: Type.String(),
    code: Type.String(),
    status: Type.String(),
    title: Type.Optional(Type.String()),
    detail: Type.Optional(Type.String()),
    source: Type.Optional(
      Type.Object(
        {
          cookie: Type.Optional(Type.String()),
          header: Type.Optional(Type.String()),
          pointer: Type.Optional(Type.String()),
          parameter: Type.Optional(Type.String()),
        },
        { additionalProperties: true },
      ),
    ),
  },
  { additionalProperties: true },
);
export type ErrorObject = Static<typeof ErrorObject>;

/** The JSON:API error document (docs/service.md, "Errors"). */
export const ErrorDocument = Type.Object(
  {
    errors: Type.Array(ErrorObject),
    title: Type.Optional(Type.String()),
    detail: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);
export type ErrorDocument = Static<typeof ErrorDocument>;

/** The production gateway's error shape for 401/403/429 (docs/service.md, "Errors"). */
export const GatewayErrorDocument = Type.Object(
  {
    error: Type.Object(
      {
        code: Type.Optional(Type.String()),
        message: Type.Optional(Type.String()),
        status: Type.Optional(Type.Union([Type.String(), Type.Integer()])),
        requestId: Type.Optional(Type.String()),
        retryable: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: true },
    ),
  },
  { additionalProperties: true },
);
export type GatewayErrorDocument = Static<typeof GatewayErrorDocument>;

/** Error codes. 400s use the service's published codes; the rest are neutral. */
export const ERROR_CODES = {
  validation: "PFAPI0002",
  invalidValue: "PFAPI0006",
  invalidOutputFields: "PFAPI0009",
  creditLimit: "PFAPI0011",
  unauthorized: "UNAUTHORIZED",
  forbidden: "FORBIDDEN",
  notFound: "NOT_FOUND",
  paymentRequired: "PAYMENT_REQUIRED",
  rateLimited: "RATE_LIMITED",
  server: "SERVER_ERROR",
  unsupportedMediaType: "UNSUPPORTED_MEDIA_TYPE",
} as const;

export { SCOPES } from "./scopes.js";

/** Any one of these roles is required by every data operation. */
export const DATA_ROLES = ["fea:zia", "fea:api"] as const;

/** Operation paths (docs/service.md, "Conventions"). Audience paths are relative to the audience base URL. */
export const PATHS = {
  searchCompanies: "/data/v1/companies/search",
  searchContacts: "/data/v1/contacts/search",
  enrichCompanies: "/data/v1/companies/enrich",
  enrichContacts: "/data/v1/contacts/enrich",
  lookup: (fieldName: string) => `/data/v1/lookup/${encodeURIComponent(fieldName)}`,
  usage: "/data/v1/users/usage",
  audiences: "/v1/audiences",
  audience: (audienceId: string) => `/v1/audiences/${encodeURIComponent(audienceId)}`,
  audienceRows: (audienceId: string) => `/v1/audiences/${encodeURIComponent(audienceId)}/rows`,
  /** Rows read by a RowSearch document (core/contract/rowSearch.ts): how the client reads them. */
  audienceRowsSearch: (audienceId: string) => `/v1/audiences/${encodeURIComponent(audienceId)}/rows/actions/search`,
  enrichAudience: (audienceId: string) => `/v1/audiences/${encodeURIComponent(audienceId)}/actions/enrich`,
  job: (audienceId: string, jobId: string) => `/v1/audiences/${encodeURIComponent(audienceId)}/jobs/${encodeURIComponent(jobId)}`,
} as const;
