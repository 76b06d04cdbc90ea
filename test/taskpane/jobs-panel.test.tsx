// The job list as it renders: terminal states distinct, partial success with its failed count,
// progress and elapsed time; and service strings shown as text, never as markup.
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { renderToStaticMarkup } from "react-dom/server";
import { FluentProvider, webLightTheme } from "@fluentui/react-components";
import type { TrackedJob, TrackerSnapshot } from "../../src/core/jobs/index.js";
import { FakeClock } from "../core/api/scripted.js";
import { JobList, badgeColor, jobSummary } from "../../src/taskpane/jobs/JobList.js";
import { errorFromResponse } from "../../src/core/api/index.js";
import { chosenText, issueText } from "../../src/taskpane/jobs/StartEnrichment.js";
import { startFailure } from "../../src/taskpane/jobs/useStartEnrichment.js";

function job(over: Partial<TrackedJob>): TrackedJob {
  return { audienceId: "a", jobId: `j-${Math.random()}`, audienceName: "Target accounts", startedAt: 0, status: "RUNNING", terminal: false, ...over };
}

function render(jobs: TrackedJob[], now = 65_000): string {
  const snapshot: TrackerSnapshot = { jobs };
  const tracker = {
    snapshot: () => snapshot,
    subscribe: () => () => {},
    setFailedRows: async () => {},
    forget: async () => {},
    track: async () => {},
  };
  const client = { getAudience: async () => Promise.reject(new Error("unused")), getAudienceRows: async () => Promise.reject(new Error("unused")) };
  const workbook = { createTable: async () => Promise.reject(new Error("unused")) };
  return renderToStaticMarkup(
    <FluentProvider theme={webLightTheme}>
      <JobList client={client} tracker={tracker} workbook={workbook} clock={new FakeClock(now)} />
    </FluentProvider>,
  );
}

describe("JobList", () => {
  it("shows a running job with its audience, progress, start and elapsed time", () => {
    const html = render([job({ status: "RUNNING", percentProgress: 40, startedAt: 5_000 })]);
    assert.match(html, /Target accounts/);
    assert.match(html, /Running/);
    assert.match(html, /40%/);
    assert.match(html, /Elapsed 1 min 00 s/);
    assert.match(html, /Started /);
    assert.doesNotMatch(html, /Insert rows into sheet/, "nothing to insert before the end");
  });

  it("shows each terminal state distinctly, with the failed count of a partial success", () => {
    const states = ["SUCCEEDED", "PARTIALLY_SUCCEEDED", "FAILED", "CANCELLED"];
    const colors = new Set(states.map((status) => badgeColor(job({ status, terminal: true }))));
    assert.equal(colors.size, 4);
    const html = render([
      job({ status: "SUCCEEDED", terminal: true, percentProgress: 100, finishedAt: 30_000 }),
      job({ status: "PARTIALLY_SUCCEEDED", terminal: true, percentProgress: 100, failedRows: 12, finishedAt: 30_000 }),
      job({ status: "FAILED", terminal: true, percentProgress: 100, failedRows: 3, finishedAt: 30_000 }),
    ]);
    assert.match(html, /Succeeded/);
    assert.match(html, /Partly succeeded/);
    assert.match(html, /12 rows failed/);
    assert.match(html, /Failed/);
    assert.match(html, /Elapsed 30 s/, "elapsed time stops at the end");
    assert.equal((html.match(/Insert rows into sheet/g) ?? []).length, 2, "a failed job has nothing to insert");
  });

  it("says the failed rows are being counted until they are", () => {
    assert.match(jobSummary(job({ status: "PARTIALLY_SUCCEEDED", terminal: true })), /counting/);
    assert.match(jobSummary(job({ status: "PARTIALLY_SUCCEEDED", terminal: true, failedRows: 1 })), /1 row failed/);
  });

  it("renders names from the service as text", () => {
    const html = render([job({ audienceName: "<img src=x onerror=alert(1)>" })]);
    assert.doesNotMatch(html, /<img/);
    assert.match(html, /&lt;img/);
  });

  it("invites the first enrichment when there are no jobs", () => {
    assert.match(render([]), /not started an audience enrichment yet/);
  });

  it("a job the service no longer has: plain words, Check again, nothing to insert", () => {
    const html = render([
      job({
        status: "UNKNOWN",
        terminal: true,
        problem: "The service could not find this item. It may have been deleted; refresh the list.",
        finishedAt: 30_000,
      }),
    ]);
    assert.doesNotMatch(html, /Ended: UNKNOWN/);
    assert.doesNotMatch(html, /refresh the list/);
    assert.match(html, /no longer has this job/);
    assert.match(html, /Check again/);
    assert.doesNotMatch(html, /Insert rows into sheet/);
  });
});

describe("StartEnrichment's wording", () => {
  const row = "3f2b1c9e-1234-4abc-9def-0123456789ab";
  it("names a row once, by its name when known, without request terms", () => {
    const names = new Map([[row, "Acme Corp"]]);
    assert.equal(
      issueText({ pointer: "/data/attributes/rows/0", label: "Rows item 1", rule: "unknownRow", message: `Row ${row} is not in this audience.` }, [row], names),
      'Row "Acme Corp" is not in this audience.',
    );
    assert.equal(
      issueText(
        {
          pointer: "/data/attributes/rows/0",
          label: "Rows item 1",
          rule: "uuid",
          message: "Rows item 1 must be an id like 3f2b1c9e-1234-4abc-9def-0123456789ab.",
        },
        ["abc"],
        new Map(),
      ),
      '"abc" is not a row id: row ids look like 3f2b1c9e-1234-4abc-9def-0123456789ab.',
    );
    assert.equal(
      issueText({ pointer: "/data/attributes/rows", label: "Rows", message: "Choose at least one row when the scope is ROW." }, [], new Map()),
      "Choose at least one row.",
    );
  });
  it("lists chosen rows by name", () => {
    const names = new Map([
      ["a", "Acme"],
      ["b", "Globex"],
    ]);
    assert.equal(chosenText(["a", "b", "c"], names), "3 rows chosen: Acme, Globex, c");
    assert.equal(chosenText([], names), "0 rows chosen");
  });
});

describe("StartEnrichment's refused start", () => {
  const refusal = (status: number, body: unknown) => errorFromResponse({ status, headers: { get: () => null }, body: JSON.stringify(body) });

  it("shows the service's message with its reference, for support", () => {
    const failure = startFailure(refusal(503, { error: { code: "ZI0500", message: "Down for maintenance", requestId: "7c1d-09" } }));
    assert.ok("notice" in failure);
    assert.equal(failure.notice.intent, "error");
    assert.match(failure.notice.text, /\(Reference: 7c1d-09\)$/);
    assert.equal(failure.refresh, undefined);
  });

  it("says what a missing audience and a non-service error mean", () => {
    const gone = startFailure(refusal(404, { error: { code: "ZI0404", message: "Not found", requestId: "aa-1" } }));
    assert.ok("notice" in gone);
    assert.equal(gone.refresh, true, "the list is read again");
    assert.match(gone.notice.text, /no longer exists/);
    const broken = startFailure(new Error("network down"));
    assert.ok("notice" in broken);
    assert.equal(broken.notice.text, "The enrichment could not be started: network down");
  });
});
