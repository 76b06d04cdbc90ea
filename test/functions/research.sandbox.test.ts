// The BIZ research functions on the real runtime and the real sandbox over HTTP: BIZ.LOOKALIKES
// spills a ranked list and a recalculation sends nothing; BIZ.BRIEFING shows a briefing fetched
// in the pane or says none was, and never asks the service; and no cell formula can spend an
// AI action credit: every registered function, on a sheet of ids, websites and names, leaves the
// account's AI usage as it was.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import metadata from "custom-functions-metadata";
import { memoryKeyValueStorage } from "../../src/core/storage/keyValue.js";
import { SANDBOX_ENVIRONMENT } from "../../src/core/settings/environment.js";
import { cellFunctionsWiring, createRuntime, devTokenSource, type Runtime } from "../../src/runtime.js";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.js";
import { cellOutcome, loadFunctions } from "./fakeCustomFunctions.js";

const fns = (await loadFunctions()) as unknown as Record<string, (...args: unknown[]) => unknown>;
const generated = await metadata.generateCustomFunctionsMetadata("src/functions/functions.ts", true);
const registered = (JSON.parse(generated.metadataJson) as { functions: { id: string; parameters: { name: string }[]; options?: { stream?: boolean } }[] })
  .functions;
const functionName = new Map(generated.associate.map((a) => [a.id, a.functionName]));

/** An invocation as Excel passes it, streaming ones included (results are dropped). */
const invocation = () => ({ isInValuePreview: false, setResult: () => undefined, onCanceled: undefined as (() => void) | undefined });

/** A plausible value for a parameter, by its name: the company (or contact) the row is about, else text a formula would hold. */
function argumentFor(name: string, row: { company: unknown; contact: unknown }): unknown {
  if (/^(company|companyId|nameOrWebsite)$/.test(name)) return row.company;
  if (/^(personId|nameOrEmail)$/.test(name)) return row.contact;
  if (/fields?$/.test(name)) return name === "fields" ? [["name", "revenue"]] : "name";
  if (/topics?$/.test(name)) return "Cloud Security";
  if (name === "count" || name === "days") return 3;
  if (name === "product") return "Snowflake";
  if (name === "category") return "CRM";
  return "";
}

/** Requests to the routes that spend AI action credits (briefings and questions). */
const aiRoutes = (sandbox: TestSandbox) =>
  [...sandbox.ctx.stats.requests].filter(([route]) => /research|account-summary/.test(route)).reduce((n, [, c]) => n + c, 0);

describe("BIZ research functions", () => {
  let sandbox: TestSandbox;
  let runtime: Runtime;
  let rows: { id: number; website: string; name: string }[];
  const aiUsed = async () => (await runtime.client.usage()).aiActions?.used;

  before(async () => {
    sandbox = await startTestSandbox({ companies: 300, contacts: 600 });
    const environment = { ...SANDBOX_ENVIRONMENT, apiBaseUrl: sandbox.url, audiencesBaseUrl: sandbox.url };
    runtime = createRuntime({
      environment,
      tokenSource: (env) => devTokenSource(env),
      stores: () => ({}),
      researchStore: memoryKeyValueStorage(),
      jobStore: memoryKeyValueStorage(),
    });
    const wiring = cellFunctionsWiring(runtime, { supportsEntityCards: () => false });
    (fns.configureFunctions as (c: unknown) => void)(wiring.functions);
    (fns.configureJobStatus as (c: unknown) => void)(wiring.jobStatus);
    rows = sandbox.ctx.db.prepare("SELECT id, website, name FROM companies ORDER BY id LIMIT 4").all() as typeof rows;
  });
  after(async () => {
    (fns.configureFunctions as (c: unknown) => void)(undefined);
    (fns.configureJobStatus as (c: unknown) => void)(undefined);
    await runtime.engine.whenIdle();
    await runtime.research.whenIdle();
    await sandbox.close();
  });

  it("BIZ.LOOKALIKES spills id, name and score, ranked, and a recalculation sends nothing", async () => {
    sandbox.resetStats();
    const first = await cellOutcome(fns.lookalikes!(rows[0]!.id, 5, invocation()) as Promise<unknown>);
    const spilled = first.value as [number, string, number][];
    assert.equal(spilled.length, 5, JSON.stringify(first));
    for (const [id, name, score] of spilled) assert.ok(Number.isInteger(id) && typeof name === "string" && score >= 0 && score <= 1);
    assert.ok(
      spilled.every((r, i) => i === 0 || spilled[i - 1]![2] >= r[2]),
      "ranked by score",
    );
    assert.ok(!spilled.some((r) => r[0] === rows[0]!.id), "not the company itself");
    const asked = sandbox.ctx.stats.requests.size;
    sandbox.resetStats();
    assert.deepEqual(await cellOutcome(fns.lookalikes!(rows[0]!.id, 5, invocation()) as Promise<unknown>), first);
    assert.equal(aiRoutes(sandbox) + sandbox.ctx.stats.requests.size, 0, `recalculation sends nothing (the first asked ${asked} routes)`);
    const bad = await cellOutcome(fns.lookalikes!(rows[0]!.id, 500, invocation()) as Promise<unknown>);
    assert.equal(bad.error, "#VALUE!");
    assert.match(bad.message ?? "", /1 to 100/);
  });

  it("asks nothing while the formula is typed or when nobody is signed in, and names a company it cannot read", async () => {
    sandbox.resetStats();
    const preview = await cellOutcome(fns.lookalikes!(rows[2]!.id, 3, { ...invocation(), isInValuePreview: true }) as Promise<unknown>);
    assert.match(preview.message ?? "", /Press Enter/);
    const nonsense = await cellOutcome(fns.briefing!(-7) as Promise<unknown>);
    assert.equal(nonsense.error, "#VALUE!");
    assert.equal(sandbox.ctx.stats.requests.size, 0);
    const wiring = cellFunctionsWiring(runtime, { supportsEntityCards: () => false });
    (fns.configureFunctions as (c: unknown) => void)({ ...wiring.functions, isSignedIn: () => false });
    try {
      for (const cell of [fns.lookalikes!(rows[2]!.id, 3, invocation()), fns.briefing!(rows[2]!.id)])
        assert.match((await cellOutcome(cell as Promise<unknown>)).message ?? "", /Sign in from the task pane/);
    } finally {
      (fns.configureFunctions as (c: unknown) => void)(wiring.functions);
    }
  });

  it("no cell formula spends an AI action credit, before or after a briefing is fetched in the pane", async () => {
    const contactId = (sandbox.ctx.db.prepare("SELECT id FROM contacts ORDER BY id LIMIT 1").get() as { id: number }).id;
    const sheet = rows.flatMap((r) => [r.id, r.website, r.name].map((company) => ({ company, contact: contactId })));
    const evaluated = new Set<string>();
    const streams: ReturnType<typeof invocation>[] = [];
    const calculate = async () => {
      const cells: Promise<unknown>[] = [];
      for (const f of registered) {
        const fn = fns[functionName.get(f.id)!];
        assert.ok(fn, `${f.id} is exported`);
        for (const row of sheet) {
          const inv = invocation();
          const result = fn(...f.parameters.map((p) => argumentFor(p.name, row)), inv);
          if (f.options?.stream) streams.push(inv);
          else cells.push(cellOutcome(result as Promise<unknown>));
          evaluated.add(f.id);
        }
      }
      const outcomes = await Promise.all(cells);
      for (const s of streams.splice(0)) s.onCanceled?.();
      await runtime.engine.whenIdle();
      return outcomes;
    };
    const before = await aiUsed();
    assert.equal(typeof before, "number", "the sandbox tells the AI usage");
    sandbox.resetStats();
    await calculate();
    assert.ok(
      ["LOOKALIKES", "BRIEFING", "COMPANY", "INTENT"].every((id) => evaluated.has(id)),
      [...evaluated].join(","),
    );
    assert.equal(await aiUsed(), before, "no AI action credit spent by any cell");
    assert.equal(aiRoutes(sandbox), 0, "no research call that spends");
    assert.ok(sandbox.requests("GET /data/v1/lookalikes/companies") > 0, "BIZ.LOOKALIKES asked the service (free)");
    const none = await cellOutcome(fns.briefing!(rows[1]!.id) as Promise<unknown>);
    assert.equal(none.value, "No briefing yet: open Research in the pane");

    // The pane fetches a briefing: that spends one (so the count above would have seen a spend).
    await runtime.research.briefings([String(rows[1]!.id)]);
    assert.equal(await aiUsed(), before! + 1);
    const shown = await cellOutcome(fns.briefing!(rows[1]!.id) as Promise<unknown>);
    assert.match(String(shown.value), /\S/);
    assert.equal(shown.value, (await runtime.research.storedBriefing(String(rows[1]!.id)))!.markdown);
    assert.equal((await cellOutcome(fns.briefing!(rows[1]!.website) as Promise<unknown>)).value, shown.value, "by website, matched from the cache");

    sandbox.resetStats();
    await calculate();
    assert.equal(await aiUsed(), before! + 1, "a recalculation spends nothing");
  });
});
