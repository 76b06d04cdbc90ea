// What every group of client operations shares: the addresses, the request runner, the clock,
// and the two steps around each request (refuse before sending, shape-check after).
import type { Static, TSchema } from "@sinclair/typebox";
import type { ValidationIssue } from "../contract/index.js";
import { serviceError } from "./errors.js";
import type { RawResponse, RequestSpec } from "./requestSpec.js";
import { parseDocument } from "./responses.js";
import type { ClientEntitlements, Clock } from "./types.js";

export interface ClientContext {
  /** Data API address without a trailing slash. */
  baseUrl: string;
  /** Audience API address without a trailing slash. */
  audiencesBaseUrl: string;
  clock: Clock;
  /** Requests in flight at once: also how far paging reads ahead. */
  concurrency: number;
  send(spec: RequestSpec): Promise<RawResponse>;
  /** The account's unentitled output fields (left out before sending, learnt from refusals). */
  entitlements?: ClientEntitlements;
  /** Which service the client speaks to: the specification's paths, or production's (research: its copilot API). Default specification. */
  profile?: "specification" | "production";
  /** Sends and shape-checks the answer against `schema`. */
  call<T extends TSchema>(schema: T, spec: RequestSpec): Promise<Static<T>>;
}

export function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

export function queryString(params: Record<string, string | number | undefined>): string {
  const parts = Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`);
  return parts.length > 0 ? `?${parts.join("&")}` : "";
}

/** Refuses a request the contract rejects, before anything is sent. */
export function refuse(issues: ValidationIssue[], operation: string): never {
  throw serviceError("validation", {
    issues,
    operation,
    message: `${operation} not sent: ${issues.map((i) => i.message).join(" ")}`,
  });
}

export const withSignal = (signal: AbortSignal | undefined): { signal?: AbortSignal } => (signal ? { signal } : {});

export function callWith(send: (spec: RequestSpec) => Promise<RawResponse>) {
  return async <T extends TSchema>(schema: T, spec: RequestSpec): Promise<Static<T>> => parseDocument(schema, await send(spec), spec.operation);
}
