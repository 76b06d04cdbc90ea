// What the Research tab says when many items of a list fail: over real HTTP against the sandbox,
// a 429 storm (the organization's hourly allowance used up) over a list of seed companies, and
// briefings refused once the AI action credits ran out, each come back as one short sentence in
// the user's terms — the reason once, a few items named — while what succeeded is kept.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createResearch } from "../../src/core/research/index.js";
import { memoryKeyValueStorage } from "../../src/core/storage/keyValue.js";
import { failuresText } from "../../src/taskpane/research/outcomeText.js";
import { missesText } from "../../src/taskpane/research/companyInputs.js";
import { sandboxClient } from "../core/api/sandboxClient.js";
import { manualClock, startTestSandbox, type TestSandbox } from "../helpers/sandbox.js";

const ids = (s: TestSandbox, n: number) =>
  (s.ctx.db.prepare("SELECT company_id AS id FROM contacts GROUP BY company_id ORDER BY company_id LIMIT ?").all(n) as { id: number }[]).map((r) =>
    String(r.id),
  );

describe("research outcomes when many items fail", () => {
  let sandbox: TestSandbox;
  before(async () => {
    // The sandbox's time stands still, so its hourly allowance cannot open again during the test.
    sandbox = await startTestSandbox({ companies: 300, contacts: 900, rateLimit: { perHour: 6 }, clock: manualClock(Date.UTC(2030, 0, 1, 12, 30)) });
  });
  after(async () => {
    await sandbox.close();
  });

  it("a 429 storm over 20 seed companies: the seeds answered are kept, the others are one sentence", async () => {
    const token = await sandbox.token({ account: "storm" });
    const client = sandboxClient(sandbox.url, () => token);
    const research = createResearch({ client, storage: memoryKeyValueStorage(), scope: () => "storm" });
    const seeds = ids(sandbox, 20);
    const result = await research.lookalikes({ seeds, limit: 100, perSeed: 10, concurrency: 1 });
    assert.ok(result.failures.length >= 10, `most seeds refused (${result.failures.length})`);
    assert.ok(result.companies.length > 0, "the seeds answered before the storm are kept");
    const text = failuresText(
      "No answer for",
      result.failures.map((f) => ({ item: f.seed, error: f.error })),
    );
    assert.match(text, /^ No answer for: \d+, \d+, \d+, \d+, \d+ and \d+ more: Your organization has used its hourly request allowance/);
    assert.equal(text.match(/hourly request allowance/g)?.length, 1, "the reason once");
    assert.ok(text.length < 300, text);
  });

  it("briefings refused once the AI action credits ran out: one sentence naming the AI action credits", async () => {
    await fetch(`${sandbox.url}/__sandbox/accounts`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id: "ai-out", credits: 100, aiCredits: 2 }),
    });
    const token = await sandbox.token({ account: "ai-out" });
    const client = sandboxClient(sandbox.url, () => token);
    const research = createResearch({ client, storage: memoryKeyValueStorage(), scope: () => "ai-out" });
    const run = await research.briefings(ids(sandbox, 4), { concurrency: 1 });
    assert.equal(run.fetched, 2);
    const text = failuresText(
      "Not fetched",
      run.failures.map((f) => ({ item: f.companyId, error: f.error })),
    );
    assert.match(text, /^ Not fetched: \d+, \d+: Your account has no AI action credits left/);
  });

  it("websites no company matches: named once with the reason", () => {
    const misses = ["a.example", "b.example", "c.example", "d.example", "e.example", "f.example", "g.example"].map((input) => ({
      input,
      message: "No company matches this website",
    }));
    assert.equal(
      missesText([...misses, { input: "-7", message: "not a company id, website or name" }]),
      " Not found: a.example, b.example, c.example, d.example, e.example and 2 more: No company matches this website; -7: not a company id, website or name.",
    );
    assert.equal(missesText([]), "");
  });
});
