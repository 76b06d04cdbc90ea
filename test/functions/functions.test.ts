// The BIZ functions in Node with a fake CustomFunctions runtime and a scripted client.
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { createEnrichmentEngine } from "../../src/core/enrich/index.js";
import { FakeEnrichClient } from "../core/enrich/fakeClient.js";
import { FakeTimer, settle } from "../core/jobs/fakes.js";
import { cellOutcome, invocation, loadFunctions } from "./fakeCustomFunctions.js";
import { supportsEntityCards } from "../../src/office/hostCapabilities.js";

const fns = await loadFunctions();

/** A fake startup clock that tells when a cell starts its startup wait. */
function startupClock() {
  const timer = new FakeTimer();
  let started!: () => void;
  const waiting = new Promise<void>((resolve) => (started = resolve));
  const clock = {
    sleep: (ms: number, signal?: AbortSignal) => {
      started();
      return timer.sleep(ms, signal);
    },
  };
  return { clock, timer, waiting };
}

function configure(signedIn = true, cards: boolean | (() => boolean) = false) {
  const client = new FakeEnrichClient();
  const engine = createEnrichmentEngine({ client, windowMs: 2 });
  fns.configureFunctions({ engine, isSignedIn: () => signedIn, supportsEntityCards: typeof cards === "function" ? cards : () => cards });
  return client;
}

/** Runs `body` in a host whose office.js reports these requirement sets (highest version of each). */
async function inHost(sets: Record<string, string>, body: () => Promise<void>): Promise<void> {
  const global = globalThis as { Office?: unknown };
  const isSetSupported = (name: string, version: string) => sets[name] !== undefined && Number(version.split(".")[1]) <= Number(sets[name]!.split(".")[1]);
  global.Office = { context: { requirements: { isSetSupported } } };
  try {
    await body();
  } finally {
    delete global.Office;
  }
}

afterEach(() => fns.configureFunctions(undefined));

describe("BIZ functions", () => {
  it("COMPANY returns typed values", async () => {
    configure();
    assert.deepEqual(await cellOutcome(fns.company(12, "revenue", invocation())), { value: 120 });
    assert.deepEqual(await cellOutcome(fns.company("12", "certified", invocation())), { value: true });
    assert.deepEqual(await cellOutcome(fns.company(12, "name", invocation())), { value: "Company 12" });
  });

  it("COMPANYROW spills one row from a range, an array or comma text", async () => {
    configure();
    const expected = { value: [["Company 6", 60, "Germany"]] };
    assert.deepEqual(await cellOutcome(fns.companyRow(6, [["name", "revenue", "country"]], invocation())), expected);
    assert.deepEqual(await cellOutcome(fns.companyRow(6, [["name"], ["revenue"], ["country"]], invocation())), expected);
    assert.deepEqual(await cellOutcome(fns.companyRow(6, [["name, revenue,country"]], invocation())), expected);
  });

  it("CONTACT returns contact fields", async () => {
    configure();
    assert.deepEqual(await cellOutcome(fns.contact(3, "lastName", invocation())), { value: "Last3" });
  });

  it("COMPANYCARD is an entity where the host has data types, the name elsewhere", async () => {
    configure(true, true);
    const card = (await cellOutcome(fns.companyCardValue(8, invocation()))).value as any;
    assert.equal(card.type, "Entity");
    assert.equal(card.text, "Company 8");
    assert.deepEqual(card.properties["Revenue ($K)"], { type: "Double", basicValue: 80 });
    assert.deepEqual(card.properties["Certified"], { type: "Boolean", basicValue: true });
    assert.equal(card.layouts.card.title.property, "Company name");
    configure(true, false);
    assert.deepEqual(await cellOutcome(fns.companyCardValue(8, invocation())), { value: "Company 8" });
  });

  it("COMPANYCARD returns a card where the host has CustomFunctionsRuntime 1.4, the name on perpetual and volume-licensed Windows", async () => {
    configure(true, supportsEntityCards);
    // Microsoft 365 (Windows 2208+, Mac 16.64+, web): data types from custom functions.
    await inHost({ ExcelApi: "1.18", CustomFunctionsRuntime: "1.5", SharedRuntime: "1.1" }, async () => {
      const card = (await cellOutcome(fns.companyCardValue(8, invocation()))).value as { type?: string; provider?: unknown };
      assert.equal(card.type, "Entity");
      assert.deepEqual(card.provider, { description: "BizData" });
    });
    // Office 2021/2024 perpetual or volume-licensed Windows: ExcelApi 1.16 cards in the grid, but
    // custom functions stop at CustomFunctionsRuntime 1.3, so the cell gets plain text.
    await inHost({ ExcelApi: "1.16", CustomFunctionsRuntime: "1.3", SharedRuntime: "1.1" }, async () => {
      assert.deepEqual(await cellOutcome(fns.companyCardValue(8, invocation())), { value: "Company 8" });
    });
    assert.deepEqual(await cellOutcome(fns.companyCardValue(8, invocation())), { value: "Company 8" }, "outside Office");
  });

  it("reads a company card passed back as an argument by its company id, another data type by its name", async () => {
    configure(true, true);
    const card = (await cellOutcome(fns.companyCardValue(8, invocation()))).value;
    const client = configure(); // a fresh cache: every lookup below is a request

    assert.deepEqual(await cellOutcome(fns.company(card, "revenue", invocation())), { value: 80 });
    assert.deepEqual(await cellOutcome(fns.companyRow(card, [["name", "country"]], invocation())), { value: [["Company 8", "United States"]] });
    assert.deepEqual(await cellOutcome(fns.matchCompany(card, null, null, invocation())), { value: 8 });
    assert.deepEqual(new Set(client.calls.flatMap((call) => call.ids)), new Set([8]), "requests for id 8, no match on the card's name");
    client.behaviour = (_kind, id) => (id === 0 ? { status: "NO_MATCH", outcome: "noMatch" } : undefined);
    const stocks = { type: "LinkedEntity", text: "Contoso Ltd", provider: { description: "Stocks" } };
    const outcome = await cellOutcome(fns.company(stocks, "revenue", invocation()));
    assert.equal(outcome.error, "#N/A");
    assert.match(outcome.message!, /^Looked up "Contoso Ltd" by the name of its Stocks data type\. /);
    const nameless = await cellOutcome(fns.intent({ type: "Entity", text: "" }, "Cloud Security", invocation()));
    assert.deepEqual(nameless, { error: "#VALUE!", message: "This data type has no name to look up: give the company's id, website or name" });
  });

  it("asks to sign in, without a request, when nobody is signed in or nothing is configured", async () => {
    const client = configure(false);
    assert.deepEqual(await cellOutcome(fns.company(1, "name", invocation())), { error: "#N/A", message: "Sign in from the task pane" });
    fns.configureFunctions(undefined);
    assert.deepEqual(await cellOutcome(fns.contact(1, "email", invocation())), { error: "#N/A", message: "Sign in from the task pane" });
    assert.equal(client.calls.length, 0);
  });

  it("lets cells calculated as the workbook opens wait for the runtime to configure the functions", async () => {
    // A fresh copy of the module: never configured yet.
    const fresh = (await import(`../../src/functions/functions.js?startup=${Date.now()}`)) as typeof fns;
    const { clock, waiting } = startupClock();
    fresh.setStartupClock(clock);
    const pending = cellOutcome(fresh.company(9, "name", invocation()));
    await waiting;
    fresh.configureFunctions({ engine: createEnrichmentEngine({ client: new FakeEnrichClient(), windowMs: 2 }), isSignedIn: () => true });
    assert.deepEqual(await pending, { value: "Company 9" });
  });

  it("asks to sign in when the runtime has not configured the functions by the end of the startup wait", async () => {
    const fresh = (await import(`../../src/functions/functions.js?startup=late-${Date.now()}`)) as typeof fns;
    const { clock, timer, waiting } = startupClock();
    fresh.setStartupClock(clock);
    const pending = cellOutcome(fresh.company(9, "name", invocation()));
    await waiting;
    await timer.advance(4_999);
    let settled = false;
    void pending.then(() => (settled = true));
    await settle();
    assert.equal(settled, false, "still waiting just before the end of the startup wait");
    await timer.advance(1);
    assert.deepEqual(await pending, { error: "#N/A", message: "Sign in from the task pane" });
  });

  it("waits for a sign-in check that is still restoring", async () => {
    const client = new FakeEnrichClient();
    const engine = createEnrichmentEngine({ client, windowMs: 2 });
    fns.configureFunctions({ engine, isSignedIn: () => new Promise((resolve) => setImmediate(() => resolve(true))) });
    assert.deepEqual(await cellOutcome(fns.company(5, "name", invocation())), { value: "Company 5" });
  });

  it("maps problems to #VALUE! and #N/A with their messages", async () => {
    const client = configure();
    client.behaviour = (_k, id) => (id === 404 ? { status: "NO_MATCH", outcome: "noMatch" } : undefined);
    assert.deepEqual(await cellOutcome(fns.company(1.5, "name", invocation())), {
      error: "#VALUE!",
      message: "Company id must be a whole number",
    });
    const unknown = await cellOutcome(fns.companyRow(1, [["name", "size"]], invocation()));
    assert.equal(unknown.error, "#VALUE!");
    assert.match(unknown.message!, /Unknown company field "size"\. Valid fields: .*employeeRange/);
    assert.deepEqual(await cellOutcome(fns.company(404, "name", invocation())), { error: "#N/A", message: "No company with id 404" });
  });

  it("COMPANY and CONTACT take one field and point to COMPANYROW for several", async () => {
    const client = configure();
    assert.deepEqual(await cellOutcome(fns.company(1, "name,revenue", invocation())), {
      error: "#VALUE!",
      message: "Name one field here; for several use BIZ.COMPANYROW",
    });
    assert.equal((await cellOutcome(fns.contact(1, "firstName, lastName", invocation()))).error, "#VALUE!");
    assert.equal(client.calls.length, 0);
  });

  it("makes no request in value preview", async () => {
    const client = configure();
    const outcome = await cellOutcome(fns.company(77, "name", invocation(true)));
    assert.equal(outcome.error, "#N/A");
    assert.equal(client.calls.length, 0);
  });
});
