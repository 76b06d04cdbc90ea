// The vendor oracle itself: the published examples pass it, and a document that breaks the
// published schemas is refused, with the place named.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { requestErrors, responseErrors, schemaErrors, vendorOperation, vendorOperationIds, type VendorApi } from "./oracle.js";

/**
 * Vendor example requests that break the vendor's own request schema: output fields missing
 * from the published `outputFields` enum. The examples document them as answered 200.
 */
const EXAMPLES_OUTSIDE_THE_SCHEMA: Record<string, string[]> = {
  "EnrichInterface_enrichCompany/Enrich Company Data Using Multiple Inputs and Output Fields for a Full Match": [
    "/data/attributes/outputFields/10",
    "/data/attributes/outputFields/11",
  ],
  "EnrichInterface_enrichContact/Enrich Contact by Person ID Using Various Company Output Fields and Required Fields for a Full Match": [
    "/data/attributes/outputFields/4",
  ],
};

const APIS: VendorApi[] = ["data", "studio"];

const companySearchAnswer = () =>
  structuredClone(vendorOperation("data", "SearchInterface_searchCompany").responseExamples[0]!.value) as {
    data: { id: unknown; attributes: Record<string, unknown> }[];
    meta: { totalResults: unknown; page: Record<string, unknown> };
  };

describe("the vendor oracle", () => {
  it("every published example answer matches its operation's answer schema", () => {
    let count = 0;
    for (const api of APIS) {
      for (const id of vendorOperationIds(api)) {
        for (const example of vendorOperation(api, id).responseExamples) {
          assert.deepEqual(responseErrors(api, id, example.value, example.status), [], `${id}: ${example.name}`);
          count += 1;
        }
      }
    }
    assert.ok(count >= 40, `only ${count} example answers`);
  });

  it("every published example request matches its request schema, but for output fields the enum lacks", () => {
    for (const api of APIS) {
      for (const id of vendorOperationIds(api)) {
        for (const example of vendorOperation(api, id).requestExamples) {
          const places = requestErrors(api, id, example.value).map((message) => message.split(" ")[0]);
          assert.deepEqual(places, EXAMPLES_OUTSIDE_THE_SCHEMA[`${id}/${example.name}`] ?? [], `${id}: ${example.name}`);
        }
      }
    }
  });

  it("refuses an answer with a wrong type and names the place", () => {
    const answer = companySearchAnswer();
    answer.data[0]!.id = 344589814;
    answer.meta.totalResults = "2";
    const errors = responseErrors("data", "SearchInterface_searchCompany", answer);
    assert.ok(
      errors.some((e) => e.startsWith("/data/0/id must be string")),
      errors.join("\n"),
    );
    assert.ok(
      errors.some((e) => e.startsWith("/meta/totalResults must be integer")),
      errors.join("\n"),
    );
  });

  it("refuses a missing required member and a number outside its integer format", () => {
    const answer = companySearchAnswer();
    answer.meta.page.number = 1.5;
    delete answer.meta.page.total;
    const errors = responseErrors("data", "SearchInterface_searchCompany", answer);
    assert.ok(
      errors.some((e) => e.startsWith("/meta/page must have required property 'total'")),
      errors.join("\n"),
    );
    assert.ok(
      errors.some((e) => e.startsWith("/meta/page/number must be integer")),
      errors.join("\n"),
    );
    assert.ok(schemaErrors("data", "Page", { number: -1, total: 1 }).some((e) => e.includes('must match format "uint32"')));
  });

  it("reads nullable as OpenAPI 3.0 does", () => {
    const persona = { departmentsAndJobFunctions: [], managementLevels: [] };
    assert.deepEqual(schemaErrors("data", "PersonaAttributes", { ...persona, titles: null }), []);
    assert.deepEqual(schemaErrors("data", "PersonaAttributes", { ...persona, titles: ["CEO"] }), []);
    assert.ok(schemaErrors("data", "PersonaAttributes", { ...persona, titles: "CEO" }).some((e) => e.startsWith("/titles must be array")));
  });

  it("requires a readOnly member in answers only", () => {
    const criteria = { data: { type: "UpsertMatchCriteria" } };
    const missingId = (e: string) => e.startsWith("/data must have required property 'id'");
    assert.ok(!requestErrors("studio", "Audiences_upsertMatchCriteria", criteria).some(missingId));
    assert.ok(schemaErrors("studio", "UpsertMatchCriteriaRequestJsonApiModel", criteria, "response").some(missingId));
  });

  it("selects the schema a discriminator names", () => {
    const noMatch = { data: [{ id: "1", type: "NoMatch" }] };
    assert.deepEqual(responseErrors("data", "EnrichInterface_enrichCompany", noMatch), []);
    const unknown = { data: [{ id: "1", type: "Person" }] };
    assert.ok(
      responseErrors("data", "EnrichInterface_enrichCompany", unknown).some((e) => e.startsWith("/data/0/type must be equal to one of the allowed values")),
    );
    const noId = { data: [{ type: "NoMatch" }] };
    assert.ok(responseErrors("data", "EnrichInterface_enrichCompany", noId).some((e) => e.startsWith("/data/0 must have required property 'id'")));
  });

  it("checks the request body's presence and the documented statuses", () => {
    assert.deepEqual(requestErrors("studio", "Rows_listRows", undefined), [], "the row search body is optional");
    assert.deepEqual(requestErrors("data", "SearchInterface_searchCompany", undefined), ["/ the request body is required"]);
    assert.deepEqual(responseErrors("data", "SearchInterface_searchCompany", {}, 418), ["/ status 418 is not documented for SearchInterface_searchCompany"]);
    assert.throws(() => vendorOperation("data", "NoSuchOperation"), /no operation NoSuchOperation/);
  });

  it("gives an operation's method, path and success statuses as published", () => {
    const rows = vendorOperation("studio", "Rows_getRowById");
    assert.equal(rows.method, "GET");
    assert.equal(rows.path, "/studio/v1/audiences/{audienceId}/rows/{rowId}");
    assert.deepEqual(vendorOperation("studio", "Audiences_enrichAudience").success, [202, 204]);
    assert.equal(vendorOperation("data", "LookupInterface_lookup").responseExamples.length, 29);
  });
});
