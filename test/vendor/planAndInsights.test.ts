// What the plan allows (GET /platform/v1/entitlements) and the day's insights (POST
// /copilot/v1/companies/insights) on both profiles, over real HTTP: requests of the vendor's shape
// are accepted and every answer and refusal validates against the published schemas
// (test/fixtures/vendor/platform.json and copilot.json); refusals are in each profile's shape;
// roles are enforced (a basic plan: intent, research and insights refused); insights follow the
// sandbox's clock (a day later, new ones).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { GATEWAY_CODES, ROLE_TYPES, type InsightsDocument } from "../../src/core/contract/index.js";
import { BASIC_ROLES } from "../../src/sandbox/plan/roles.js";
import { manualClock, useSandbox, type TestSandbox } from "../helpers/sandbox.js";
import { requestErrors, responseErrors } from "./oracle.js";

const DAY_MS = 86_400_000;
const ENTITLEMENTS = "EntitlementsController_getEntitlements";
const INSIGHTS = "InsightsInterface_getCompanyInsightsByType";
const LIFETIME_DAYS: Record<string, number> = { "zi.funding": 90, "zi.cxochange": 30, "zi.buyingcommitteechange": 30 };

type Profile = "specification" | "production";

interface Answer {
  status: number;
  doc: any;
}

function caller(sandbox: TestSandbox, profile: Profile) {
  const base = profile === "production" ? "/gtm" : "";
  return async (method: "GET" | "POST", path: string, token: string | undefined, body?: unknown): Promise<Answer> => {
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    if (body !== undefined) headers["content-type"] = "application/vnd.api+json";
    const res = await fetch(`${sandbox.url}${base}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    return { status: res.status, doc: text ? JSON.parse(text) : "" };
  };
}

const entitlements = (admin: string, roleType: string) => `/platform/v1/entitlements?filter[admin]=${admin}&filter[roleType]=${roleType}`;
const insightsBody = (ids: number[], signalTypes?: string[]) => ({
  data: { type: "CompanyInsightsSearch", attributes: { ziCompanyIds: ids, ...(signalTypes ? { signalTypes } : {}) } },
});

/** A refusal in the profile's shape: the published error document, or production's gateway error with its code. */
function assertRefusal(profile: Profile, answer: Answer, status: number, gatewayCode?: string): void {
  assert.equal(answer.status, status, JSON.stringify(answer.doc));
  if (profile === "production" && gatewayCode) assert.equal(answer.doc.error.code, gatewayCode);
  else assert.ok(Array.isArray(answer.doc.errors) && answer.doc.errors.length > 0, JSON.stringify(answer.doc));
}

for (const profile of ["specification", "production"] as const) {
  describe(`plan and insights on the ${profile} profile`, () => {
    const clock = manualClock(Date.parse("2026-03-02T09:30:00Z"));
    const sandbox = useSandbox({ clock, ...(profile === "production" ? { profile: "production" as const } : {}) });
    const call = (method: "GET" | "POST", path: string, token: string | undefined, body?: unknown) => caller(sandbox, profile)(method, path, token, body);
    const companyIds = (n: number) => (sandbox.ctx.db.prepare("SELECT id FROM companies ORDER BY id LIMIT ?").all(n) as { id: number }[]).map((r) => r.id);

    it("answers each role type with the roles held, limits as the account's numbers, valid against EntitlementsResponse", async () => {
      await sandbox.setAccount("plan-limits", 1234, 77);
      const token = await sandbox.token({ account: "plan-limits" });
      const values = new Map<string, string>();
      for (const roleType of ROLE_TYPES) {
        const answer = await call("GET", entitlements("false", roleType), token);
        assert.equal(answer.status, 200);
        assert.deepEqual(responseErrors("platform", ENTITLEMENTS, answer.doc), [], roleType);
        for (const e of answer.doc.data) {
          assert.equal(e.attributes.roleType, roleType);
          assert.ok(e.attributes.roleName.length > 10, "a readable description");
          values.set(e.attributes.roleCode, e.attributes.value);
        }
      }
      for (const code of ["fea:api", "fea:gtmpl", "fea:asu", "fea:cai", "int:api", "sig:scoops"]) assert.equal(values.get(code), "Y", code);
      assert.equal(values.get("lim:bulk"), "1234");
      assert.equal(values.get("lim:ai"), "77");
      assert.equal(values.get("lim:wkb"), "100");
    });

    it("gives a basic plan only its own roles", async () => {
      const token = await sandbox.token({ roles: [...BASIC_ROLES] });
      const codes = async (roleType: string) => (await call("GET", entitlements("false", roleType), token)).doc.data.map((e: any) => e.attributes.roleCode);
      assert.deepEqual(await codes("feature"), ["fea:api"]);
      assert.deepEqual(await codes("intent"), []);
      assert.deepEqual(await codes("signal"), ["sig:scoops", "sig:news", "sig:tech"]);
    });

    it("refuses missing or wrong filters (400), an administrator's list (403), a token without the scope (403) or none (401)", async () => {
      const token = await sandbox.token();
      for (const path of [
        "/platform/v1/entitlements",
        "/platform/v1/entitlements?filter[admin]=false",
        entitlements("yes", "feature"),
        entitlements("false", "nothing"),
      ]) {
        const answer = await call("GET", path, token);
        assert.equal(answer.status, 400, path);
        assert.deepEqual(responseErrors("platform", ENTITLEMENTS, answer.doc, 400), [], path);
      }
      assertRefusal(profile, await call("GET", entitlements("true", "feature"), token), 403, GATEWAY_CODES.noAccess);
      assertRefusal(
        profile,
        await call("GET", entitlements("false", "feature"), await sandbox.token({ scopes: ["api:data:company"] })),
        403,
        GATEWAY_CODES.missingScope,
      );
      assert.equal(
        (await call("GET", entitlements("false", "feature"), await sandbox.token({ scopes: ["api:entitlements:read"] }))).status,
        200,
        "the docs' spelling",
      );
      assert.equal((await call("GET", entitlements("false", "feature"), undefined)).status, 401);
    });

    it("describes the search fields with accessGranted from the plan (intent not granted to a basic plan), valid against LookupSearchResponse", async () => {
      const full = await sandbox.token();
      const basic = await sandbox.token({ roles: [...BASIC_ROLES] });
      const fields = async (token: string, entity: string, fieldType = "input") => {
        const answer = await call("GET", `/data/v1/lookup/search?filter[entity]=${entity}&filter[fieldType]=${fieldType}`, token);
        assert.equal(answer.status, 200, JSON.stringify(answer.doc));
        assert.deepEqual(responseErrors("data", "LookupSearchInterface_lookupSearch", answer.doc), [], `${entity} ${fieldType}`);
        return answer.doc.data as { attributes: { fieldName: string; accessGranted?: boolean } }[];
      };
      const granted = async (token: string, entity: string) => new Set((await fields(token, entity)).map((f) => f.attributes.accessGranted));
      assert.deepEqual(await granted(basic, "intent"), new Set([false]));
      assert.deepEqual(await granted(full, "intent"), new Set([true]));
      assert.deepEqual(await granted(basic, "scoop"), new Set([true]));
      assert.deepEqual(await granted(basic, "company"), new Set([true]));
      assert.ok((await fields(basic, "contact")).length > 10);
      assert.ok(
        (await fields(basic, "company", "output")).every((f) => f.attributes.accessGranted === undefined),
        "output fields carry no accessGranted",
      );
      const wrong = await call("GET", "/data/v1/lookup/search?filter[entity]=planet&filter[fieldType]=input", full);
      assert.equal(wrong.status, 400);
      assert.deepEqual(responseErrors("data", "LookupSearchInterface_lookupSearch", wrong.doc, 400), []);
    });

    it("answers insights of 20 companies valid against CompanyInsightsByTypeResponse, each dated and expiring by its type", async () => {
      const token = await sandbox.token();
      const body = insightsBody(companyIds(20));
      assert.deepEqual(requestErrors("insights", INSIGHTS, body), [], "the vendor's request shape");
      const answer = await call("POST", "/copilot/v1/companies/insights", token, body);
      assert.equal(answer.status, 200, JSON.stringify(answer.doc));
      assert.deepEqual(responseErrors("insights", INSIGHTS, answer.doc), []);
      const doc = answer.doc as InsightsDocument;
      assert.deepEqual(
        doc.data.map((e) => e.id),
        companyIds(20).map(String),
      );
      const all = doc.data.flatMap((e) => e.attributes.insights);
      assert.ok(new Set(all.map((i) => i.signalType)).size >= 4, "several types");
      for (const insight of all) {
        const date = Date.parse(insight.insightDate!);
        assert.ok(date <= clock.now() && clock.now() < Date.parse(insight.expiresAt!), insight.signalId);
        const lifetime = LIFETIME_DAYS[insight.signalType];
        if (lifetime) assert.equal((Date.parse(insight.expiresAt!) - date) / DAY_MS, lifetime, insight.signalType);
      }
      const again = await call("POST", "/copilot/v1/companies/insights", token, body);
      assert.deepEqual(again.doc, answer.doc, "the same answer for the same day");
    });

    it("filters by signal type, gives an unknown company an empty list, and refuses 51 companies (400)", async () => {
      const token = await sandbox.token();
      const body = insightsBody([...companyIds(20), 987_654_321], ["zi.funding", "zi.cxochange"]);
      assert.deepEqual(requestErrors("insights", INSIGHTS, body), []);
      const answer = await call("POST", "/copilot/v1/companies/insights", token, body);
      assert.deepEqual(responseErrors("insights", INSIGHTS, answer.doc), []);
      const doc = answer.doc as InsightsDocument;
      const types = new Set(doc.data.flatMap((e) => e.attributes.insights.map((i) => i.signalType)));
      assert.deepEqual([...types].sort(), ["zi.cxochange", "zi.funding"]);
      assert.deepEqual(doc.data.at(-1), { id: "987654321", type: "CompanyInsights", attributes: { insights: [] } });
      const tooMany = await call("POST", "/copilot/v1/companies/insights", token, insightsBody(Array.from({ length: 51 }, (_, i) => i + 1)));
      assert.equal(tooMany.status, 400);
      assert.deepEqual(responseErrors("insights", INSIGHTS, tooMany.doc, 400), []);
      assert.match(tooMany.doc.errors[0].detail, /50/);
    });

    it("brings new insights a day later (the sandbox's clock moved) and keeps each until it expires", async () => {
      const ids = companyIds(20);
      const insights = async () => {
        const answer = await call("POST", "/copilot/v1/companies/insights", await sandbox.token(), insightsBody(ids));
        return new Map((answer.doc as InsightsDocument).data.flatMap((e) => e.attributes.insights.map((i) => [i.signalId, i] as const)));
      };
      const today = await insights();
      await clock.advance(DAY_MS);
      const tomorrow = await insights();
      const added = [...tomorrow.keys()].filter((id) => !today.has(id));
      assert.ok(added.length > 0, "new insights the next day");
      for (const id of added) assert.match(id, /:2026-03-03$/, "dated the new day");
      const expired = [...today.values()].filter((i) => Date.parse(i.expiresAt!) <= clock.now());
      assert.ok(expired.length > 0, "some of yesterday's expired overnight");
      for (const insight of today.values()) assert.equal(tomorrow.has(insight.signalId), !expired.includes(insight), insight.signalId);
    });

    it("enforces the plan: a basic plan is refused intent, research and insights (403), not company search", async () => {
      const basic = await sandbox.token({ roles: [...BASIC_ROLES] });
      const base = profile === "production" ? "/copilot/v1/companies" : "/data/v1/research/accounts";
      const [id] = companyIds(1);
      const research = profile === "production" ? `${base}/${id}/account-summary` : `${base}/${id}`;
      assertRefusal(profile, await call("GET", research, basic), 403, GATEWAY_CODES.noAccess);
      assertRefusal(profile, await call("POST", "/copilot/v1/companies/insights", basic, insightsBody([id!])), 403, GATEWAY_CODES.noAccess);
      const intent = await call("POST", "/data/v1/intent/search", basic, { data: { type: "IntentSearch", attributes: { topics: ["Cloud"] } } });
      assertRefusal(profile, intent, 403, GATEWAY_CODES.noAccess);
      assert.match(JSON.stringify(intent.doc), /int:api/);
      const companies = await call("POST", "/data/v1/companies/search", basic, { data: { type: "CompanySearch", attributes: {} } });
      assert.equal(companies.status, 200);
      assertRefusal(
        profile,
        await call("POST", "/copilot/v1/companies/insights", await sandbox.token({ scopes: ["api:data:company"] }), insightsBody([id!])),
        403,
        GATEWAY_CODES.missingScope,
      );
      assert.equal((await call("POST", "/copilot/v1/companies/insights", undefined, insightsBody([id!]))).status, 401);
    });
  });
}
