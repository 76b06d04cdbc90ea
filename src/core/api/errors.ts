// One error hierarchy for every failure of the client, chosen by one factory (serviceError),
// with errorFromResponse reading an HTTP answer into it. Every message, error object and
// toJSON() output is redacted: no Authorization header or token survives into an error.
import { DATA_ROLES, SCOPES, summarizeIssues, type ValidationIssue } from "../contract/index.js";
import { forbiddenMessage, NO_CREDITS_MESSAGE } from "../errors/failure.js";
import { catalogUserMessage } from "./catalogMessages.js";
import { issuesFromErrors, readErrorObjects } from "./errorBodies.js";
import { redactText, redactValue } from "./redact.js";
import type { RateLimitBucket, ServiceErrorKind, ServiceErrorObject } from "./types.js";

/** A 403's sentence lives with the error factory (core/errors/failure.ts). */
export { forbiddenMessage };

export interface ServiceErrorDetails {
  status?: number;
  /** Technical message (for logs and developers); redacted. */
  message?: string;
  /** Message for a sales-ops user; a default per kind is used when absent. */
  userMessage?: string;
  errors?: ServiceErrorObject[];
  issues?: ValidationIssue[];
  retryAfterMs?: number;
  /** Which of the organization's rate-limit buckets refused a 429 (X-RateLimit-Rejected-Bucket). */
  rateLimitBucket?: RateLimitBucket;
  /** The service's `retryable`, when its error document said one. */
  retryable?: boolean;
  missingScope?: string;
  missingRole?: string;
  requestId?: string;
  /** What the client was doing, e.g. "POST /data/v1/companies/search". */
  operation?: string;
  cause?: unknown;
  /** Secrets known to the caller (the current token) to redact as well. */
  secrets?: Iterable<string>;
}

export class ServiceError extends Error {
  readonly kind: ServiceErrorKind;
  /** HTTP status, 0 when there was no response. */
  readonly status: number;
  readonly errors: ServiceErrorObject[];
  readonly issues: ValidationIssue[];
  readonly retryAfterMs?: number;
  readonly rateLimitBucket?: RateLimitBucket;
  /** The service's own word on retrying (its error document's `retryable`); undefined when it said none. */
  readonly retryable: boolean | undefined;
  readonly missingScope?: string;
  readonly missingRole?: string;
  readonly requestId?: string;
  readonly operation?: string;
  /** What to show a sales-ops user. */
  readonly userMessage: string;

  constructor(kind: ServiceErrorKind, details: ServiceErrorDetails = {}) {
    const secrets = [...(details.secrets ?? [])];
    const userMessage = redactText(details.userMessage ?? defaultUserMessage(kind, details), secrets);
    super(redactText(details.message ?? userMessage, secrets));
    this.name = new.target.name;
    this.kind = kind;
    this.status = details.status ?? 0;
    this.errors = (details.errors ?? []).map((e) => redactValue(e, secrets) as ServiceErrorObject);
    // Issues are shown beside the form's fields: every string of them is redacted too.
    this.issues = (details.issues ?? []).map((issue) => redactValue(issue, secrets) as ValidationIssue);
    if (details.retryAfterMs !== undefined) this.retryAfterMs = details.retryAfterMs;
    if (details.rateLimitBucket !== undefined) this.rateLimitBucket = details.rateLimitBucket;
    this.retryable = details.retryable;
    if (details.missingScope !== undefined) this.missingScope = details.missingScope;
    if (details.missingRole !== undefined) this.missingRole = details.missingRole;
    if (details.requestId !== undefined) this.requestId = redactText(details.requestId, secrets);
    if (details.operation !== undefined) this.operation = redactText(details.operation, secrets);
    this.userMessage = userMessage;
    // Keep only a redacted description of the cause: a transport error may quote headers.
    if (details.cause !== undefined) {
      const cause = details.cause instanceof Error ? `${details.cause.name}: ${details.cause.message}` : String(details.cause);
      Object.defineProperty(this, "cause", { value: redactText(cause, secrets), enumerable: false });
    }
    if (this.stack) this.stack = redactText(this.stack, secrets);
  }

  /** A plain, redacted description (what logs and the task pane's error details show). */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = {
      name: this.name,
      kind: this.kind,
      status: this.status,
      message: this.message,
      userMessage: this.userMessage,
      errors: this.errors,
    };
    if (this.issues.length > 0) out.issues = this.issues;
    if (this.retryAfterMs !== undefined) out.retryAfterMs = this.retryAfterMs;
    if (this.rateLimitBucket !== undefined) out.rateLimitBucket = this.rateLimitBucket;
    if (this.retryable !== undefined) out.retryable = this.retryable;
    if (this.missingScope !== undefined) out.missingScope = this.missingScope;
    if (this.missingRole !== undefined) out.missingRole = this.missingRole;
    if (this.requestId !== undefined) out.requestId = this.requestId;
    if (this.operation !== undefined) out.operation = this.operation;
    return redactValue(out) as Record<string, unknown>;
  }
}

export class ValidationError extends ServiceError {}
export class UnauthorizedError extends ServiceError {}
export class PaymentRequiredError extends ServiceError {}
export class ForbiddenError extends ServiceError {}
export class NotFoundError extends ServiceError {}
export class RateLimitedError extends ServiceError {}
export class ServerError extends ServiceError {}
class NetworkError extends ServiceError {}
class TimeoutError extends ServiceError {}
export class InvalidResponseError extends ServiceError {}
class CancelledError extends ServiceError {}

const CLASSES: Record<ServiceErrorKind, new (kind: ServiceErrorKind, details?: ServiceErrorDetails) => ServiceError> = {
  validation: ValidationError,
  unauthorized: UnauthorizedError,
  paymentRequired: PaymentRequiredError,
  forbidden: ForbiddenError,
  notFound: NotFoundError,
  rateLimited: RateLimitedError,
  server: ServerError,
  network: NetworkError,
  timeout: TimeoutError,
  invalidResponse: InvalidResponseError,
  cancelled: CancelledError,
};

/** The one factory: every ServiceError of the client is made here. */
export function serviceError(kind: ServiceErrorKind, details: ServiceErrorDetails = {}): ServiceError {
  return new CLASSES[kind](kind, details);
}

export function isServiceError(value: unknown): value is ServiceError {
  return value instanceof ServiceError;
}

/**
 * The one road from an error to its sentence: the catalog's when the error carries a catalog code
 * (one sentence per code), else the kind's. An hour or day bucket used up says more (when it
 * opens again) than the catalog's sentence.
 */
function defaultUserMessage(kind: ServiceErrorKind, d: ServiceErrorDetails): string {
  const bucketed = kind === "rateLimited" && (d.rateLimitBucket === "hour" || d.rateLimitBucket === "day");
  const facts = {
    ...(d.issues ? { issues: d.issues } : {}),
    ...(d.operation ? { operation: d.operation } : {}),
    ...(d.retryAfterMs !== undefined ? { retryAfterMs: d.retryAfterMs } : {}),
  };
  const said = !bucketed && d.errors && d.errors.length > 0 ? catalogUserMessage({ errors: d.errors, ...facts }) : undefined;
  return said ?? kindMessage(kind, d);
}

function kindMessage(kind: ServiceErrorKind, d: ServiceErrorDetails): string {
  switch (kind) {
    case "validation":
      if (d.issues && d.issues.length > 0) return summarizeIssues(d.issues);
      return `The service did not accept the request${detailSuffix(d.errors)}. Check the filters and try again.`;
    case "unauthorized":
      return "You are signed out or your sign-in has expired. Sign in again.";
    case "paymentRequired":
      return NO_CREDITS_MESSAGE;
    case "forbidden":
      return forbiddenMessage(d.missingScope, d.missingRole !== undefined);
    case "notFound":
      return "The service could not find this item. It may have been deleted; refresh the list.";
    case "rateLimited":
      if (d.rateLimitBucket === "hour" || d.rateLimitBucket === "day") {
        const wait = d.retryAfterMs !== undefined ? ` It opens again in about ${Math.max(1, Math.ceil(d.retryAfterMs / 60_000))} min.` : "";
        return `Your organization has used its ${d.rateLimitBucket === "hour" ? "hourly" : "daily"} request allowance (shared by everyone in it).${wait} Try again then, or ask your administrator for a larger plan.`;
      }
      return d.retryAfterMs !== undefined
        ? `The service is receiving too many requests from your account. Try again in ${Math.max(1, Math.ceil(d.retryAfterMs / 1000))} seconds.`
        : "The service is receiving too many requests from your account. Try again in a moment.";
    case "server":
      return `The service had a problem${d.status ? ` (error ${d.status})` : ""}. Try again in a moment.`;
    case "network":
      return "Could not reach the service. Check your internet connection and try again.";
    case "timeout":
      return "The service took too long to answer. Try again in a moment.";
    case "invalidResponse":
      return "The service sent an answer the add-in does not understand. Try again; if it keeps happening, tell your administrator.";
    case "cancelled":
      return "Cancelled.";
  }
}

function detailSuffix(errors: ServiceErrorObject[] | undefined): string {
  const text = errors?.map((e) => e.detail ?? e.title).find((t) => t !== undefined && t !== "");
  return text ? `: ${text}` : "";
}

function kindForStatus(status: number): ServiceErrorKind {
  if (status === 400 || status === 422) return "validation";
  if (status === 401) return "unauthorized";
  if (status === 402) return "paymentRequired";
  if (status === 403) return "forbidden";
  if (status === 404) return "notFound";
  if (status === 429) return "rateLimited";
  if (status === 408) return "timeout";
  if (status >= 500) return "server";
  return "invalidResponse";
}

export interface ResponseFacts {
  status: number;
  headers: { get(name: string): string | null };
  /** The body as text ("" when none). */
  body: string;
  operation?: string;
  /** Secrets (the token sent) to redact as well. */
  secrets?: Iterable<string>;
  /** Clock time now in ms, for an HTTP-date Retry-After. */
  now?: number;
}

/** Reads an HTTP error answer (either error shape, or none) into the right ServiceError. */
export function errorFromResponse(facts: ResponseFacts): ServiceError {
  const kind = kindForStatus(facts.status);
  const errors = readErrorObjects(facts.body);
  const retryAfterMs = parseRetryAfter(facts.headers.get("retry-after"), facts.now ?? Date.now());
  const texts = [...errors.flatMap((e) => [e.code, e.title, e.detail]), facts.headers.get("www-authenticate") ?? undefined].filter(
    (t): t is string => typeof t === "string",
  );
  const details: ServiceErrorDetails = {
    status: facts.status,
    errors,
    message: technicalMessage(facts, errors),
  };
  if (facts.operation !== undefined) details.operation = facts.operation;
  if (facts.secrets !== undefined) details.secrets = facts.secrets;
  if (retryAfterMs !== undefined) details.retryAfterMs = retryAfterMs;
  const retryable = retryableOf(errors);
  if (retryable !== undefined) details.retryable = retryable;
  const bucket = facts.headers.get("x-ratelimit-rejected-bucket")?.trim().toLowerCase();
  if (kind === "rateLimited" && (bucket === "second" || bucket === "hour" || bucket === "day")) details.rateLimitBucket = bucket;
  // The error's instance id (the gateway's requestId, or a JSON:API error object's id): support asks for it.
  const requestId = errors.find((e) => e.requestId)?.requestId ?? errors.find((e) => e.id)?.id ?? facts.headers.get("x-request-id") ?? undefined;
  if (requestId) details.requestId = requestId;
  if (kind === "validation") details.issues = issuesFromErrors(errors);
  // Its sentence comes from the one road (defaultUserMessage): the catalog's codes say more than the status.
  if (kind === "forbidden") {
    const scope = findMissing(texts, Object.values(SCOPES), /scope[^a-z]*["'=:\s]+([a-z]+:[a-z-]+:[a-z]+)/i);
    const role = findMissing(texts, DATA_ROLES, /role[^a-z]*["'=:\s]+([a-z]+:[a-z]+)/i);
    if (scope) details.missingScope = scope;
    if (role) details.missingRole = role;
  }
  return serviceError(kind, details);
}

/** One word for the whole answer: any object saying "not retryable" wins over one saying it is. */
function retryableOf(errors: ServiceErrorObject[]): boolean | undefined {
  const said = errors.map((e) => e.retryable).filter((r): r is boolean => r !== undefined);
  if (said.length === 0) return undefined;
  return said.every(Boolean);
}

function technicalMessage(facts: ResponseFacts, errors: ServiceErrorObject[]): string {
  const first = errors[0];
  const what = first ? [first.code, first.title, first.detail].filter(Boolean).join(" - ") : "no error details";
  return `${facts.operation ?? "request"} answered HTTP ${facts.status}: ${what}`;
}

function findMissing(texts: string[], known: readonly string[], pattern: RegExp): string | undefined {
  for (const text of texts) {
    const m = pattern.exec(text);
    if (m?.[1]) return m[1];
  }
  for (const text of texts) {
    const hit = known.find((k) => text.includes(k));
    if (hit) return hit;
  }
  return undefined;
}

/** Retry-After in ms: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
