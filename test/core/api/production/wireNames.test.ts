import assert from "node:assert/strict";
import { test } from "node:test";
import { translateJson, translateSort, translateUrl } from "../../../../src/core/api/production/index.js";

test("search filters and output fields go out under production's names and come back under the contract's", () => {
  const request = {
    data: { type: "CompanySearch", attributes: { serviceContactsMin: "10", serviceContactsMax: "99", country: "France" } },
  };
  assert.deepEqual(translateJson(request, "toWire"), {
    data: { type: "CompanySearch", attributes: { zoominfoContactsMin: "10", zoominfoContactsMax: "99", country: "France" } },
  });
  const enrich = { data: { attributes: { outputFields: ["name", "numberOfContactsInService", "siteRank"] } } };
  assert.deepEqual(translateJson(enrich, "toWire"), {
    data: { attributes: { outputFields: ["name", "numberOfContactsInZoomInfo", "alexaRank"] } },
  });
  const answer = { data: [{ id: "1", attributes: { numberOfContactsInZoomInfo: 5, alexaRank: 17, name: "alexaRank" } }] };
  assert.deepEqual(translateJson(answer, "fromWire"), {
    data: [{ id: "1", attributes: { numberOfContactsInService: 5, siteRank: 17, name: "alexaRank" } }],
  });
});

test("a sort on a renamed field is translated, other query parameters stay", () => {
  assert.equal(translateSort("-siteRank,name", "toWire"), "-alexaRank,name");
  const url = translateUrl("https://api.test/gtm/data/v1/companies/search?page%5Bnumber%5D=2&sort=-siteRank", "toWire");
  const parsed = new URL(url);
  assert.equal(parsed.searchParams.get("sort"), "-alexaRank");
  assert.equal(parsed.searchParams.get("page[number]"), "2");
});
