// The sandbox's internal services, built once per app next to the shared context.
import type { SandboxContext, SandboxStats } from "./context.js";
import type { AccountStore } from "./credits.js";
import type { FaultPlan } from "./faults.js";
import type { RateLimiter } from "./rateLimit.js";
import type { SandboxRecordStore } from "./records.js";
import type { Searcher } from "./search/runSearch.js";

export interface SandboxServices {
  ctx: SandboxContext;
  accounts: AccountStore;
  records: SandboxRecordStore;
  searcher: Searcher;
  limiter: RateLimiter;
  faultPlan: FaultPlan;
  /** Milliseconds spent seeding on this start (0 when existing data was reused). */
  seededInMs: number;
}

export function createStats(): SandboxStats {
  const requests = new Map<string, number>();
  return { requests, reset: () => requests.clear() };
}
