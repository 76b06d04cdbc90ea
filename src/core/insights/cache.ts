// The insights of a company for a set of signal types, kept in the enrichment pipeline's
// persistent store (core/enrich/caches.ts CacheStore, under its "biz-enrich:" keys so clearing
// the cache forgets them too) until the first of them expires (its expiresAt): a list asked again
// before then costs no request. A company without insights is believed for a day (one may come).
import type { Insight } from "../contract/index.js";
import type { CacheStore } from "../enrich/index.js";

const KEY_PREFIX = "biz-enrich:insights:v1:";
export const NO_INSIGHT_MS = 24 * 60 * 60 * 1000;

interface Entry {
  at: number;
  until: number;
  insights: Insight[];
}

/** The key of a company and a type set (none: every type), the same whatever the types' order. */
export function insightKey(companyId: number, types: readonly string[]): string {
  return `${KEY_PREFIX}${companyId}:${types.length === 0 ? "*" : [...new Set(types)].sort().join(",")}`;
}

/** Until when these insights are believed: the first expiry among them, or a day when there are none. */
export function freshUntil(insights: readonly Insight[], now: number): number {
  const expiries = insights.map((i) => Date.parse(i.expiresAt ?? "")).filter((t) => Number.isFinite(t));
  return expiries.length > 0 ? Math.min(...expiries) : now + NO_INSIGHT_MS;
}

function parse(text: string): Entry | undefined {
  try {
    const value = JSON.parse(text) as Partial<Entry>;
    return typeof value.at === "number" && typeof value.until === "number" && Array.isArray(value.insights) ? (value as Entry) : undefined;
  } catch {
    return undefined;
  }
}

export class InsightCache {
  constructor(
    private readonly store: () => CacheStore,
    private readonly now: () => number,
  ) {}

  /** The fresh insights of each company of these keys that has some stored. */
  async fresh(keys: readonly string[]): Promise<Map<string, Insight[]>> {
    const stored = await this.store().getMany(keys);
    const found = new Map<string, Insight[]>();
    const now = this.now();
    for (const [key, text] of stored) {
      const entry = parse(text);
      if (entry && now < entry.until) found.set(key, entry.insights);
    }
    return found;
  }

  async put(entries: ReadonlyArray<readonly [key: string, insights: Insight[]]>): Promise<void> {
    const now = this.now();
    await this.store().setMany(entries.map(([key, insights]) => [key, JSON.stringify({ at: now, until: freshUntil(insights, now), insights })]));
  }
}
