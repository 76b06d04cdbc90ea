// The one error factory: every refusal or failure becomes one Failure, and the pane, a cell and a
// row each take their words from it. "No credits left" and "no AI action credits left" are each
// one sentence, whichever road the refusal came by; the service's reference id is in the pane's
// message and the row's status, never in a cell's short message.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { errorFromResponse, serviceError } from "../../../src/core/api/index.js";
import { errorText } from "../../../src/core/api/userText.js";
import {
  createEnrichmentEngine,
  MemoryCacheStore,
  planSelectionEnrichment,
  problemFromError,
  problems,
  runSelectionEnrichment,
} from "../../../src/core/enrich/index.js";
import { cellError, failureOf, jobRowFailure, paneMessage, refusals, rowStatus } from "../../../src/core/errors/failure.js";
import { aiEstimate } from "../../../src/core/research/aiCredits.js";
import { AiLimitError } from "../../../src/core/research/index.js";
import { FakeEnrichClient } from "../enrich/fakeClient.js";

const answer = (status: number, body: unknown, requestId?: string) =>
  errorFromResponse({ status, headers: { get: (name) => (name === "x-request-id" && requestId ? requestId : null) }, body: JSON.stringify(body) });

describe("one failure, its words in each place", () => {
  it("a service refusal keeps its reference id in the pane and the row, not in the cell", () => {
    const failure = failureOf(answer(400, { errors: [{ code: "PFAPI0006", detail: "revenueMin above revenueMax" }] }, "req-77"));
    assert.equal(failure.reason, "invalidInput");
    assert.equal(failure.reference, "req-77");
    assert.match(paneMessage(failure), / \(Reference: req-77\)$/);
    assert.match(rowStatus(failure), /^The service refused the request: .* \(Reference: req-77\)$/);
    const cell = cellError(failure);
    assert.equal(cell.code, "#N/A");
    assert.doesNotMatch(cell.message, /req-77/);
  });

  it("the pane's message of a failure is the errorText of the error it came from", () => {
    const errors: unknown[] = [
      answer(402, { errors: [{ code: "PAYMENT_REQUIRED", detail: "No credits" }] }, "ref-402"),
      answer(400, { error: { code: "PFAPI0011", message: "Credit limit reached", requestId: "g-1" } }),
      answer(401, { error: { code: "ZI0001", message: "Token expired" } }),
      answer(403, { errors: [{ code: "FORBIDDEN", detail: 'missing scope "api:data:company"' }] }, "ref-403"),
      answer(429, {}),
      answer(503, {}, "ref-503"),
      serviceError("network"),
      serviceError("cancelled"),
      new AiLimitError({ day: "2026-01-01", used: 3, cap: 3 }),
      new Error("plain"),
      "a string",
    ];
    for (const error of errors) assert.equal(paneMessage(failureOf(error)), errorText(error));
  });

  it("Enrich selection's rows say the failure's row status, with the reference a cell leaves out", async () => {
    const client = new FakeEnrichClient();
    client.failWith = answer(503, {}, "ref-503");
    const engine = createEnrichmentEngine({ client, cache: new MemoryCacheStore(), windowMs: 2 });
    const planned = await planSelectionEnrichment(engine, "company", { address: "Sheet1!A1:A3", values: ["Company ID", "21", "22"] }, ["name"]);
    const { output } = await runSelectionEnrichment(engine, planned);
    const expected = rowStatus(failureOf(client.failWith));
    assert.match(expected, / \(Reference: ref-503\)$/);
    assert.deepEqual(
      output.rows.map((row) => row.at(-1)),
      [expected, expected],
    );
    const cell = await engine.getCells("company", 23, "name");
    assert.ok(!cell.ok);
    assert.deepEqual({ code: cell.problem.code, message: cell.problem.message }, cellError(failureOf(client.failWith)));
  });

  it("a cell's problem is the failure's cell error", () => {
    const error = answer(403, { errors: [{ code: "FORBIDDEN", detail: 'missing scope "api:data:company"' }] }, "ref-403");
    const problem = problemFromError(error);
    assert.deepEqual({ code: problem.code, message: problem.message }, cellError(failureOf(error)));
    assert.equal(problem.kind, "forbidden");
    assert.equal(problem.reference, "ref-403");
    assert.match(problem.message, /^You cannot search or enrich companies/);
  });
});

describe("no credits left: one sentence, whichever road", () => {
  const noCredits = refusals.noCredits();
  const roads: [string, unknown][] = [
    ["the service's 402", answer(402, { errors: [{ code: "PAYMENT_REQUIRED", detail: "The account has no credits left." }] })],
    ["the production credit-limit code", answer(400, { error: { code: "PFAPI0011", message: "Credit limit reached" } })],
    ["the refusal the add-in makes itself", noCredits],
  ];

  it("every road says the same short sentence and the same pane sentence", () => {
    for (const [road, error] of roads) {
      const failure = failureOf(error);
      assert.equal(failure.reason, "noCredits", road);
      assert.equal(failure.short, noCredits.short, road);
      assert.equal(failure.pane, noCredits.pane, road);
      assert.equal(problemFromError(error).message, noCredits.short, road);
    }
    assert.equal(problems.creditLimit().message, noCredits.short);
    assert.equal(paneMessage(noCredits), "Your account has no credits left for new records. Ask your administrator for more credits.");
  });

  it("a job's row the service left for want of credits says the same", () => {
    const row = jobRowFailure({ summary: "Credit limit reached", description: "The account has no credits left to enrich a new record." });
    assert.equal(row && rowStatus(row), rowStatus(noCredits));
    assert.equal(jobRowFailure({ summary: "Invalid reference" })?.short, "Invalid reference");
    assert.equal(jobRowFailure({}), undefined);
  });
});

describe("no AI action credits left: one sentence, whichever road", () => {
  it("the service's code, the estimate's block and the add-in's own refusal say the same", () => {
    const ai = refusals.aiCredits();
    const refused = answer(400, { error: { code: "PFAPI0011", message: "AI action credit limit reached" } }, "r-9");
    assert.equal(failureOf(refused).reason, "aiCredits");
    assert.equal(errorText(refused), `${ai.pane} (Reference: r-9)`);
    const blocked = aiEstimate(
      "1 question",
      { companies: 1, reused: 0, credits: 1 },
      { day: "2026-01-01", used: 0, cap: 100 },
      { limit: 10, used: 10, remaining: 0 },
    );
    assert.equal(blocked.blocked, paneMessage(ai));
  });

  it("today's AI limit is the factory's refusal, in the pane and in a cell", () => {
    const error = new AiLimitError({ day: "2026-01-01", used: 6, cap: 6 });
    const failure = failureOf(error);
    assert.equal(failure.reason, "aiDailyLimit");
    assert.equal(error.message, failure.pane);
    assert.match(failure.pane, /^Your daily AI limit is used up \(6 of 6 AI action credits today\)/);
    assert.equal(problemFromError(error).kind, "aiDailyLimit");
  });
});
