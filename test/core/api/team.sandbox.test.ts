// Several users of one organization at once against the real sandbox over HTTP: the account's
// per-second bucket is shared, and every client's work still completes (none gives up on 429).
// Sandbox and clients share a manual clock: the rate-limit windows pass without waiting.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createServiceClient, type LogEntry } from "../../../src/core/api/index.js";
import { createEnrichmentEngine } from "../../../src/core/enrich/index.js";
import { clientTimeOn, manualClock, useSandbox } from "../../helpers/sandbox.js";

const clock = manualClock();
const time = clientTimeOn(clock);
const sb = useSandbox({ companies: 300, contacts: 100, rateLimit: { perSecond: 5 }, clock });

describe("a team of one account on the sandbox", () => {
  it("ten users enriching at once all finish, sharing the account's bucket", async () => {
    await sb.setAccount("team", 10_000);
    const logs: LogEntry[] = [];
    const clients = await Promise.all(
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(async (n) => {
        const token = await sb.token({ account: "team", subject: `user-${n}` });
        return createServiceClient({ baseUrl: sb.url, getAccessToken: async () => token, log: (e) => logs.push(e), ...time });
      }),
    );
    const ids = (await clients[0]!.searchCompanies({}, { size: 100 })).items.map((c) => Number(c.id));
    sb.resetStats();
    // 100 ids each: 4 requests of 25 per user, 40 in all, at 5 a second for the account: 8 s of
    // work sent at once: without sharing, most requests would be refused four times and fail.
    // Through each user's enrichment pipeline, as an Enrich selection sends them (25 a request).
    const results = await Promise.all(clients.map((c) => createEnrichmentEngine({ client: c, clock: time.clock }).enrichIds("company", ids, ["name"])));
    for (const records of results) assert.equal([...records.values()].filter((r) => r.ok).length, 100);
    const refused = logs.filter((e) => e.message.includes("(rateLimited")).length;
    assert.equal(sb.requests("POST /data/v1/companies/enrich"), 40 + refused, "every refused request was sent again, nothing else");
    assert.ok(refused > 0, "the bucket was contended");
  });
});
