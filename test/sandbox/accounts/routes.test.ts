// The hierarchy, org-chart and enrich-lookup routes over HTTP, on both profiles: the service's
// example requests answered 200; production's answers in the service's published shapes (its
// schemas, with Ajv) for every input kind, a NoMatch and every page of an org chart, its paging
// links under /gtm and a page past the last refused as production does; the handlers' errors and
// credits as the service's error documents.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hierarchyBody, orgChartBody, type OrgChartDocument } from "../../../src/core/contract/index.js";
import { useSandbox, type TestSandbox } from "../../helpers/sandbox.js";
import { responseErrors, vendorOperation } from "../../vendor/oracle.js";

const HIERARCHY = "EnrichInterface_enrichCorporateHierarchy";
const ORG_CHART = "EnrichInterface_enrichOrgChart";
const LOOKUP = "LookupEnrichInterface_lookupEnrich";
const HIERARCHY_PATH = "/data/v1/companies/corporate-hierarchy/enrich";
const ORG_CHART_PATH = "/data/v1/companies/org-chart/enrich";
const SMALL = { companies: 120, contacts: 1_500 };

type Answer = { status: number; body: Record<string, unknown> };

/** A caller of one sandbox's API under its base ("" or "/gtm"), as the account "default". */
function caller(sandbox: TestSandbox, base: string) {
  return async (path: string, body?: unknown, account = "default"): Promise<Answer> => {
    const token = await sandbox.token({ account });
    const res = await fetch(`${sandbox.url}${base}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/vnd.api+json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
}

/** The answer is a 200 in the service's published shape. */
function conforms(operationId: string, answer: Answer, what: string): Record<string, unknown> {
  assert.equal(answer.status, 200, `${what}: ${JSON.stringify(answer.body)}`);
  assert.deepEqual(responseErrors("data", operationId, answer.body), [], what);
  return answer.body;
}

const errorCode = (answer: Answer) => (answer.body.errors as { code?: string }[] | undefined)?.[0]?.code;

/** The company with the most people (the one an org chart has pages for). */
function busiest(sandbox: TestSandbox): number {
  return (
    sandbox.ctx.db.prepare("SELECT company_id AS id FROM contacts GROUP BY company_id ORDER BY COUNT(*) DESC, company_id LIMIT 1").get() as { id: number }
  ).id;
}

for (const [profile, base] of [
  ["specification", ""],
  ["production", "/gtm"],
] as const) {
  describe(`accounts routes (${profile} profile)`, () => {
    const sandbox = useSandbox({ ...SMALL, ...(profile === "production" ? { profile } : {}) });
    const api = () => caller(sandbox, base);

    it("answers the service's example requests 200 in its published shapes, and the enrich lookup of both operations", async () => {
      await sandbox.setAccount("default", 100_000);
      for (const example of vendorOperation("data", HIERARCHY).requestExamples)
        conforms(HIERARCHY, await api()(HIERARCHY_PATH, example.value), `hierarchy ${example.name}`);
      for (const example of vendorOperation("data", ORG_CHART).requestExamples)
        conforms(ORG_CHART, await api()(ORG_CHART_PATH, example.value), `org chart ${example.name}`);
      for (const entity of ["corporate-hierarchy", "orgChart"])
        for (const fieldType of ["input", "output"]) {
          const doc = conforms(LOOKUP, await api()(`/data/v1/lookup/enrich?filter[entity]=${entity}&filter[fieldType]=${fieldType}`), `${entity} ${fieldType}`);
          assert.ok((doc.data as unknown[]).length >= 3, `${entity} ${fieldType} lists its fields`);
        }
      assert.equal((await api()("/data/v1/lookup/enrich?filter[entity]=planets")).status, 400);
    });

    it("matches every input kind and answers NoMatch in place, in the published shape", async () => {
      await sandbox.setAccount("default", 100_000);
      const deep = sandbox.ctx.db.prepare("SELECT name, domain FROM companies WHERE id = 33").get() as { name: string; domain: string };
      const inputs = [{ companyId: 33 }, { companyName: deep.name }, { companyWebsite: `https://www.${deep.domain}/` }, { companyId: 999_999 }];
      const doc = conforms(HIERARCHY, await api()(HIERARCHY_PATH, hierarchyBody(inputs)), "every input kind");
      const items = doc.data as { id: string; type: string }[];
      assert.deepEqual(
        items.map((item) => `${item.type} ${item.id}`),
        ["CorporateHierarchy 33", "CorporateHierarchy 33", "CorporateHierarchy 33", "NoMatch 0"],
      );
      const ids = (sandbox.ctx.db.prepare("SELECT id FROM companies ORDER BY id LIMIT 100").all() as { id: number }[]).map((row) => ({ companyId: row.id }));
      for (let i = 0; i < ids.length; i += 25) conforms(HIERARCHY, await api()(HIERARCHY_PATH, hierarchyBody(ids.slice(i, i + 25))), `companies from ${i}`);
    });

    it("answers every page of an org chart in the published shape, with links on the profile's base", async () => {
      await sandbox.setAccount("default", 100_000);
      const id = busiest(sandbox);
      const page = async (n: number) =>
        conforms(ORG_CHART, await api()(`${ORG_CHART_PATH}?page[size]=3&page[number]=${n}`, orgChartBody({ companyId: id })), `page ${n}`) as OrgChartDocument;
      const first = await page(1);
      const pages = first.meta!.page.total;
      assert.ok(pages >= 3, `${pages} pages`);
      const seen = [...first.data];
      for (let n = 2; n <= pages; n++) seen.push(...(await page(n)).data);
      assert.equal(new Set(seen.map((person) => person.id)).size, first.meta!.totalResults);
      assert.ok(first.links?.next?.startsWith(`${base}${ORG_CHART_PATH}?`), first.links?.next);
      const past = await api()(`${ORG_CHART_PATH}?page[size]=3&page[number]=${pages + 1}`, orgChartBody({ companyId: id }));
      if (profile === "production") assert.equal(past.status, 400, "production refuses a page past the last");
      else assert.equal((conforms(ORG_CHART, past, "past the last") as OrgChartDocument).data.length, 0, "the specification answers no one");
    });

    it("refuses a 26th company, a page above 100 and an org chart with no credit left with the service's errors", async () => {
      const many = hierarchyBody(Array.from({ length: 26 }, (_, i) => ({ companyId: i + 1 })));
      const tooMany = await api()(HIERARCHY_PATH, many);
      assert.equal(tooMany.status, 400);
      assert.equal(errorCode(tooMany), "PFAPI0002");
      assert.equal((await api()(`${ORG_CHART_PATH}?page[number]=101`, orgChartBody({ companyId: 1 }))).status, 400);
      await sandbox.setAccount("broke", 0);
      const broke = await api()(ORG_CHART_PATH, orgChartBody({ companyId: busiest(sandbox) }), "broke");
      assert.equal(broke.status, 400);
      assert.equal(errorCode(broke), "PFAPI0011");
    });
  });
}
