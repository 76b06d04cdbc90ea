// Enrich selection on a list without ids: header and content detection, neighbouring country
// column, the estimate, the written id / match status / fields, unmatched rows with reasons and
// the sheet's row numbers, and a retry after the user corrected a row.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  createEnrichmentEngine,
  detectMatchContent,
  MemoryCacheStore,
  planSelectionEnrichment,
  retryChanges,
  runSelectionEnrichment,
  shiftColumns,
  splitMatchHeader,
  unmatchableRows,
  matchFieldsBeside,
  withCandidates,
} from "../../../src/core/enrich/index.js";
import { missProblem } from "../../../src/core/enrich/resolver.js";
import { FakeMatchClient } from "./fakeMatchClient.js";

function setup() {
  const client = new FakeMatchClient();
  const store = new MemoryCacheStore();
  return { client, engine: createEnrichmentEngine({ client, cache: store, windowMs: 2 }) };
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

  it("writes id, status and fields per row, lists the unmatched with reasons by sheet row, and retries a corrected row", async () => {
    const { client, engine } = setup();
    const selection = { address: "Sheet1!A1:A7", values: ["Company", "Acme", "Northwind", "Northwind", "", "ACME", "Nobody"] };
    const country = ["Country", "", "", "Germany", "", "", ""];
    const mode = { by: "match" as const, content: "name" as const, beside: { country } };
    const planned = await planSelectionEnrichment(engine, "company", selection, ["name", "revenue"], mode);
    assert.equal(planned.header, "Company");
    assert.equal(planned.firstRow, 2, "the first data row is the sheet's row 2");
    const { unique, blankCount, requests, maxCredits } = planned.plan;
    assert.deepEqual({ unique, blankCount, requests, maxCredits }, { unique: 4, blankCount: 1, requests: 1, maxCredits: 4 });

    const result = await runSelectionEnrichment(engine, planned);
    const { output } = result;
    assert.deepEqual(output.headers, ["Company ID", "Match status", "Company name", "Revenue ($K)"]);
    assert.deepEqual(output.rows[0], [101, "Matched", "ACME", 1010]);
    assert.deepEqual(output.rows[2], [201, "Matched", "NORTHWIND", 2010], "decided by the country column");
    assert.deepEqual(output.rows[3], ["", "No company name in this row", "", ""], "a blank row inside the list says why");
    assert.deepEqual(output.rows[4], [101, "Matched", "ACME", 1010]);
    assert.match(
      String(output.rows[1]?.[1]),
      /^Ambiguous: several companies match "Northwind" \(name used\); a country or city column, or the website, would decide/,
    );
    assert.deepEqual(
      result.unmatched.map((u) => [u.row, u.value]),
      [
        [3, "Northwind"],
        [5, ""],
        [7, "Nobody"],
      ],
      "the sheet's row numbers",
    );
    assert.match(result.unmatched[2]!.reason, /^No match/);
    assert.deepEqual(output.counts, { enriched: 3, problems: 0, blank: 0, matched: 3, unmatched: 3 });
    assert.equal(unmatchableRows(planned), 1, "the plan counts the blank row among those that cannot be matched");
    assert.equal(client.calls.length, 1, "fields came with the match");

    // The user corrects row 3 to the website; only that row is asked, and the retry says what changed.
    const corrected = ["Company", "Acme", "northwind.co.uk", "Northwind", "", "ACME", "Nobody"];
    const again = await planSelectionEnrichment(engine, "company", { ...selection, values: corrected }, ["name", "revenue"], mode);
    const retried = await runSelectionEnrichment(engine, again);
    assert.deepEqual(retried.output.rows[1], [202, "Matched", "NORTHWIND", 2020]);
    assert.deepEqual(
      client.calls.slice(1).map((c) => c.inputs),
      [[{ companyWebsite: "northwind.co.uk" }]],
      "the other misses are known: not asked again",
    );
    const changes = retryChanges(result.unmatched, retried.unmatched);
    assert.deepEqual(
      changes.nowMatched.map((r) => r.row),
      [3],
    );
    assert.deepEqual(
      changes.stillUnmatched.map((r) => r.row),
      [5, 7],
    );
  });

  it("leaves out of a list's first fields the columns it has already; empty rows after the list say nothing", async () => {
    assert.deepEqual(matchFieldsBeside("company", ["Website", "Country", "Company"]), ["name"]);
    assert.deepEqual(matchFieldsBeside("company", ["Website", "Country"]), ["name"]);
    assert.deepEqual(matchFieldsBeside("company", ["Website", "Country", "Company name"]), ["name"], "a match asks at least one field");
    assert.deepEqual(matchFieldsBeside("company", ["Domain", ""]), ["name", "website", "country"]);
    const { engine } = setup();
    const selection = { address: "Sheet1!A1:A6", values: ["Website", "acme.com", "", "contoso.com", "", ""] };
    const planned = await planSelectionEnrichment(engine, "company", selection, ["name"], { by: "match", content: "website" });
    assert.equal(unmatchableRows(planned), 1);
    const { output, unmatched } = await runSelectionEnrichment(engine, planned);
    assert.deepEqual(
      output.rows.map((r) => r[1]),
      ["Matched", "No website in this row", "Matched", "", ""],
    );
    assert.deepEqual(
      unmatched.map((u) => u.row),
      [3],
    );
  });

  it("lists the companies that fit an ambiguous name in its row's status, one search per name", async () => {
    const { engine } = setup();
    const selection = { address: "Sheet1!A1:A4", values: ["Company", "Northwind", "Acme", "northwind"] };
    const planned = await planSelectionEnrichment(engine, "company", selection, ["name"], { by: "match", content: "name" });
    const searched: string[] = [];
    const result = await withCandidates(planned, await runSelectionEnrichment(engine, planned), async (name) => {
      searched.push(name);
      return [
        { id: 201, name: "Northwind GmbH", country: "Germany", website: "northwind.de" },
        { id: 202, name: "Northwind Ltd", country: "United Kingdom" },
      ];
    });
    assert.deepEqual(searched, ["Northwind"]);
    const status = String(result.output.rows[0]![1]);
    assert.match(
      status,
      /^Ambiguous: .*Companies that fit: Northwind GmbH \(id 201, Germany, northwind\.de\); Northwind Ltd \(id 202, United Kingdom\)\. Type the right one's website/,
    );
    assert.equal(result.unmatched[0]!.reason, status);
    assert.equal(result.output.rows[1]![1], "Matched");
  });

  it("says what an ambiguous name was matched with and what would decide", () => {
    const northwind = (input: Record<string, string>) =>
      missProblem({ kind: "company", input: { companyName: "Northwind", ...input }, label: "Northwind" }, "ambiguous").message;
    assert.match(northwind({}), /\(name used\); a country or city column, or the website, would decide/);
    assert.match(northwind({ companyCountry: "DE" }), /\(name and country used\); a city column, or the website, would decide/);
    assert.match(northwind({ companyCountry: "DE", companyCity: "Berlin" }), /\(name, country and city used\); the website would decide/);
  });
});
