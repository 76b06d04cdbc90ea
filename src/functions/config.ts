// What the runtime injects into the cell functions (functions.ts holds it), and how the
// implementations loaded on first use read it: apart from functions.ts, so that those
// implementations name these types without importing the entry that loads them.
import type { Clock } from "../core/api/index.js";
import type { EnrichmentEngine } from "../core/enrich/index.js";
import type { JobPoller } from "../core/jobs/index.js";
import type { CommitteeStore } from "../core/accounts/index.js";
import type { Research } from "../core/research/index.js";
import type { PlanSource } from "../core/plan/index.js";

/** What the cells may do of research: only what is free (no cell may spend an AI action credit). */
export type ResearchCells = Pick<Research, "lookalikesOf" | "storedBriefing">;

export interface FunctionsConfig {
  engine: EnrichmentEngine;
  /** Whether a user is signed in (no request is made otherwise); may wait for a stored sign-in to be restored. */
  isSignedIn: () => boolean | Promise<boolean>;
  /** Whether the host shows entity values (data-type cards); the company name is returned elsewhere. */
  supportsEntityCards?: () => boolean;
  /** Today, for the cells that count back from it (BIZ.SCOOPS); default the system clock. */
  clock?: Pick<Clock, "now">;
  /** BIZ.INSIGHT: whether the plan includes insights (core/plan allows(plan, "insights")); absent: the service decides. */
  insightsAllowed?: () => { allowed: true } | { allowed: false; reason: string } | Promise<{ allowed: true } | { allowed: false; reason: string }>;
  /** BIZ.LOOKALIKES and BIZ.BRIEFING (runtime.research's free parts). */
  research?: ResearchCells;
  /** BIZ.COMMITTEE: the committees the pane fetched (read only: no cell fetches an org chart). */
  committees?: Pick<CommitteeStore, "get">;
  /** The account's plan: a research cell it lacks answers at once (the pipeline's kinds check it themselves). */
  plan?: Pick<PlanSource, "refusal">;
}

export interface JobStatusConfig {
  /** runtime.jobPoller: the same poller as the task pane's job panel. */
  poller: JobPoller;
  isSignedIn: () => boolean | Promise<boolean>;
}

/** The configuration as functions.ts holds it: awaited (waits at start-up) or as it is now. */
export interface ConfigAccess {
  current(): Promise<FunctionsConfig | undefined>;
  now(): FunctionsConfig | undefined;
}

/** Whether the formula is still being typed (Excel's value preview): no request is made then. */
export function isPreview(invocation: CustomFunctions.Invocation | undefined): boolean {
  // Typed as string in @types/custom-functions-runtime, a boolean at run time.
  const flag: unknown = invocation?.isInValuePreview;
  return flag === true || flag === "true";
}
