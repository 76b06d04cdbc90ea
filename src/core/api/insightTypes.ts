// The insights operation as the client offers it (insightOperations.ts, docs/signals.md).
import type { Insight, InsightType } from "../contract/index.js";
import type { RequestPriority } from "./requestSpec.js";

export interface InsightOperations {
  /** The insights of these companies (at most 50 ids), of these types (none: every type), each with its company id. */
  companyInsights(
    companyIds: readonly number[],
    types?: readonly InsightType[],
    options?: { signal?: AbortSignal; priority?: RequestPriority },
  ): Promise<Insight[]>;
}
