// The estimate before an audience job, from the service's data: rows in scope, records not yet
// under management (a free company search on the rows' ids), the most it can cost; and the
// warnings when that is above the credits left or today's limit.
import { test } from "node:test";
import assert from "node:assert/strict";
import { renderToStaticMarkup } from "react-dom/server";
import { FluentProvider, webLightTheme } from "@fluentui/react-components";
import type { Audience, AudienceRow, CompanyItem } from "../../src/core/contract/index.js";
import { audienceTable } from "../../src/core/jobs/index.js";
import { estimateJob, idChunks } from "../../src/taskpane/jobs/jobEstimate.js";
import { CANNOT_STOP, JobEstimateView, estimateWarnings } from "../../src/taskpane/jobs/JobEstimateView.js";

const INPUT = "col-input";
const audience = (type: "COMPANY" | "CONTACT"): Audience =>
  ({
    id: "aud-1",
    type: "Audience",
    attributes: {
      name: "Targets",
      description: "",
      recordCount: 6,
      type,
      columns: [
        { id: INPUT, type: "Column", attributes: { name: "Company ID", dataType: "STRING", columnType: "INPUT" } },
        { id: "col-name", type: "Column", attributes: { name: "Name", dataType: "STRING", columnType: "ENRICHED" } },
      ],
    },
  }) as unknown as Audience;
const row = (id: string, ref: string): AudienceRow =>
  ({ id, type: "Row", attributes: { values: [{ columnId: INPUT, value: ref, state: "RESULT" }] } }) as unknown as AudienceRow;

// Rows 1-6: ids 1, 2, 2 (a repeat), 3, 999 (no such company), "N/A" (no id). Company 1 is under management.
const ROWS = [row("r1", "1"), row("r2", "2"), row("r3", "2"), row("r4", "3"), row("r5", "999"), row("r6", "N/A")];

function fakeClient() {
  const searches: { filters: Record<string, unknown>; size: number | undefined }[] = [];
  return {
    searches,
    getAudienceRows: async (_id: string, o: { page?: number; size?: number } = {}) => {
      const size = o.size ?? 25;
      const page = o.page ?? 1;
      return { rows: ROWS.slice((page - 1) * size, page * size), totalPages: Math.ceil(ROWS.length / size), totalResults: ROWS.length, pageNumber: page };
    },
    searchCompanies: async (filters: Record<string, unknown>, o: { size?: number } = {}) => {
      searches.push({ filters, size: o.size });
      const ids = String(filters.companyId)
        .split(",")
        .map(Number)
        .filter((id) => id <= 3);
      const items = ids.map(
        (id) =>
          ({ id: String(id), type: "Company", attributes: { name: `Co ${id}`, managementStatus: { underManagement: id === 1 } } }) as unknown as CompanyItem,
      );
      return { items, totalResults: items.length, pageNumber: 1, totalPages: 1, links: {} };
    },
  };
}

test("a company audience: rows in scope, records under management and new ones, from the service's answers", async () => {
  const client = fakeClient();
  const estimate = await estimateJob(client as never, audience("COMPANY"), { scope: "AUDIENCE" });
  assert.deepEqual(estimate, { rowsInScope: 6, records: 4, invalidRows: 1, notFound: 1, underManagement: 1, newRecords: 2, maxCredits: 3 });
  assert.equal(client.searches.length, 1);
  assert.equal(client.searches[0]!.filters.underManagement, undefined, "every company is asked, not only managed ones");
});

test("chosen rows: only those rows count", async () => {
  const estimate = await estimateJob(fakeClient() as never, audience("COMPANY"), { scope: "ROW", rows: ["r1", "r4"] });
  assert.deepEqual(estimate, { rowsInScope: 2, records: 2, invalidRows: 0, notFound: 0, underManagement: 1, newRecords: 1, maxCredits: 1 });
});

test("a contact audience: the service cannot tell beforehand, so every record counts as new", async () => {
  const client = fakeClient();
  const estimate = await estimateJob(client as never, audience("CONTACT"), { scope: "AUDIENCE" });
  assert.equal(estimate.newRecords, 4);
  assert.equal(estimate.maxCredits, 5, "the row without an id counts too");
  assert.equal(estimate.underManagement, undefined);
  assert.equal(client.searches.length, 0);
});

test("ids go to the company search in groups it accepts (at most 50 ids and 500 characters)", () => {
  const many = Array.from({ length: 120 }, (_, i) => i + 1);
  assert.deepEqual(
    idChunks(many).map((c) => c.length),
    [50, 50, 20],
  );
  const long = Array.from({ length: 60 }, (_, i) => 1_000_000_000 + i);
  for (const chunk of idChunks(long)) assert.ok(chunk.join(",").length <= 500, `${chunk.join(",").length} characters`);
  assert.deepEqual(idChunks(long).flat(), long);
});

test("warnings: above the credits left and above today's limit, in words", () => {
  const estimate = { rowsInScope: 500, records: 500, invalidRows: 0, notFound: 0, underManagement: 20, newRecords: 480, maxCredits: 480 };
  assert.deepEqual(estimateWarnings(estimate, { creditsLeft: 1000, daily: { cap: 1000, used: 0 } }), []);
  const [credits, daily] = estimateWarnings(estimate, { creditsLeft: 100, daily: { cap: 1000, used: 900 } });
  assert.match(credits ?? "", /has 100 credits left; this job may need up to 480/);
  assert.match(daily ?? "", /more than the 100 new records left of your daily limit/);
  assert.match(estimateWarnings(estimate, { creditsLeft: 0 })[0] ?? "", /no credits left/);
});

test("what the estimate promises rows of new records will say without credits is what the job's rows say", () => {
  const estimate = { rowsInScope: 2, records: 2, invalidRows: 0, notFound: 0, underManagement: 0, newRecords: 2, maxCredits: 2 };
  // A row the service's job left for want of credits (the sandbox's words for it, as the service sends them).
  const failed = {
    id: "r1",
    type: "Row",
    attributes: {
      values: [
        { columnId: INPUT, value: "1", state: "RESULT" },
        {
          columnId: "col-name",
          state: "ERROR",
          errorDetails: { summary: "Credit limit reached", description: "The account has no credits left to enrich a new record." },
        },
      ],
    },
  } as unknown as AudienceRow;
  const status = audienceTable(audience("COMPANY"), [failed]).rows[0]?.at(-1);
  for (const creditsLeft of [0, 1]) {
    const promised = [...(estimateWarnings(estimate, { creditsLeft })[0] ?? "").matchAll(/will say "([^"]+)"/g)].map((m) => m[1]);
    assert.equal(promised.length, 1, `${creditsLeft} left`);
    assert.equal(status, `Error: ${promised[0]}`, `${creditsLeft} left`);
  }
});

test("the estimate as shown: the facts, that a started job cannot be stopped, Start and Back", () => {
  const html = renderToStaticMarkup(
    <FluentProvider theme={webLightTheme}>
      <JobEstimateView
        audienceName="<b>Targets</b>"
        estimate={{ rowsInScope: 6, records: 4, invalidRows: 1, notFound: 1, underManagement: 1, newRecords: 2, maxCredits: 3 }}
        allowance={{ creditsLeft: 100, daily: { cap: 1000, used: 10 } }}
        busy={false}
        onStart={() => {}}
        onBack={() => {}}
      />
    </FluentProvider>,
  );
  assert.match(html, /6 rows in scope \(4 distinct records: some rows repeat one\)/);
  assert.match(html, /1 row holds no record id: the service may still match them/);
  assert.match(html, /1 record is already under management \(free\); 2 are not/);
  assert.match(html, /At most <strong>3 credits<\/strong>/, "new records and the row without an id");
  assert.match(html, /Today&#x27;s limit: 1,000 new records, 990 left · Credits left: 100/);
  assert.ok(html.includes(CANNOT_STOP.replace(/'/g, "&#x27;")), "says plainly that a started job cannot be stopped");
  assert.match(html, /Start: at most 3 credits/);
  assert.match(html, />Back</);
  assert.match(html, /&lt;b&gt;Targets/, "the audience's name is text");
});
