// The BIZ signal functions with the real client and the real sandbox over HTTP: a column of
// websites gets intent scores and latest scoops through the one pipeline (gathered across cells,
// the cheapest plan, batches of 25), the same values as asking the service directly, no credit,
// and recalculation sends nothing.
import assert from "node:assert/strict";
import { after, afterEach, before, describe, it } from "node:test";
import { createServiceClient, type ServiceClient } from "../../src/core/api/index.js";
import { HASHTAGS_PATH, HashtagsDocument, hashtagBody, readHashtags } from "../../src/core/contract/index.js";
import { createEnrichmentEngine, MemoryCacheStore } from "../../src/core/enrich/index.js";
import { fetchSignalRecords, intentScore, latestScoop, scoopCount } from "../../src/core/signals/index.js";
import { manualClock, startTestSandbox, type TestSandbox } from "../helpers/sandbox.js";
import { cellOutcome, invocation, loadFunctions } from "./fakeCustomFunctions.js";

const fns = await loadFunctions();

const TOPICS = ["Cloud Security", "CRM Software", "Machine Learning"];
let sandbox: TestSandbox;
let client: ServiceClient;
before(async () => {
  sandbox = await startTestSandbox({ rateLimit: { perSecond: 10_000 } });
  const token = await sandbox.token();
  client = createServiceClient({ baseUrl: sandbox.url, getAccessToken: async () => token, rateLimit: { perSecond: 1000 } });
});
after(async () => {
  await sandbox.close();
});
afterEach(() => fns.configureFunctions(undefined));

const signalRequests = () => [...sandbox.ctx.stats.requests].filter(([route]) => /intent|scoops|news|technologies/.test(route)).reduce((n, [, c]) => n + c, 0);

describe("BIZ signal functions", () => {
  it("a column of websites gets intent scores and latest scoops in few requests, and recalculation asks nothing", async () => {
    const engine = createEnrichmentEngine({ client, cache: new MemoryCacheStore(), windowMs: 5 });
    fns.configureFunctions({ engine, isSignedIn: () => true });
    const rows = sandbox.ctx.db.prepare("SELECT id, website FROM companies ORDER BY id LIMIT 60").all() as { id: number; website: string }[];
    const credits = sandbox.ctx.credits.balance("default");
    sandbox.resetStats();
    const sheet = () =>
      Promise.all(
        rows.map(async (r) => ({
          scores: await Promise.all(TOPICS.map((t) => cellOutcome(fns.intent(r.website, t, invocation())))),
          scoop: await cellOutcome(fns.latestScoop(r.website, null, invocation())),
        })),
      );
    const first = await sheet();
    const asked = signalRequests();
    // 60 companies: the intent search's few pages beat 60 enrich requests; scoops go 25 a request.
    assert.ok(sandbox.requests("POST /data/v1/intent/enrich") === 0, "the search plan, not one request per company");
    assert.ok(sandbox.requests("POST /data/v1/scoops/enrich") <= 3, `${sandbox.requests("POST /data/v1/scoops/enrich")} scoop requests`);
    assert.ok(asked <= 10, `${asked} signal requests`);
    // Matching a website finds its company through company enrich (a credit for a new record);
    // scoop enrich spends a credit per company new to scoops; the intent search spends none.
    assert.equal(credits - sandbox.ctx.credits.balance("default"), 2 * rows.length);

    for (const [i, r] of rows.entries()) {
      const direct = await client.enrichIntent({ companyId: r.id, topics: TOPICS });
      assert.deepEqual(
        first[i]!.scores.map((s) => s.value),
        TOPICS.map((t) => intentScore(direct, t)),
        `company ${r.id}`,
      );
      const latest = latestScoop(await client.enrichScoops({ companyId: String(r.id) }));
      assert.deepEqual(first[i]!.scoop.value, [[latest?.headline ?? "", latest?.date ?? ""]]);
    }

    sandbox.resetStats();
    assert.deepEqual(await sheet(), first);
    assert.equal(signalRequests(), 0, "recalculation sends nothing");
    assert.equal(sandbox.requests("POST /data/v1/companies/enrich"), 0, "known matches are not asked again");
  });

  it("says what is wrong with a topic or a company in the user's terms", async () => {
    const engine = createEnrichmentEngine({ client, windowMs: 5 });
    fns.configureFunctions({ engine, isSignedIn: () => true });
    const noTopic = await cellOutcome(fns.intent(1, "", invocation()));
    assert.equal(noTopic.error, "#VALUE!");
    assert.match(noTopic.message ?? "", /Name a topic/);
    const badCompany = await cellOutcome(fns.intent(-4, "Cloud Security", invocation()));
    assert.equal(badCompany.error, "#VALUE!");
    const tech = await cellOutcome(fns.usesTech(3, "", invocation()));
    assert.match(tech.message ?? "", /Name a product/);
  });
});

describe("BIZ.SCOOPS counts back from the configured clock", () => {
  // The sandbox dates its scoops from its own clock, set years back: a count from the system
  // clock would find none of them in the last 90 days.
  const NOW = Date.UTC(2021, 5, 1);
  let past: TestSandbox;
  before(async () => {
    past = await startTestSandbox({ rateLimit: { perSecond: 10_000 }, clock: manualClock(NOW) });
  });
  after(async () => {
    await past.close();
  });

  it("counts a company's scoops of the last 90 days as of the clock's today", async () => {
    const token = await past.token();
    const pastClient = createServiceClient({ baseUrl: past.url, getAccessToken: async () => token, rateLimit: { perSecond: 1000 } });
    const engine = createEnrichmentEngine({ client: pastClient, cache: new MemoryCacheStore(), windowMs: 5 });
    fns.configureFunctions({ engine, isSignedIn: () => true, clock: { now: () => NOW } });
    const ids = (past.ctx.db.prepare("SELECT id FROM companies ORDER BY id LIMIT 25").all() as { id: number }[]).map((r) => r.id);
    const counts = await Promise.all(ids.map((id) => cellOutcome(fns.scoops(id, null, 90, invocation()))));
    const expected = await Promise.all(ids.map(async (id) => scoopCount(await pastClient.enrichScoops({ companyId: String(id) }), { days: 90, now: NOW })));
    assert.deepEqual(
      counts.map((c) => c.value),
      expected,
    );
    assert.ok(
      expected.some((n) => n > 0),
      "some company had scoops in those 90 days",
    );
  });
});

describe("a signal of a company given by website or name: one pipeline pass", () => {
  const TOPIC = "Cloud Security";
  const companies = (offset: number, count: number) =>
    sandbox.ctx.db.prepare("SELECT id, website, name FROM companies ORDER BY id LIMIT ? OFFSET ?").all(count, offset) as {
      id: number;
      website: string;
      name: string;
    }[];

  it("a column of =BIZ.INTENT(website, …) costs the match requests plus one intent plan for all its companies", async () => {
    const engine = createEnrichmentEngine({ client, cache: new MemoryCacheStore(), windowMs: 5 });
    fns.configureFunctions({ engine, isSignedIn: () => true });
    const rows = companies(200, 60);
    sandbox.resetStats();
    const cells = await Promise.all(rows.map((r) => cellOutcome(fns.intent(r.website, TOPIC, invocation()))));
    const asked = { matches: sandbox.requests("POST /data/v1/companies/enrich"), signals: signalRequests() };
    // What one intent plan for these 60 companies costs when asked directly.
    sandbox.resetStats();
    const direct = await fetchSignalRecords(
      client,
      "intent",
      rows.map((r) => r.id),
      [TOPIC],
    );
    assert.deepEqual(asked, { matches: Math.ceil(rows.length / 25), signals: signalRequests() });
    assert.deepEqual(
      cells.map((c) => c.value),
      rows.map((r) => direct.get(r.id)?.[TOPIC]),
    );
  });

  it("the pipeline takes a website or name for every signal kind, for a cell and for a list", async () => {
    const engine = createEnrichmentEngine({ client, cache: new MemoryCacheStore(), windowMs: 5 });
    const rows = companies(300, 30);
    sandbox.resetStats();
    const cells = await Promise.all(rows.map((r) => engine.getCells("scoops", `${r.website}/about`, "scoops90")));
    // 30 websites: two match requests (25 and 5), two scoop requests (25 and 5).
    assert.equal(sandbox.requests("POST /data/v1/companies/enrich"), 2);
    assert.equal(sandbox.requests("POST /data/v1/scoops/enrich"), 2);
    const byId = await engine.enrichIds(
      "scoops",
      rows.map((r) => r.id),
      ["scoops90"],
    );
    assert.deepEqual(
      cells,
      rows.map((r) => byId.get(r.id)),
    );
    const [named] = rows;
    const list = await engine.enrichInputs("news", [{ kind: "company", criteria: { name: named!.name } }, 12.5], ["latestNews"]);
    const news = await engine.enrichIds("news", [named!.id], ["latestNews"]);
    assert.deepEqual(list[0]?.result, news.get(named!.id));
    assert.equal(list[0]?.id, named!.id);
    assert.match(list[1]?.result.ok === false ? list[1].result.problem.message : "", /Company id must be a whole number/);
  });
});

describe("BIZ.HASHTAGS", () => {
  it("a column of websites shows each company's hashtags: one match pass, one request a company, no credit, nothing on recalculation", async () => {
    const engine = createEnrichmentEngine({ client, cache: new MemoryCacheStore(), windowMs: 5 });
    fns.configureFunctions({ engine, isSignedIn: () => true });
    const rows = sandbox.ctx.db
      .prepare("SELECT id, website FROM companies WHERE id IN (SELECT company_id FROM company_tags WHERE kind = 'hashtag') ORDER BY id LIMIT 30")
      .all() as { id: number; website: string }[];
    const first = rows[0]!;
    // Matched once, so the credit check below counts hashtags alone.
    await engine.enrichInputs(
      "company",
      rows.map((r) => ({ kind: "company", criteria: { website: r.website } })),
      ["id"],
    );
    const credits = sandbox.ctx.credits.balance("default");
    sandbox.resetStats();
    const sheet = () => Promise.all(rows.map((r) => cellOutcome(fns.hashtags(r.website, invocation()))));
    const cells = await sheet();
    assert.equal(sandbox.requests("POST /data/v1/companies/hashtags/enrich"), rows.length);
    assert.equal(sandbox.requests("POST /data/v1/companies/enrich"), 0, "known matches are not asked again");
    assert.equal(sandbox.ctx.credits.balance("default"), credits, "hashtags cost no credit");
    for (const [i, r] of rows.entries()) {
      const direct = readHashtags(await client.postDocument({ path: HASHTAGS_PATH, body: hashtagBody(r.id), document: HashtagsDocument }));
      assert.ok(direct.length > 0, `company ${r.id} is tagged`);
      assert.equal(cells[i]!.value, direct.map((h) => h.label).join(", "), `company ${r.id}`);
    }
    sandbox.resetStats();
    assert.deepEqual(await sheet(), cells);
    assert.equal(sandbox.requests(), 0, "recalculation sends nothing");
    assert.equal((await cellOutcome(fns.hashtags(first.id, invocation()))).value, cells[0]!.value, "by id, the same");
    const bad = await cellOutcome(fns.hashtags(-2, invocation()));
    assert.equal(bad.error, "#VALUE!");
    assert.match(bad.message ?? "", /Company id must be a whole number/);
  });
});
