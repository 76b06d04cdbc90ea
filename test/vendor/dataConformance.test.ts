// The production profile's data operations (company and contact search and enrich, the lookups
// that are not signals', usage) against the service's published description: every published
// example request is answered with its documented success status, and the answers to a broad
// set of requests (several filters, every page of a small search, every published output
// field, no-match inputs) validate against the published answer schemas.
import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { hashtagBody, LOOKUP_FIELDS } from "../../src/core/contract/index.js";
import { useSandbox } from "../helpers/sandbox.js";
import { requestErrors, responseErrors, vendorOperation, vendorSchema } from "./oracle.js";
import { ALL_SCOPES, callProfile, type VendorAnswer, type VendorCall } from "./productionProfile.js";

const SEARCH = { company: "SearchInterface_searchCompany", contact: "SearchInterface_searchContact" } as const;
const ENRICH = { company: "EnrichInterface_enrichCompany", contact: "EnrichInterface_enrichContact" } as const;
const TYPES = { company: ["CompanySearch", "CompanyEnrich"], contact: ["ContactSearch", "ContactEnrich"] } as const;
type Kind = keyof typeof SEARCH;

type SearchDoc = { data: { id: string }[]; meta: { totalResults: number; page: { number: number; total: number } } };
type LookupDoc = { data: { id: string; attributes: { name: string } }[] };

describe("production profile: data operations against the service's published description", () => {
  const sandbox = useSandbox({ profile: "production" });
  let token = "";
  /** Answers checked against the published schemas, over every test of the file. */
  let validated = 0;
  before(async () => {
    token = await sandbox.token({ scopes: ALL_SCOPES });
  });

  const call = (operationId: string, request: VendorCall = {}) => callProfile(sandbox, token, "data", operationId, request);
  /** The answer has a documented success status and matches that status's schema. */
  const conforms = (operationId: string, answer: VendorAnswer, what: string) => {
    const success = vendorOperation("data", operationId).success;
    assert.ok(success.includes(answer.status), `${what}: ${answer.url} answered ${answer.status}: ${JSON.stringify(answer.doc).slice(0, 400)}`);
    assert.deepEqual(responseErrors("data", operationId, answer.doc, answer.status), [], `${what}: ${answer.url}`);
    validated += 1;
    return answer.doc;
  };
  const search = async (kind: Kind, attributes: Record<string, unknown>, query: VendorCall["query"] = {}) => {
    const body = { data: { type: TYPES[kind][0], attributes } };
    assert.deepEqual(requestErrors("data", SEARCH[kind], body), [], `a ${kind} search body the published schema takes`);
    return conforms(SEARCH[kind], await call(SEARCH[kind], { body, query }), `${kind} search ${JSON.stringify(attributes)}`) as SearchDoc;
  };
  const lookup = async (fieldName: string) =>
    conforms("LookupInterface_lookup", await call("LookupInterface_lookup", { params: { fieldName } }), `lookup ${fieldName}`) as LookupDoc;

  it("answers every published example request of search and enrich with its success status, in the published shape", async () => {
    let examples = 0;
    for (const operationId of [...Object.values(SEARCH), ...Object.values(ENRICH)]) {
      for (const example of vendorOperation("data", operationId).requestExamples) {
        conforms(operationId, await call(operationId, { body: example.value }), example.name);
        examples += 1;
      }
    }
    assert.equal(examples, 11);
  });

  it("answers the lookups it serves (those that are not signals') and usage in the published shape", async () => {
    for (const fieldName of LOOKUP_FIELDS) assert.ok((await lookup(fieldName)).data.length > 0, fieldName);
    for (const entity of ["company", "contact"]) {
      const query = { "filter[entity]": entity, "filter[fieldType]": "output" };
      conforms("LookupEnrichInterface_lookupEnrich", await call("LookupEnrichInterface_lookupEnrich", { query }), `output fields of ${entity}`);
    }
    conforms("UserInterface_userUsage", await call("UserInterface_userUsage"), "usage");
  });

  it("answers company searches with several filters, and every page of a small one, in the published shape", async () => {
    const [country] = (await lookup("countries")).data;
    const industries = (await lookup("industries")).data.slice(0, 3).map((i) => i.id);
    const filters: Record<string, unknown>[] = [
      { country: country!.attributes.name },
      { industryCodes: industries.join(",") },
      { revenueMin: 1000, revenueMax: 500000 },
      { employeeRangeMin: "50", employeeRangeMax: "5000", companyType: "private" },
      { zoominfoContactsMin: "1" },
      { companyName: "a" },
    ];
    for (const attributes of filters) {
      for (const sort of ["name", "-employeeCount", "-revenue"]) await search("company", attributes, { sort, "page[size]": 10 });
    }
    await everyPage("company", { industryCodes: industries[0]!, country: country!.attributes.name });
  });

  it("answers contact searches with several filters, and every page of a small one, in the published shape", async () => {
    const level = (await lookup("management-levels")).data[0]!.id;
    const department = (await lookup("departments")).data[0]!.id;
    const filters: Record<string, unknown>[] = [
      { managementLevel: level },
      { department },
      { contactAccuracyScoreMin: "80", jobTitle: "a" },
      { firstName: "A" },
      { companyName: "a", requiredFields: "email" },
    ];
    for (const attributes of filters) {
      for (const sort of ["-contactAccuracyScore", "lastName", "-hierarchy"]) await search("contact", attributes, { sort, "page[size]": 10 });
    }
    const first = await search("contact", { managementLevel: level }, { "page[size]": 1 });
    const byId = await search("contact", { personId: first.data[0]!.id });
    assert.deepEqual(
      byId.data.map((c) => c.id),
      [first.data[0]!.id],
      "a search by personId finds that person",
    );
    await everyPage("contact", { managementLevel: level, department });
  });

  /** Pages through a search at a page size that gives 2 to 30 pages, as the vendor's node pages. */
  async function everyPage(kind: Kind, attributes: Record<string, unknown>) {
    const total = (await search(kind, attributes, { "page[size]": 1 })).meta.totalResults;
    assert.ok(total >= 2, `${kind} search ${JSON.stringify(attributes)} finds ${total}`);
    const size = Math.max(1, Math.ceil(total / 30));
    const ids = new Set<string>();
    for (let number = 1, pages = 1; number <= pages; number++) {
      const page = await search(kind, attributes, { "page[number]": number, "page[size]": size });
      pages = page.meta.page.total;
      for (const item of page.data) ids.add(item.id);
    }
    assert.equal(ids.size, total, "every result once");
  }

  it("enriches with every published output field, and answers no-match inputs, in the published shape", async () => {
    for (const kind of ["company", "contact"] as const) {
      const found = await search(kind, { companyName: "a" }, { "page[size]": 24 });
      const ids = found.data.map((r) => Number(r.id));
      const inputs =
        kind === "company" ? [...ids.map((companyId) => ({ companyId })), { companyId: 0 }] : [...ids.map((personId) => ({ personId })), { personId: 0 }];
      const fields = publishedOutputFields(kind === "company" ? "CompanyEnrichRequestAttributes" : "ContactEnrichRequestAttributes");
      for (let i = 0; i < fields.length; i += 20) {
        const body = {
          data: {
            type: TYPES[kind][1],
            attributes: { [kind === "company" ? "matchCompanyInput" : "matchPersonInput"]: inputs, outputFields: fields.slice(i, i + 20) },
          },
        };
        assert.deepEqual(requestErrors("data", ENRICH[kind], body), []);
        const doc = conforms(ENRICH[kind], await call(ENRICH[kind], { body }), `${kind} enrich ${fields.slice(i, i + 20).join(",")}`) as {
          data: { type: string }[];
        };
        assert.equal(doc.data.length, inputs.length);
        assert.equal(doc.data.at(-1)!.type, "NoMatch", "id 0 matches nothing");
      }
    }
  });

  it("refuses a wrong data.type with the service's 400 error document", async () => {
    for (const kind of ["company", "contact"] as const) {
      for (const operationId of [SEARCH[kind], ENRICH[kind]]) {
        const example = vendorOperation("data", operationId).requestExamples[0]!.value as { data: Record<string, unknown> };
        for (const type of ["Nope", TYPES[kind === "company" ? "contact" : "company"][0]]) {
          const answer = await call(operationId, { body: { data: { ...example.data, type } } });
          assert.equal(answer.status, 400, `${operationId} with data.type ${type}`);
          assert.deepEqual(responseErrors("data", operationId, answer.doc, 400), []);
          assert.equal((answer.doc as { errors: { source?: { pointer?: string } }[] }).errors[0]!.source?.pointer, "/data/type");
        }
      }
    }
  });

  it("enriches hashtags (the published example, tagged companies, an unknown id) in the published shape, and refuses a bad body", async () => {
    const HASHTAG = "EnrichInterface_enrichHashtag";
    for (const example of vendorOperation("data", HASHTAG).requestExamples) conforms(HASHTAG, await call(HASHTAG, { body: example.value }), example.name);
    const found = await search("company", { hashTagString: "#hiring,#ai,#saas" }, { "page[size]": 12 });
    assert.ok(found.data.length > 0, "companies tagged with these hashtags");
    let tags = 0;
    for (const companyId of [...found.data.map((c) => Number(c.id)), 999_999_999]) {
      const body = hashtagBody(companyId);
      assert.deepEqual(requestErrors("data", HASHTAG, body), [], "the add-in's body is one the published schema takes");
      const doc = conforms(HASHTAG, await call(HASHTAG, { body }), `hashtags of ${companyId}`) as { data: { id: string }[]; meta: { totalResults: number } };
      assert.equal(doc.meta.totalResults, doc.data.length);
      tags += doc.data.length;
    }
    assert.ok(tags >= found.data.length, `${tags} hashtags for ${found.data.length} tagged companies`);
    const refused = await call(HASHTAG, { body: { data: { type: "HashtagEnrich", attributes: { companyId: "acme" } } } });
    assert.equal(refused.status, 400);
    assert.deepEqual(responseErrors("data", HASHTAG, refused.doc, 400), []);
  });

  it("checked a broad set of answers", () => {
    assert.ok(validated >= 100, `only ${validated} answers validated`);
  });
});

/** The published enum of an enrichment's outputFields. */
function publishedOutputFields(attributesSchema: string): string[] {
  const schema = vendorSchema("data", attributesSchema) as { properties: { outputFields: { items: { enum: string[] } } } };
  return schema.properties.outputFields.items.enum;
}
