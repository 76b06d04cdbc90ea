// Signal operations over real HTTP in both profiles: the published request shapes answer 200 with
// the published fields, the lookups answer, validation, scopes, paging, dates from the clock.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  SIGNAL_LOOKUPS,
  companySearchBody,
  signalBody,
  validateCompanySearchBody,
  validateSignalBody,
  type SignalOperation,
} from "../../src/core/contract/index.js";
import { signedInClient } from "../core/api/sandboxClient.js";
import { manualClock, useSandbox, type TestSandbox } from "../helpers/sandbox.js";
import { call } from "./http.js";

const NOW = Date.parse("2026-06-15T12:00:00Z");
const DAY = 86_400_000;
const ALL = ["api:data:company", "api:data:contact", "api:data:lookup", "api:data:intent", "api:data:news", "api:data:scoops"];
const doc = (type: string, attributes: object) => ({ data: { type, attributes } });

/** The request shapes the service publishes, one per operation. */
const PUBLISHED = [
  {
    path: "/data/v1/intent/search?page[number]=1&page[size]=25&sort=-signalScore",
    body: doc("IntentSearch", {
      topics: ["Cloud Security", "Machine Learning"],
      signalScoreMin: 70,
      signalScoreMax: 100,
      audienceStrengthMin: "A",
      audienceStrengthMax: "E",
      findRecommendedContacts: true,
      country: "United States",
    }),
  },
  {
    path: "/data/v1/intent/enrich",
    body: doc("IntentEnrich", { companyId: "1", topics: ["Cloud Security", "CRM Software", "Machine Learning"], findRecommendedContacts: true }),
  },
  { path: "/data/v1/scoops/search?page[size]=25", body: doc("ScoopSearch", { scoopType: "1,2", publishedStartDate: "2025-06-15" }) },
  { path: "/data/v1/scoops/enrich", body: doc("ScoopEnrich", { companyId: "1,2,3,4,5" }) },
  { path: "/data/v1/news/search", body: doc("NewsSearch", { categories: ["FUNDING", "PARTNERSHIP"], pageDateMin: "2026-01-01" }) },
  { path: "/data/v1/news/enrich", body: doc("NewsEnrich", { companyId: 1 }) },
  { path: "/data/v1/companies/technologies/enrich", body: doc("TechnologyEnrich", { companyId: 1 }) },
];

const FIELDS: Record<string, string[]> = {
  intent: ["category", "topic", "signalScore", "audienceStrength", "signalDate", "spikesInDateRange", "company", "recommendedContacts"],
  scoops: ["id", "publishedDate", "originalPublishedDate", "linkText", "link", "description", "topics", "types", "company", "contacts"],
  news: ["domain", "title", "url", "imageUrl", "pageDate", "categories", "description", "company"],
  technologies: ["categoryParent", "category", "vendor", "product", "attribute", "website", "logo", "domain", "createdDate", "modifiedDate", "description"],
};
const familyOf = (path: string) =>
  path.includes("/intent/") ? "intent" : path.includes("/scoops/") ? "scoops" : path.includes("/news/") ? "news" : "technologies";

function profileSuite(profile: "default" | "production") {
  const prefix = profile === "production" ? "/gtm" : "";
  const sandbox = useSandbox({ profile, clock: manualClock(NOW), rateLimit: { perSecond: 10_000 } });
  const token = () => sandbox.token({ scopes: ALL });

  it("answers the published request shapes with the published fields", async () => {
    // Intent enrich asks about a company the search says is signalling.
    const signalling = await call(sandbox, "POST", `${prefix}/data/v1/intent/search`, {
      token: await token(),
      body: doc("IntentSearch", { topics: ["Cloud Security"] }),
    });
    const companyId = Number(signalling.body.data[0].attributes.company.id);
    for (const { path, body: published } of PUBLISHED) {
      const body = path.endsWith("/intent/enrich") ? doc("IntentEnrich", { ...published.data.attributes, companyId }) : published;
      const res = await call(sandbox, "POST", `${prefix}${path}`, { token: await token(), body });
      assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
      assert.ok(res.body.data.length > 0, `${path} found nothing`);
      for (const item of res.body.data) for (const field of FIELDS[familyOf(path)]!) assert.ok(field in item.attributes, `${path}: ${field} missing`);
      if (familyOf(path) !== "technologies") assert.equal(typeof res.body.meta.totalResults, "number");
    }
  });

  it("answers every signal lookup, narrowed by its filters", async () => {
    for (const name of SIGNAL_LOOKUPS) {
      const res = await call(sandbox, "GET", `${prefix}/data/v1/lookup/${name}`, { token: await token() });
      assert.equal(res.status, 200, name);
      assert.ok(res.body.data.length > 3, name);
    }
    const topics = await call(sandbox, "GET", `${prefix}/data/v1/lookup/intent-topics`, { token: await token() });
    assert.ok(topics.body.data.length >= 90 && topics.body.data.length <= 110);
    const security = await call(sandbox, "GET", `${prefix}/data/v1/lookup/intent-topics?filter[category]=Security`, { token: await token() });
    assert.ok(security.body.data.length > 0 && security.body.data.length < topics.body.data.length);
    assert.ok(security.body.data.every((t: { attributes: { category: string } }) => t.attributes.category === "Security"));
    const microsoft = await call(sandbox, "GET", `${prefix}/data/v1/lookup/tech-products?filter[vendor]=Microsoft`, { token: await token() });
    assert.ok(microsoft.body.data.length > 1 && microsoft.body.data.every((p: { attributes: { vendor: string } }) => p.attributes.vendor === "Microsoft"));
  });

  it("refuses an intent search without the intent scope", async () => {
    const res = await call(sandbox, "POST", `${prefix}/data/v1/intent/search`, {
      token: await sandbox.token({ scopes: ["api:data:company", "api:data:lookup"] }),
      body: doc("IntentSearch", { topics: ["Cloud Security"] }),
    });
    assert.equal(res.status, 403);
    if (profile === "production") assert.equal(res.body.error.code, "ZI0002");
    else assert.equal(res.body.errors[0].code, "FORBIDDEN");
  });

  it("pages an intent search without overlap; page.total is the number of pages in both profiles", async () => {
    const body = doc("IntentSearch", { topics: ["Cloud Security", "CRM Software", "Machine Learning"] });
    const first = await call(sandbox, "POST", `${prefix}/data/v1/intent/search?page[number]=1&page[size]=100`, { token: await token(), body });
    const total = first.body.meta.totalResults as number;
    assert.ok(total > 100, `only ${total} signals`);
    const pages = Math.ceil(total / 100);
    const seen = new Set<string>();
    for (let n = 1; n <= pages; n++) {
      const res = await call(sandbox, "POST", `${prefix}/data/v1/intent/search?page[number]=${n}&page[size]=100`, { token: await token(), body });
      for (const item of res.body.data) seen.add(item.id);
      assert.equal(res.body.meta.page.total, pages);
      assert.equal(res.body.meta.page.number, n);
    }
    assert.equal(seen.size, total);
    // Past the last page: an empty page, as company search answers.
    const past = await call(sandbox, "POST", `${prefix}/data/v1/intent/search?page[number]=${pages + 1}&page[size]=100`, { token: await token(), body });
    assert.equal(past.status, 200);
    assert.equal(past.body.data.length, 0);
  });
}

describe("signals, default profile", () => profileSuite("default"));
describe("signals, production profile", () => profileSuite("production"));

describe("signal validation, data and limits", () => {
  const clock = manualClock(NOW);
  const sandbox: TestSandbox = useSandbox({ clock, rateLimit: { perSecond: 10_000 } });
  const post = async (path: string, body: unknown) => call(sandbox, "POST", path, { token: await sandbox.token({ scopes: ALL }), body });
  const intent = (attributes: object) => post("/data/v1/intent/search", doc("IntentSearch", attributes));

  it("checks topics, score, strength and dates with messages per field", async () => {
    const cases: [object, string][] = [
      [{}, "/data/attributes/topics"],
      [{ topics: [] }, "/data/attributes/topics"],
      [{ topics: Array.from({ length: 51 }, () => "Cloud Security") }, "/data/attributes/topics"],
      [{ topics: ["Cloud Security"], signalScoreMin: 59 }, "/data/attributes/signalScoreMin"],
      [{ topics: ["Cloud Security"], signalScoreMax: 101 }, "/data/attributes/signalScoreMax"],
      [{ topics: ["Cloud Security"], audienceStrengthMin: "F" }, "/data/attributes/audienceStrengthMin"],
      [{ topics: ["Cloud Security"], signalStartDate: "2026-6-1" }, "/data/attributes/signalStartDate"],
      [{ topics: ["Cloud Security"], signalScoreMin: 90, signalScoreMax: 70 }, "/data/attributes/signalScoreMin"],
      [{ topics: ["Cloud Security"], favouriteColour: "red" }, "/data/attributes/favouriteColour"],
    ];
    for (const [attributes, pointer] of cases) {
      const res = await intent(attributes);
      assert.equal(res.status, 400, JSON.stringify(attributes));
      assert.ok(
        res.body.errors.some((e: { source?: { pointer?: string } }) => e.source?.pointer === pointer),
        `${JSON.stringify(attributes)}: ${JSON.stringify(res.body.errors)}`,
      );
    }
    // A topic the catalog does not know finds nothing; it is not refused (the service documents no refusal).
    const unknown = await intent({ topics: ["Not A Topic"] });
    assert.equal(unknown.status, 200);
    assert.equal(unknown.body.meta.totalResults, 0);
    // Either order of the strengths names the letters between them (the service's example asks Min C, Max A).
    const ca = await intent({ topics: ["Cloud Security"], audienceStrengthMin: "C", audienceStrengthMax: "A" });
    const ac = await intent({ topics: ["Cloud Security"], audienceStrengthMin: "A", audienceStrengthMax: "C" });
    assert.equal(ca.status, 200);
    assert.ok(ca.body.meta.totalResults > 0);
    assert.equal(ca.body.meta.totalResults, ac.body.meta.totalResults);
    assert.ok(ca.body.data.every((i: { attributes: { audienceStrength: string } }) => "ABC".includes(i.attributes.audienceStrength)));
    const enrich = await post("/data/v1/intent/enrich", doc("IntentEnrich", { topics: ["Cloud Security"] }));
    assert.equal(enrich.status, 400);
    const twoCompanies = await post("/data/v1/intent/enrich", doc("IntentEnrich", { companyId: "1,2", topics: ["Cloud Security"] }));
    assert.equal(twoCompanies.status, 400);
  });

  it("says in the user's terms what is wrong with a news filter, before sending", () => {
    const messages = (attributes: object) => validateSignalBody("newsSearch", signalBody("newsSearch", attributes)).map((i) => i.message);
    assert.deepEqual(messages({ url: ["abc"] }), ["Article addresses must be at least 5 characters."]);
    assert.deepEqual(messages({ categories: "PRODUCT" }), ["News categories must be a list."]);
    assert.deepEqual(messages({ categories: ["PRODUCT"], url: ["https://example.com/a"] }), []);
  });

  it("checks ranges in order as search does: numbers (and numeric text) as numbers, dates as dates", () => {
    const ranges = (operation: SignalOperation, attributes: object): string[] =>
      validateSignalBody(operation, signalBody(operation, attributes))
        .filter((i) => i.rule === "minAboveMax")
        .map((i) => `${i.pointer}: ${i.message}`);
    const topics = ["Cloud Security"];
    assert.deepEqual(ranges("intentSearch", { topics, signalScoreMin: 90, signalScoreMax: 70 }), [
      "/data/attributes/signalScoreMin: Score from must not be greater than Score to.",
    ]);
    assert.deepEqual(ranges("scoopSearch", { publishedStartDate: "2026-03-01", publishedEndDate: "2026-02-01" }), [
      "/data/attributes/publishedStartDate: Published from must not be after Published to.",
    ]);
    // 9.5 is below 10 (as text it would sort after it), and search says the same.
    const growth = (min: string) => ({ oneYearEmployeeGrowthRateMin: min, oneYearEmployeeGrowthRateMax: "10" });
    assert.deepEqual(ranges("intentSearch", { topics, ...growth("9.5") }), []);
    assert.equal(validateCompanySearchBody(companySearchBody(growth("9.5"))).length, 0);
    assert.equal(ranges("intentSearch", { topics, ...growth("12.5") }).length, 1);
  });

  it("keeps signals inside their windows of the sandbox's clock, and filters by them", async () => {
    const topics = ["Cloud Security", "CRM Software", "Machine Learning", "Generative AI"];
    const all = await call(sandbox, "POST", "/data/v1/intent/search?page[size]=100", {
      token: await sandbox.token({ scopes: ALL }),
      body: doc("IntentSearch", { topics }),
    });
    for (const item of all.body.data) {
      assert.match(item.attributes.signalDate, /^\d{4}-\d{2}-\d{2}T00:00:00Z$/);
      const age = (Date.parse("2026-06-15") - Date.parse(item.attributes.signalDate)) / DAY;
      assert.ok(age >= 0 && age <= 84, item.attributes.signalDate);
      assert.ok(item.attributes.signalScore >= 60 && item.attributes.signalScore <= 100);
      assert.match(item.attributes.audienceStrength, /^[A-E]$/);
      assert.ok(topics.includes(item.attributes.topic));
    }
    const recent = await intent({ topics, signalStartDate: "2026-06-01", signalScoreMin: 80, audienceStrengthMin: "B" });
    assert.ok(recent.body.meta.totalResults > 0 && recent.body.meta.totalResults < all.body.meta.totalResults);
    for (const item of recent.body.data) {
      assert.ok(item.attributes.signalDate >= "2026-06-01" && item.attributes.signalScore >= 80 && "AB".includes(item.attributes.audienceStrength));
    }
    clock.advance(7 * DAY);
    const later = await post("/data/v1/intent/enrich", doc("IntentEnrich", { companyId: Number(all.body.data[0].attributes.company.id), topics }));
    const before = all.body.data[0].attributes;
    const same = later.body.data.find((i: { attributes: { topic: string } }) => i.attributes.topic === before.topic);
    assert.equal((Date.parse(same.attributes.signalDate) - Date.parse(before.signalDate)) / DAY, 7);
    clock.advance(-7 * DAY);
  });

  it("recommends the company's own contacts and leaves them out when asked", async () => {
    const res = await intent({ topics: ["Cloud Security", "Machine Learning"] });
    const withContacts = res.body.data.filter((i: { attributes: { recommendedContacts: unknown[] } }) => i.attributes.recommendedContacts.length > 0);
    assert.ok(withContacts.length > 0);
    for (const item of withContacts) for (const c of item.attributes.recommendedContacts) assert.equal(c.companyName, item.attributes.company.name);
    const without = await intent({ topics: ["Cloud Security"], findRecommendedContacts: false });
    assert.ok(without.body.data.every((i: { attributes: object }) => !("recommendedContacts" in i.attributes)));
  });

  it("narrows an intent search by company filters, and a website names the company for enrich", async () => {
    const topics = ["Cloud Security", "CRM Software", "Machine Learning"];
    const all = await intent({ topics });
    const france = await intent({ topics, country: "France" });
    assert.ok(france.body.meta.totalResults < all.body.meta.totalResults);
    const id = Number(all.body.data[0].attributes.company.id);
    const { website } = sandbox.ctx.db.prepare("SELECT website FROM companies WHERE id = ?").get(id) as { website: string };
    const byId = await post("/data/v1/intent/enrich", doc("IntentEnrich", { companyId: id, topics }));
    const bySite = await post("/data/v1/intent/enrich", doc("IntentEnrich", { companyWebsite: website.toUpperCase(), topics }));
    assert.ok(byId.body.data.length > 0);
    assert.deepEqual(bySite.body.data, byId.body.data);
  });

  it("takes a list of company ids in one scoop enrich, the same scoops as one by one", async () => {
    const batch = await post("/data/v1/scoops/enrich?page[size]=100", doc("ScoopEnrich", { companyId: "11,12,13,14,15,16" }));
    const single: string[] = [];
    for (const id of [11, 12, 13, 14, 15, 16])
      single.push(
        ...(await post("/data/v1/scoops/enrich?page[size]=100", doc("ScoopEnrich", { companyId: String(id) }))).body.data.map((s: { id: string }) => s.id),
      );
    assert.deepEqual(batch.body.data.map((s: { id: string }) => s.id).sort(), single.sort());
  });

  it("charges a bulk credit per company new to intent, scoops or news enrich, once in 12 months; searches and technologies are free", async () => {
    await sandbox.setAccount("default", 10);
    const balance = () => sandbox.ctx.credits.balance("default");
    await post("/data/v1/scoops/enrich", doc("ScoopEnrich", { companyId: "21,22,23" }));
    assert.equal(balance(), 7, "three new companies");
    await post("/data/v1/scoops/enrich?page[number]=2", doc("ScoopEnrich", { companyId: "21,22,23" }));
    await post("/data/v1/scoops/enrich", doc("ScoopEnrich", { companyId: "21" }));
    assert.equal(balance(), 7, "the same companies again: free");
    await post("/data/v1/news/enrich", doc("NewsEnrich", { companyId: 21 }));
    await post("/data/v1/intent/enrich", doc("IntentEnrich", { companyId: 21, topics: ["Cloud Security"] }));
    assert.equal(balance(), 5, "one company, two more kinds");
    await intent({ topics: ["Cloud Security"] });
    await post("/data/v1/scoops/search", doc("ScoopSearch", {}));
    await post("/data/v1/news/search", doc("NewsSearch", {}));
    await post("/data/v1/companies/technologies/enrich", doc("TechnologyEnrich", { companyId: 21 }));
    assert.equal(balance(), 5, "searches and technologies cost nothing");
    const tooMany = await post("/data/v1/scoops/enrich", doc("ScoopEnrich", { companyId: "31,32,33,34,35,36" }));
    assert.equal(tooMany.status, 400);
    assert.equal(tooMany.body.errors[0].code, "PFAPI0011");
    assert.equal(balance(), 5, "a refused request charges nothing");
    const usage = await call(sandbox, "GET", "/data/v1/users/usage", { token: await sandbox.token({ scopes: ALL }) });
    const entries = usage.body.data[0].attributes.usage as { limitType: string; currentUsage: number }[];
    assert.equal(entries.find((e) => e.limitType === "record")!.currentUsage, 5, "the usage counts signal credits");
    await sandbox.setAccount("default", 100_000);
  });

  it("charges only the companies new to the kind: three paid for go through on a balance of 2", async () => {
    await sandbox.setAccount("default", 5);
    const balance = () => sandbox.ctx.credits.balance("default");
    assert.equal((await post("/data/v1/scoops/enrich", doc("ScoopEnrich", { companyId: "41,42,43" }))).status, 200);
    assert.equal(balance(), 2);
    const again = await post("/data/v1/scoops/enrich", doc("ScoopEnrich", { companyId: "41,42,43" }));
    assert.equal(again.status, 200, "companies already paid for need no credit");
    assert.equal(balance(), 2);
    const mixed = await post("/data/v1/scoops/enrich", doc("ScoopEnrich", { companyId: "41,42,43,44,45" }));
    assert.equal(mixed.status, 200, "two new companies on a balance of 2");
    assert.equal(balance(), 0);
    await sandbox.setAccount("default", 100_000);
  });
});

describe("signals after the add-in's own sign-in", () => {
  // The sign-in server stamps tokens with the real time: this sandbox keeps it.
  const sandbox = useSandbox();
  it("a user signed in with the scopes the add-in asks may search and enrich intent, scoops and news", async () => {
    const client = await signedInClient(sandbox.url);
    await client.searchIntent({ topics: ["Cloud Security"] });
    await client.searchScoops({});
    await client.enrichNews({ companyId: "1" });
  });
});

describe("signal rate limits", () => {
  const sandbox = useSandbox({ clock: manualClock(NOW), rateLimit: { perSecond: 2 } });
  it("counts signal requests against the per-second limit like every data operation", async () => {
    const token = await sandbox.token({ scopes: ALL });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await call(sandbox, "POST", "/data/v1/news/enrich", { token, body: doc("NewsEnrich", { companyId: "1" }) })).status);
    assert.deepEqual(statuses, [200, 200, 429]);
  });
});
