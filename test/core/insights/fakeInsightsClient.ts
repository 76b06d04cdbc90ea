// A scripted insights service for the insights tests: the match client's companies
// (test/core/enrich/fakeMatchClient.ts), and for each company asked a funding round and a
// leadership change dated `today`, each expiring `ttlMs` later; it records every request (ids and
// types) and refuses more than 50 companies, as the service does.
import type { Insight, InsightType } from "../../../src/core/contract/index.js";
import { FakeMatchClient } from "../enrich/fakeMatchClient.js";

const DAY_MS = 24 * 60 * 60 * 1000;
/** A payload with its type's own facts (the contract reads them openly). */
const payload = (facts: { displayText: string; date: string } & Record<string, unknown>): Insight["signalPayload"] => facts;

export class InsightsClient extends FakeMatchClient {
  readonly insightCalls: { ids: number[]; types: readonly InsightType[] }[] = [];
  /** The service's today (ms): insights are dated it. */
  today = Date.parse("2026-11-28T00:00:00Z");
  ttlMs = 30 * DAY_MS;
  /** Companies without any insight. */
  quiet = new Set<number>();
  /** Whether each company also has an upcoming renewal that stays from day to day (the same signal id). */
  renewals = false;

  insightsOf(id: number, types: readonly InsightType[]): Insight[] {
    if (this.quiet.has(id)) return [];
    const date = new Date(this.today).toISOString();
    const expiresAt = new Date(this.today + this.ttlMs).toISOString();
    const day = date.slice(0, 10);
    const all: Insight[] = [
      {
        ziCompanyId: id,
        signalId: `funding-${id}-${day}`,
        signalType: "zi.funding",
        insightDate: date,
        expiresAt,
        signalPayload: payload({ displayText: `Company ${id} raised $5M`, date, type: "Seed", amount: "$5M", investors: ["North Fund", "South Capital"] }),
      },
      {
        ziCompanyId: id,
        signalId: `cxo-${id}-${day}`,
        signalType: "zi.cxochange",
        insightDate: date,
        expiresAt,
        signalPayload: payload({ displayText: "New CFO", date, ziCompanyId: id, ziContactId: 7, name: "Ada Lovelace", title: "CFO", changeType: "Joined" }),
      },
    ];
    if (this.renewals) all.push(this.renewal(id));
    return types.length === 0 ? all : all.filter((i) => (types as readonly string[]).includes(i.signalType));
  }

  renewal(id: number): Insight {
    const date = "2026-11-01T00:00:00Z";
    return {
      ziCompanyId: id,
      signalId: `renewal-${id}`,
      signalType: "zi.upcomingrenewal",
      insightDate: date,
      expiresAt: "2027-01-01T00:00:00Z",
      signalPayload: payload({ displayText: "Renewal in 60 days", date, renewalDate: "2027-01-01T00:00:00Z", signalId: `renewal-${id}` }),
    };
  }

  async companyInsights(ids: readonly number[], types: readonly InsightType[] = []): Promise<Insight[]> {
    if (ids.length > 50) throw new Error("more than 50 companies in one request");
    this.insightCalls.push({ ids: [...ids], types });
    await Promise.resolve();
    return ids.flatMap((id) => this.insightsOf(id, types));
  }
}
