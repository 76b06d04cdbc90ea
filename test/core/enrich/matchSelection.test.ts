// Enrich selection on a list without ids: header and content detection, neighbouring country
// column, the estimate, the written id / match status / fields, unmatched rows with reasons,
// and a retry after the user edited a row.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createEnrichmentEngine, MemoryCacheStore } from "../../../src/core/enrich/index.js";
import { createRecordMatcher } from "../../../src/core/enrich/matcher.js";
import { detectMatchContent, planMatchSelection, runMatchSelection, shiftColumns, splitMatchHeader } from "../../../src/core/enrich/matchSelection.js";
import { FakeMatchClient } from "./fakeMatchClient.js";

function setup() {
  const client = new FakeMatchClient();
  const store = new MemoryCacheStore();
  return { client, matcher: createRecordMatcher({ client, cache: store, windowMs: 2 }), engine: createEnrichmentEngine({ client, cache: store, windowMs: 2 }) };
}

describe("match selection", () => {
  it("detects the content and the header", () => {
    assert.equal(detectMatchContent(["Website", "acme.com", "https://www.contoso.com/"]), "website");
    assert.deepEqual(splitMatchHeader(["Website", "acme.com"], "website"), { header: "Website", values: ["acme.com"] });
    assert.deepEqual(splitMatchHeader(["acme.com", "contoso.com"], "website"), { header: undefined, values: ["acme.com", "contoso.com"] });
    assert.deepEqual(splitMatchHeader(["Company", "Acme"], "name"), { header: "Company", values: ["Acme"] });
    assert.equal(shiftColumns("Sheet1!A1:A20", 2), "Sheet1!C1:C20");
    assert.equal(shiftColumns("'My sheet'!$Z$2:$Z$9", 1), "'My sheet'!AA2:AA9");
  });

  it("writes id, status and fields per row, lists the unmatched with reasons, and retries an edited row", async () => {
    const { client, matcher, engine } = setup();
    const selection = { address: "Sheet1!A1:A7", values: ["Company", "Acme", "Northwind", "Northwind", "", "ACME", "Nobody"] };
    const country = ["Country", "", "", "Germany", "", "", ""];
    const planned = await planMatchSelection(matcher, engine, { kind: "company", content: "name", fields: ["name", "revenue"], selection, beside: { country } });
    assert.equal(planned.header, "Company");
    assert.deepEqual({ unique: planned.match.unique, blank: planned.match.blank, requests: planned.match.requests, maxCredits: planned.match.maxCredits }, { unique: 4, blank: 1, requests: 1, maxCredits: 4 });

    const result = await runMatchSelection(matcher, engine, planned);
    assert.deepEqual(result.headers, ["Company ID", "Match status", "Company name", "Revenue ($K)"]);
    assert.deepEqual(result.rows[0], [101, "Matched", "ACME", 1010]);
    assert.deepEqual(result.rows[2], [201, "Matched", "NORTHWIND", 2010], "decided by the country column");
    assert.deepEqual(result.rows[3], ["", "", "", ""], "a blank row stays blank");
    assert.deepEqual(result.rows[4], [101, "Matched", "ACME", 1010]);
    assert.match(String(result.rows[1]?.[1]), /^Ambiguous input/);
    assert.deepEqual(result.unmatched.map((u) => [u.row, u.value]), [[2, "Northwind"], [6, "Nobody"]]);
    assert.match(result.unmatched[1]!.reason, /^No match/);
    assert.deepEqual(result.counts, { matched: 3, unmatched: 2, blank: 1 });
    assert.equal(client.calls.length, 1, "fields came with the match");

    // The user adds a country to row 2 and retries: only that row is asked.
    const edited = ["Country", "", "United Kingdom", "Germany", "", "", ""];
    const again = await planMatchSelection(matcher, engine, { kind: "company", content: "name", fields: ["name", "revenue"], selection, beside: { country: edited } });
    const retried = await runMatchSelection(matcher, engine, again, { retryMisses: true });
    assert.deepEqual(retried.rows[1], [202, "Matched", "NORTHWIND", 2020]);
    assert.deepEqual(client.calls.slice(1).map((c) => c.inputs), [[{ companyName: "Northwind", companyCountry: "United Kingdom" }, { companyName: "Nobody" }]]);
  });
});
