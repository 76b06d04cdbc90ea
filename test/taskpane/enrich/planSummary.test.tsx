// "Before you run" for a list of websites, without a browser: the plan the Enrich section shows
// (rows, different websites however they are spelled, blanks and what cannot be matched, the
// most credits and requests), then, after a run, the websites answered before cost nothing. And
// what the plan promises rows will say when credits run out is what the run writes on them.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { renderToStaticMarkup } from "react-dom/server";
import { FluentProvider, webLightTheme } from "@fluentui/react-components";
import {
  createEnrichmentEngine,
  MemoryCacheStore,
  planSelectionEnrichment,
  runSelectionEnrichment,
  type SelectionEnrichmentPlan,
} from "../../../src/core/enrich/index.js";
import { PlanSummary } from "../../../src/taskpane/enrich/PlanSummary.js";
import { FakeEnrichClient } from "../../core/enrich/fakeClient.js";
import { FakeMatchClient } from "../../core/enrich/fakeMatchClient.js";

const text = (planned: SelectionEnrichmentPlan, credits?: number) =>
  renderToStaticMarkup(
    <FluentProvider theme={webLightTheme}>
      <PlanSummary planned={planned} {...(credits !== undefined ? { credits } : {})} onRun={() => undefined} onBack={() => undefined} />
    </FluentProvider>,
  )
    .replace(/<style[^>]*>[^<]*<\/style>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, " ");

describe("Enrich plan of a list by website", () => {
  it("estimates rows, different websites, credits and requests before the run, and nothing for websites answered before", async () => {
    const client = new FakeMatchClient();
    const engine = createEnrichmentEngine({ client, cache: new MemoryCacheStore(), windowMs: 2 });
    // A header, three companies (one twice, spelled with www. and a path), a blank row, and a cell that is no website.
    const values = ["Website", "https://www.acme.com/about", "contoso.com", "", "acme.com", "northwind.de", "not a website at all"];
    const country = ["Country", "United States", "United States", "", "United States", "Germany", ""];
    const mode = { by: "match" as const, content: "website" as const, beside: { country } };
    const selection = { address: "Leads!C1:C7", values };
    const planned = await planSelectionEnrichment(engine, "company", selection, ["name", "revenue"], mode);
    const before = text(planned);
    assert.match(before, /Leads!C1:C7 \(header "Website"\)/);
    assert.match(before, /6 rows, 3 different websites/);
    assert.match(before, /0 answered before \(no request\)/);
    assert.match(before, /At most 3 credits, in 1 request; a row that does not match costs nothing/);
    // The blank row inside the list and the cell that is no website: each row says why on its status.
    assert.match(before, /2 rows cannot be matched as they are/);
    assert.match(before, /Match and enrich/);
    assert.equal(client.calls.length, 0, "the estimate sends nothing");

    await runSelectionEnrichment(engine, planned);
    assert.equal(client.calls.length, 1, "one request, as estimated");
    const again = text(await planSelectionEnrichment(engine, "company", selection, ["name", "revenue"], mode));
    assert.match(again, /6 rows, 3 different websites/);
    assert.match(again, /3 answered before \(no request\)/);
    assert.match(again, /At most 0 credits, in 0 requests/);
  });
});

describe("what the plan promises rows without credits will say", () => {
  const quoted = (html: string) => [...html.matchAll(/will say "([^"]+)"/g)].map((m) => m[1]);

  it("is the status the run writes on those rows (the error factory's row status)", async () => {
    const client = new FakeEnrichClient();
    client.behaviour = () => ({ status: "LIMIT_EXCEEDED", outcome: "limitExceeded" });
    const engine = createEnrichmentEngine({ client, cache: new MemoryCacheStore(), windowMs: 2 });
    const planned = await planSelectionEnrichment(engine, "company", { address: "Sheet1!A1:A3", values: ["Company ID", "11", "12"] }, ["name"]);
    const none = text(planned, 0);
    const some = text(planned, 1);
    const { output } = await runSelectionEnrichment(engine, planned);
    const statuses = output.rows.map((row) => row[row.length - 1]);
    assert.deepEqual(new Set(statuses).size, 1);
    const written = statuses[0];
    assert.ok(typeof written === "string" && written !== "");
    assert.deepEqual(quoted(none), [written]);
    assert.deepEqual(quoted(some), [written]);
  });
});
