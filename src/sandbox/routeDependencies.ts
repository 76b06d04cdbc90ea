// What the sandbox's core routes are built from: the shared context and the stores, the
// searcher, the rate limiter, the fault plan and the table of operations, created once per app in app.ts.
import type { SandboxContext, SandboxStats } from "./context.js";
import type { AccountStore } from "./credits.js";
import type { FaultPlan } from "./faults.js";
import type { RateLimiter } from "./rateLimit.js";
import type { SandboxRecordStore } from "./records.js";
import type { AiCreditStore } from "./research/aiCredits.js";
import type { OperationTable } from "./routes/operations.js";
import type { Searcher } from "./search/runSearch.js";

export interface RouteDependencies {
  ctx: SandboxContext;
  accounts: AccountStore;
  records: SandboxRecordStore;
  searcher: Searcher;
  limiter: RateLimiter;
  faultPlan: FaultPlan;
  /** AI action credits (research), a balance of their own per account. */
  aiCredits: AiCreditStore;
  /** The specification's operations: each served as a route, and called directly by the production profile. */
  operations: OperationTable;
  /** Milliseconds spent seeding on this start (0 when existing data was reused). */
  seededInMs: number;
}

export function createStats(): SandboxStats {
  const requests = new Map<string, number>();
  return { requests, reset: () => requests.clear() };
}
