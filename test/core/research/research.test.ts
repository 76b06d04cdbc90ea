// Research for many companies on a client faked through its public interface: one request per
// seed or account (the floor), merged and linked; briefings reused and never paid twice, even
// after a reload; the AI estimate counts only what is not fetched; the daily AI cap; cancel.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { memoryKeyValueStorage } from "../../../src/core/storage/keyValue.js";
import { AiLimitError, createResearch, mergeLookalikes, type Research } from "../../../src/core/research/index.js";
import { FakeResearchClient } from "./fakeResearchClient.js";

const NOW = Date.parse("2026-06-15T12:00:00Z");
const clock = { now: () => NOW };

function setup(options: { storage?: ReturnType<typeof memoryKeyValueStorage>; scope?: string; dailyAiCap?: number; client?: FakeResearchClient } = {}) {
  const client = options.client ?? new FakeResearchClient();
  const storage = options.storage ?? memoryKeyValueStorage();
  const research: Research = createResearch({
    client,
    storage,
    scope: () => options.scope ?? "sandbox|user-a",
    clock,
    ...(options.dailyAiCap !== undefined ? { dailyAiCap: options.dailyAiCap } : {}),
  });
  return { client, storage, research };
}

describe("lookalikes from many seeds", () => {
  it("asks once per seed, merges with each company's best score and its seeds, leaves out seeds and sheet companies, caps the list", async () => {
    const { client, research } = setup();
    const progress: number[] = [];
    const result = await research.lookalikes({
      seeds: ["100", "104", " 100 ", ""],
      exclude: ["101"],
      limit: 5,
      perSeed: 10,
      onProgress: (p) => progress.push(p.done),
    });
    assert.equal(client.calls.companyLookalikes, 2, "one request per distinct seed");
    assert.deepEqual(progress, [0, 1, 2]);
    const ids = result.companies.map((c) => c.companyId);
    assert.equal(result.companies.length, 5);
    assert.ok(!ids.includes("100") && !ids.includes("104"), "seeds are left out");
    assert.ok(!ids.includes("101"), "a company already in the sheet is left out");
    assert.equal(new Set(ids).size, ids.length, "no company twice");
    // 102 is 2 from 100 and 2 from 104: found from both seeds, best score 0.98.
    const both = result.companies.find((c) => c.companyId === "102")!;
    assert.deepEqual([...both.seeds].sort(), ["100", "104"]);
    assert.equal(both.score, 0.98);
    assert.deepEqual(
      result.companies.map((c) => c.rank),
      [1, 2, 3, 4, 5],
    );
    assert.ok(
      result.companies.every((c, i, all) => i === 0 || all[i - 1]!.score >= c.score),
      "ranked by score",
    );
    // 105, 99 and 103 are 0.99 from one seed and found by both: the better rank at a seed goes first (105 is
    // first at 104; 99 and 103 second at 100 and 104, then by id).
    assert.deepEqual(
      result.companies.slice(0, 3).map((c) => c.companyId),
      ["105", "99", "103"],
    );

    const again = await research.lookalikes({ seeds: ["104", "100"], exclude: ["101"], limit: 5, perSeed: 10 });
    assert.equal(client.calls.companyLookalikes, 2, "a second run sends nothing");
    assert.deepEqual(again.companies, result.companies);
  });

  it("keeps the best score and names the seed that gave it first", () => {
    const base = { companyName: "Acme", industry: "", revenueRange: "", employeeRange: "", country: "" };
    const merged = mergeLookalikes(
      [
        { seed: "1", results: [{ ...base, companyId: "9", score: 0.5, rank: 3 }] },
        {
          seed: "2",
          results: [
            { ...base, companyId: "9", score: 0.8, rank: 1 },
            { ...base, companyId: "1", score: 0.9, rank: 2 },
          ],
        },
        { seed: "Beta Corp", results: [{ ...base, companyName: "beta corp", companyId: "7", score: 0.95, rank: 1 }] },
      ],
      [],
      10,
    );
    assert.deepEqual(
      merged.map((m) => [m.companyId, m.score, m.seeds]),
      [["9", 0.8, ["2", "1"]]],
      "seed 1 and the seed named Beta Corp are left out",
    );
  });

  it("counts a failed seed apart and keeps the others' companies", async () => {
    const client = new FakeResearchClient();
    const failing = Object.assign(Object.create(client) as FakeResearchClient, {
      companyLookalikes: (q: { companyId?: string }) => (q.companyId === "50" ? Promise.reject(new Error("lost")) : client.companyLookalikes(q)),
    });
    const { research } = setup({ client: failing });
    const result = await research.lookalikes({ seeds: ["50", "500"], limit: 3 });
    assert.equal(result.failures.length, 1);
    assert.equal(result.failures[0]!.seed, "50");
    assert.equal(result.companies.length, 3);
    assert.ok(result.companies.every((c) => c.seeds.includes("500")));
  });

  it("cancel starts no further seed", async () => {
    const { client, research } = setup();
    const stop = new AbortController();
    const result = await research.lookalikes({
      seeds: Array.from({ length: 20 }, (_, i) => String(i + 1)),
      concurrency: 1,
      signal: stop.signal,
      onProgress: (p) => p.done === 3 && stop.abort(),
    });
    assert.equal(result.cancelled, true);
    assert.equal(client.calls.companyLookalikes, 3);
    assert.equal(result.seedsAsked, 3);
  });
});

describe("recommended contacts for many accounts", () => {
  it("asks once per account and links each contact to its account, ranked", async () => {
    const { client, research } = setup();
    const result = await research.recommendations({ accounts: ["11", "12", "11"], useCase: "PROSPECTING", size: 2 });
    assert.equal(client.calls.contactRecommendations, 2);
    assert.deepEqual(
      result.contacts.map((c) => [c.accountId, c.rank, c.contactId]),
      [
        ["11", 1, "1101"],
        ["11", 2, "1102"],
        ["12", 1, "1201"],
        ["12", 2, "1202"],
      ],
    );
    assert.equal(result.contacts[0]!.brief, "PROSPECTING contact 1");
    await research.recommendations({ accounts: ["12", "11"], useCase: "PROSPECTING", size: 2 });
    assert.equal(client.calls.contactRecommendations, 2, "a second run sends nothing");
    await research.recommendations({ accounts: ["11"], useCase: "RENEWAL_AND_GROWTH", size: 2 });
    assert.equal(client.calls.contactRecommendations, 3, "another use case is another question");
  });
});

describe("briefings and AI action credits", () => {
  it("estimates only the briefings not fetched yet, fetches each once, and reuses them after a reload", async () => {
    const { client, storage, research } = setup();
    const first = await research.estimateBriefings(["1", "2", "3"]);
    assert.equal(first.summary, "3 briefings: 3 AI action credits; you have 240.");
    assert.equal(first.blocked, undefined);
    const fetched = await research.briefings(["1", "2"]);
    assert.equal(fetched.fetched, 2);
    assert.match(fetched.briefings[0]!.markdown, /^# Company 1/);
    assert.equal(client.calls.accountBriefing, 2);
    await research.whenIdle();

    const ten = await research.estimateBriefings(Array.from({ length: 10 }, (_, i) => String(i + 1)));
    assert.equal(ten.summary, "10 briefings: 8 AI action credits (2 briefings already fetched, reused free); you have 238.");

    // A reload: a new research on the same storage pays nothing for what was fetched.
    const reloaded = setup({ storage, client });
    const again = await reloaded.research.briefings(["2", "1", "3"]);
    assert.deepEqual(
      again.briefings.map((b) => b.companyId),
      ["2", "1", "3"],
    );
    assert.equal(again.reused, 2);
    assert.equal(again.fetched, 1);
    assert.equal(client.calls.accountBriefing, 3, "only company 3 was asked");
    assert.equal((await reloaded.research.storedBriefing("1"))?.markdown.startsWith("# Company 1"), true);

    // Another user on the same storage has no briefing of theirs.
    const other = setup({ storage, client, scope: "sandbox|user-b" });
    assert.equal(await other.research.storedBriefing("1"), undefined);
    assert.equal((await other.research.estimateBriefings(["1"])).credits, 1);
  });

  it("asks one briefing once when two lists want it at once", async () => {
    const { client, research } = setup();
    const [a, b] = await Promise.all([research.briefings(["5", "6"]), research.briefings(["6", "5"])]);
    assert.equal(client.calls.accountBriefing, 2);
    assert.equal(a.briefings.length + b.briefings.length, 4);
    assert.equal(client.aiActions.used, 12);
  });

  it("holds the daily AI cap: the estimate says so, a call over it is refused before sending, a refused briefing gives its credit back", async () => {
    const { client, storage, research } = setup({ dailyAiCap: 3 });
    assert.match((await research.estimateBriefings(["1", "2", "3", "4"])).blocked ?? "", /daily AI limit has 3 left today/);
    client.refused.add("2");
    const run = await research.briefings(["1", "2", "3"]);
    assert.equal(run.failures.length, 1);
    assert.equal((await research.aiSpendStatus()).used, 2, "the refused briefing cost nothing");
    assert.equal(await research.ask("1", "Who are its competitors?"), "Company 1 answers: Who are its competitors?");
    await assert.rejects(
      research.ask("1", "And its customers?"),
      (e: unknown) => e instanceof AiLimitError && /daily AI limit is used up \(3 of 3/.test(e.message),
    );
    assert.equal(client.calls.askAccount, 1, "the refused question was never sent");
    await research.whenIdle();
    // The count persists in the user's storage.
    const reloaded = setup({ storage, client, dailyAiCap: 3 });
    assert.equal((await reloaded.research.aiSpendStatus()).used, 3);
    await reloaded.research.setDailyAiCap(10);
    assert.equal((await reloaded.research.estimateQuestion()).summary, "1 question: 1 AI action credit; you have 237.");
    assert.equal((await reloaded.research.estimateQuestion()).blocked, undefined);
  });

  it("lets an estimate of exactly what is left run: today's cap and the balance are reached, not passed", async () => {
    const { client, research } = setup({ dailyAiCap: 3 });
    const exact = await research.estimateBriefings(["1", "2", "3"]);
    assert.equal(exact.blocked, undefined, "3 credits with 3 left today");
    assert.match((await research.estimateBriefings(["1", "2", "3", "4"])).blocked ?? "", /daily AI limit has 3 left today/);
    client.aiActions.remaining = 3;
    assert.equal((await research.estimateBriefings(["1", "2", "3"])).blocked, undefined, "3 credits with a balance of 3");
    const run = await research.briefings(["1", "2", "3"]);
    assert.equal(run.fetched, 3);
    assert.equal((await research.aiSpendStatus()).used, 3);
  });

  it("says when the account's balance is too small", async () => {
    const { client, research } = setup();
    client.aiActions.remaining = 1;
    assert.match((await research.estimateBriefings(["1", "2"])).blocked ?? "", /the account has 1 left/);
    client.aiActions.remaining = 0;
    assert.equal(
      (await research.estimateQuestion()).blocked,
      "Your account has no AI action credits left for research (briefings and questions). Ask your administrator for more, or use briefings already fetched.",
    );
  });

  it("a briefing paid for is shown and kept for the session even when the storage refuses to keep it", async () => {
    const storage = memoryKeyValueStorage();
    const full = {
      ...storage,
      setItem: async (key: string, value: string) => (key.includes("briefing") ? Promise.reject(new Error("QuotaExceededError")) : storage.setItem(key, value)),
    };
    const { client, research } = setup({ storage: full });
    const run = await research.briefings(["1", "2"]);
    assert.deepEqual(run.failures, []);
    assert.equal(run.fetched, 2);
    assert.equal(client.aiActions.used, 12);
    const again = await research.briefings(["1", "2"]);
    assert.equal(again.reused, 2, "not paid twice");
    assert.equal(client.calls.accountBriefing, 2);
  });

  it("cancel stops a list of briefings: what was fetched is kept and reused", async () => {
    const { client, research } = setup();
    const stop = new AbortController();
    const result = await research.briefings(["1", "2", "3", "4"], { concurrency: 1, signal: stop.signal, onProgress: (p) => p.done === 2 && stop.abort() });
    assert.equal(result.cancelled, true);
    assert.equal(result.fetched, 2);
    assert.equal(client.calls.accountBriefing, 2);
    assert.equal((await research.estimateBriefings(["1", "2", "3", "4"])).credits, 2);
  });
});
