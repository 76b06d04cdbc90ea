// Scoops for many companies: scoop enrich takes a comma-separated list of company ids, so the
// ids go in batches (25 per request, the service's enrich batch size) rather than one by one.
import { LIMITS, type ScoopEnrichInput, type ScoopItem } from "../contract/index.js";
import type { RequestPriority, ServiceClient } from "../api/types.js";
import { runAll } from "../run/index.js";

export const SCOOP_BATCH = LIMITS.maxEnrichInputs;

type ScoopFilters = Omit<ScoopEnrichInput, "companyId" | "companyName" | "companyWebsite">;

/** The ids in request-sized groups (duplicates once). */
export function scoopBatches(companyIds: readonly number[], size: number = SCOOP_BATCH): number[][] {
  const ids = [...new Set(companyIds)];
  return Array.from({ length: Math.ceil(ids.length / size) }, (_, i) => ids.slice(i * size, (i + 1) * size));
}

/** Each company's scoops (newest first as the service sorts them); companies with none map to []. */
export async function scoopsForCompanies(
  client: Pick<ServiceClient, "enrichScoops">,
  companyIds: readonly number[],
  filters: ScoopFilters = {},
  options: { signal?: AbortSignal; priority?: RequestPriority; batchSize?: number } = {},
): Promise<Map<number, ScoopItem[]>> {
  const out = new Map<number, ScoopItem[]>(companyIds.map((id) => [id, []]));
  // One request per batch of ids, on the one bulk run (the client's queue paces them).
  const answers = await runAll(
    scoopBatches(companyIds, options.batchSize),
    ({ items: [ids] }, call) => client.enrichScoops({ ...filters, companyId: (ids as number[]).join(",") }, call).then((items) => [items]),
    { cap: 1, ...(options.signal ? { signal: options.signal } : {}), priority: options.priority ?? "interactive" },
  );
  for (const items of answers) for (const item of items) if (item.attributes.company) out.get(item.attributes.company.id)?.push(item);
  return out;
}
