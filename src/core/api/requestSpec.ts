// What one logical request is (RequestSpec) and what came back (RawResponse): the shapes the
// request runner, its hooks and the operations share, apart from the runner itself so that the
// hooks and the client's types can name them without importing it.
import type { RequestPriority } from "../contract/common.js";

export type { RequestPriority };

export interface RequestSpec {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  url: string;
  /** For messages and logs, e.g. "POST /data/v1/companies/search". */
  operation: string;
  body?: unknown;
  /**
   * Builds the body when the request leaves (after its concurrency and rate-limit slots and
   * the token), instead of `body`: work that arrives while the request waits rides in it.
   * Called once; retries send the same body.
   */
  bodyWhenSent?: () => unknown;
  /** The request may spend credits. */
  spends?: boolean;
  /** The request reads the account's usage: it changes nothing a usage gauge shows (usageChanges.ts). */
  readsUsage?: boolean;
  /** Whether a repeat is harmless if the first attempt reached the service (see RetryDecisionInput). */
  idempotent: boolean;
  /**
   * Who waits for the answer (default interactive): bulk requests queue behind interactive ones
   * for a slot, and wait longer for the organization's rate limit (RetryOptions).
   */
  priority?: RequestPriority;
  /** Statuses that count as success (default [200]). */
  expect?: number[];
  signal?: AbortSignal;
}

export interface RawResponse {
  status: number;
  headers: { get(name: string): string | null };
  body: string;
}
