// The composition root's wiring, through the runtime's public interface and the real sandbox
// over HTTP: per-user persistent enrichment stores, the cell functions' configuration, the
// sign-out after a refused sign-in, records under management, and the client's settings.
import { memoryKeyValueStorage } from "../src/core/storage/keyValue.js";
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createServiceClient, fetchTransport, UnauthorizedError, type Transport } from "../src/core/api/index.js";
import type { AccountChangeReason, AccountInfo, TokenSource } from "../src/auth/index.js";
import { SANDBOX_ENVIRONMENT, type EnvironmentSettings } from "../src/core/settings/environment.js";
import { columnsFor } from "../src/core/sheet/index.js";
import { BrowserWorkbook } from "../src/office/browserWorkbook.js";
import { supportsEntityCards } from "../src/office/hostCapabilities.js";
import { createStorageCacheStore, createStorageSpendStore } from "../src/office/persistentCache.js";
import { cellFunctionsWiring, createRuntime, devTokenSource, enrichmentUserKey, lazyTokenSource, type Runtime } from "../src/runtime.js";
import { insertSearch } from "../src/taskpane/insert/insertSearch.js";
import { markUnderManagement, underManagementIds } from "../src/taskpane/search/underManagement.js";
import { FakeCustomFunctionsError, cellOutcome, installFakeCustomFunctions, invocation } from "./functions/fakeCustomFunctions.js";
import { startTestSandbox, type TestSandbox } from "./helpers/sandbox.js";

installFakeCustomFunctions();
const fns = await import("../src/functions/functions.js");

const ENRICH = "POST /data/v1/companies/enrich";

/** OfficeRuntime.storage in memory (the port's own memory adapter), with its map to look into. */
function memoryStorage() {
  const items = new Map<string, string>();
  return Object.assign(memoryKeyValueStorage(items), { items });
}

/** A token source whose token the service never accepts, as after a revoked sign-in. */
function refusedTokenSource() {
  let account: AccountInfo | null = { name: "Ana", username: "ana@example.com" };
  const reasons: (AccountChangeReason | undefined)[] = [];
  const listeners = new Set<(a: AccountInfo | null, r?: AccountChangeReason) => void>();
  let forcedRefreshes = 0;
  const source: TokenSource = {
    getAccessToken: async (request) => {
      if (!account) throw new UnauthorizedError("unauthorized", { userMessage: "Sign in to continue." });
      if (request?.forceRefresh) forcedRefreshes++;
      return "revoked-token";
    },
    signIn: async () => {
      account = { name: "Ana", username: "ana@example.com" };
      return account;
    },
    signOut: async (options) => {
      account = null;
      const reason = options?.reason ?? "signedOut";
      reasons.push(reason);
      listeners.forEach((l) => l(null, reason));
    },
    account: () => account,
    onChange: (l) => (listeners.add(l), () => listeners.delete(l)),
  };
  const switchTo = (username: string) => (account = { name: username, username });
  return { source, reasons, switchTo, forcedRefreshes: () => forcedRefreshes };
}

/** What a streaming cell shows, in order; `shows(value)` resolves when the cell shows it. */
function streamingCell() {
  const results: unknown[] = [];
  const watchers: { value: unknown; resolve: () => void }[] = [];
  return {
    results,
    onCanceled: undefined as (() => void) | undefined,
    setResult: (value: unknown) => {
      const shown = value instanceof FakeCustomFunctionsError ? `${value.code} ${value.message}` : value;
      results.push(shown);
      for (const watcher of watchers.filter((w) => w.value === shown)) watcher.resolve();
    },
    shows: (value: unknown) => (results.includes(value) ? Promise.resolve() : new Promise<void>((resolve) => watchers.push({ value, resolve }))),
  };
}

describe("runtime wiring against the sandbox", () => {
  let sandbox: TestSandbox;
  let environment: EnvironmentSettings;
  let companyIds: number[];
  const runtimes: Runtime[] = [];

  before(async () => {
    sandbox = await startTestSandbox({ companies: 300, contacts: 300, jobRowsPerSecond: 5000 });
    environment = { ...SANDBOX_ENVIRONMENT, apiBaseUrl: sandbox.url, audiencesBaseUrl: sandbox.url };
    const probe = createRuntime({ environment, tokenSource: (env) => devTokenSource(env) });
    companyIds = (await probe.client.searchCompanies({}, { size: 20 })).items.map((item) => Number(item.id));
  });
  after(async () => {
    for (const runtime of runtimes) await runtime.engine.whenIdle();
    fns.configureFunctions(undefined);
    fns.configureJobStatus(undefined);
    await sandbox.close();
  });

  it("keeps each user's daily record count under a key of that user (never a token) and across runtimes", async () => {
    const storage = memoryStorage();
    const keys: string[] = [];
    const stores = (userKey: string) => {
      keys.push(userKey);
      return { cache: createStorageCacheStore(storage), spendStore: createStorageSpendStore(storage, userKey) };
    };
    const runtime = createRuntime({ environment, tokenSource: (env) => devTokenSource(env), stores });
    runtimes.push(runtime);
    const id = companyIds[0]!;
    const first = await runtime.engine.getCells("company", id, "name");
    assert.equal(first.ok, true);
    await runtime.engine.whenIdle();
    assert.equal((await runtime.engine.spendStatus()).used, 1);

    const userKey = enrichmentUserKey(environment, { name: "Sandbox user", username: "sandbox" });
    assert.deepEqual(keys, [userKey]);
    assert.ok(!userKey.includes("sandbox"), "the key does not spell out the user name");
    const token = await runtime.tokens.getAccessToken();
    for (const [key, value] of storage.items) {
      assert.ok(!key.includes(token) && !value.includes(token), "no token is stored");
    }
    assert.ok(storage.items.has(`biz-enrich-spend:${userKey}`));

    // Signed out, the count of nobody in particular; signed in again, the user's own count.
    await runtime.tokens.signOut();
    assert.equal((await runtime.engine.spendStatus()).used, 0);
    await runtime.tokens.signIn();
    assert.equal((await runtime.engine.spendStatus()).used, 1);
    assert.deepEqual(keys, [userKey, enrichmentUserKey(environment, null), userKey]);

    // A new page: the stored cache answers and the day's count is still there.
    sandbox.resetStats();
    const next = createRuntime({ environment, tokenSource: (env) => devTokenSource(env), stores });
    runtimes.push(next);
    assert.equal((await next.engine.spendStatus()).used, 1);
    const again = await next.engine.getCells("company", id, "name");
    assert.deepEqual(again, first);
    assert.equal(sandbox.requests(ENRICH), 0);
  });

  it("gives the cell functions a sign-in check that waits for a stored sign-in, the host's card support and the job poller", async () => {
    let loaded!: () => void;
    const gate = new Promise<void>((resolve) => (loaded = resolve));
    // The sign-in library loads after start-up; until then no account is known.
    const runtime = createRuntime({ environment, tokenSource: (env) => lazyTokenSource(() => gate.then(() => devTokenSource(env))) });
    runtimes.push(runtime);
    let cards = false;
    const wiring = cellFunctionsWiring(runtime, { supportsEntityCards: () => cards });
    fns.configureFunctions(wiring.functions);
    fns.configureJobStatus(wiring.jobStatus);

    const id = companyIds[1]!;
    const expectedName = sandbox.ctx.records.companyAttributes([id], ["name"]).get(id)?.name;
    assert.equal(runtime.tokens.account(), null);
    const pending = cellOutcome(fns.company(id, "name", invocation()));
    loaded();
    assert.deepEqual(await pending, { value: expectedName }, "the cell waited for the sign-in instead of asking to sign in");

    assert.equal((await cellOutcome(fns.companyCardValue(id, invocation()))).value, expectedName);
    cards = true;
    const card = (await cellOutcome(fns.companyCardValue(id, invocation()))).value as { type?: string; text?: string };
    assert.equal(card.type, "Entity");
    assert.equal(card.text, expectedName);

    const created = (await (
      await fetch(`${sandbox.url}/__sandbox/audiences`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "Wired", type: "COMPANY", recordIds: companyIds.slice(0, 5) }),
      })
    ).json()) as { data: { id: string } };
    const jobId = await runtime.client.startAudienceEnrichment(created.data.id, { scope: "AUDIENCE" });
    assert.ok(jobId);
    const cell = streamingCell();
    fns.jobStatus(created.data.id, jobId, cell as unknown as CustomFunctions.StreamingInvocation<string>);
    await cell.shows("SUCCEEDED");

    await runtime.tokens.signOut();
    assert.equal(await runtime.isSignedIn(), false);
    const signedOut = await cellOutcome(fns.company(id, "name", invocation()));
    assert.equal(signedOut.error, "#N/A");
  });

  it("signs the user out with reason 'expired' when the service refuses the sign-in after the client's refresh", async () => {
    const refused = refusedTokenSource();
    const runtime = createRuntime({ environment, tokenSource: () => refused.source });
    runtimes.push(runtime);
    await assert.rejects(runtime.client.searchCompanies({}), (e: { kind?: string }) => e.kind === "unauthorized");
    assert.ok(refused.forcedRefreshes() >= 1, "the client refreshed the token once first");
    assert.deepEqual(refused.reasons, ["expired"]);
    assert.equal(runtime.tokens.account(), null);

    // Signed out already: a call that finds no token does not sign out again.
    await assert.rejects(runtime.client.searchCompanies({}), (e: { kind?: string }) => e.kind === "unauthorized");
    assert.deepEqual(refused.reasons, ["expired"]);

    // An insert (paged search) and a jobs call reach the same rule.
    await runtime.tokens.signIn();
    const pages = runtime.client.iterateCompanies({}, { pageSize: 10 });
    await assert.rejects(
      async () => {
        for await (const page of pages) assert.ok(page);
      },
      (e: { kind?: string }) => e.kind === "unauthorized",
    );
    await runtime.tokens.signIn();
    await assert.rejects(runtime.client.getJob("3f2b1c9e-1234-4abc-9def-0123456789ab", "j"), (e: { kind?: string }) => e.kind === "unauthorized");
    assert.deepEqual(refused.reasons, ["expired", "expired", "expired"]);

    // Someone else signed in while the refused request was out: their session stays.
    await runtime.tokens.signIn();
    const stale = runtime.client.searchCompanies({});
    refused.switchTo("bo@example.com");
    await assert.rejects(stale, (e: { kind?: string }) => e.kind === "unauthorized");
    assert.equal(refused.reasons.length, 3);
    assert.equal(runtime.tokens.account()?.username, "bo@example.com");
  });

  it("the sandbox's development sign-in tells its listeners the sign-in expired", async () => {
    const runtime = createRuntime({ environment, tokenSource: (env) => devTokenSource(env) });
    const reasons: (AccountChangeReason | undefined)[] = [];
    runtime.tokens.onChange((_account, reason) => reasons.push(reason));
    await runtime.tokens.signOut({ reason: "expired" });
    assert.deepEqual(reasons, ["expired"]);
  });

  it("records an insert shows as under management are free in the engine's plan", async () => {
    const managed = companyIds.slice(10, 14);
    const token = await sandbox.token();
    const plain = createServiceClient({ baseUrl: sandbox.url, getAccessToken: async () => token });
    await plain.enrichCompanies(
      managed.map((id) => ({ companyId: id })),
      ["name"],
    );

    const runtime = createRuntime({ environment, tokenSource: (env) => devTokenSource(env), stores: () => ({}) });
    runtimes.push(runtime);
    const before = await runtime.engine.planInputs("company", managed, ["website"]);
    assert.equal(before.underManagementCount, 0);
    assert.equal(before.maxCredits, managed.length);

    const outcome = await insertSearch({
      client: runtime.client,
      workbook: new BrowserWorkbook(),
      search: { kind: "company", filters: { underManagement: true } },
      columns: columnsFor("company", ["id", "name"]),
      target: { kind: "newSheet", sheetName: "Managed" },
      tableName: "Managed",
      onItems: (items) => markUnderManagement(runtime.engine, "company", items),
    });
    assert.equal(outcome.status, "complete", outcome.message);
    assert.ok(outcome.rowsWritten >= managed.length);

    const afterInsert = await runtime.engine.planInputs("company", managed, ["website"]);
    assert.equal(afterInsert.underManagementCount, managed.length);
    assert.equal(afterInsert.maxCredits, 0);
  });

  it("matching by website and enriching by id count in one daily allowance per user", async () => {
    const runtime = createRuntime({ environment, tokenSource: (env) => devTokenSource(env), stores: () => ({}) });
    runtimes.push(runtime);
    const found = (await runtime.client.searchCompanies({}, { size: 20 })).items.slice(16, 19);
    const websites = found.map((item) => String((item.attributes as { website?: unknown }).website ?? ""));
    assert.ok(
      websites.every((w) => w !== ""),
      "the sandbox's companies have websites",
    );
    const matched = await runtime.engine.enrichInputs(
      "company",
      websites.map((website) => ({ kind: "company" as const, criteria: { website } })),
      ["name"],
    );
    assert.deepEqual(
      matched.map((r) => r.id ?? (r.result.ok ? "" : r.result.problem.message)),
      found.map((item) => Number(item.id)),
    );
    assert.equal((await runtime.engine.spendStatus()).used, found.length, "each new record matched counts");
    const enriched = await runtime.engine.enrichIds(
      "company",
      found.map((item) => Number(item.id)),
      ["name", "website"],
    );
    assert.ok([...enriched.values()].every((r) => r.ok));
    assert.equal((await runtime.engine.spendStatus()).used, found.length, "enriching them by id afterwards counts nothing more");
  });

  it("outside the sandbox the client probes the allowance with one request first, and asks the audience address", async () => {
    const token = await sandbox.token();
    const custom: EnvironmentSettings = { ...environment, kind: "custom", label: "Custom", audiencesBaseUrl: `${sandbox.url}/studio` };
    const urls: string[] = [];
    let inFlight = 0;
    let mostBeforeFirstAnswer = 0;
    let answered = false;
    const fetching = fetchTransport();
    const transport: Transport = async (url, init) => {
      urls.push(url);
      inFlight++;
      if (!answered) mostBeforeFirstAnswer = Math.max(mostBeforeFirstAnswer, inFlight);
      try {
        return await fetching(url, init);
      } finally {
        inFlight--;
        answered = true;
      }
    };
    const staticToken: TokenSource = {
      getAccessToken: async () => token,
      signIn: async () => ({ name: "Ana", username: "ana" }),
      signOut: async () => undefined,
      account: () => ({ name: "Ana", username: "ana" }),
      onChange: () => () => undefined,
    };
    const runtime = createRuntime({ environment: custom, tokenSource: () => staticToken, transport, requestsPerSecond: 100_000 });
    const pages = await Promise.all([1, 2, 3, 4].map((page) => runtime.client.searchCompanies({}, { size: 5, page })));
    assert.deepEqual(
      pages.map((p) => p.pageNumber),
      [1, 2, 3, 4],
    );
    assert.equal(mostBeforeFirstAnswer, 1, "one request alone until the service's first answer");

    await runtime.client.listAudiences().then(
      () => undefined,
      (error: { kind?: string }) => assert.notEqual(error.kind, "unauthorized"),
    );
    assert.ok(
      urls.some((url) => url.startsWith(`${sandbox.url}/studio/v1/`)),
      `audience calls go to the audience address: ${urls.join(" ")}`,
    );
  });
});

describe("wiring helpers without a service", () => {
  it("a runtime says signed in only once a stored sign-in is restored, and signed out when there is none", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const account = { name: "Ana", username: "ana@example.com" };
    const restoredSource = (signedIn: boolean): TokenSource => ({
      getAccessToken: async () => {
        if (!signedIn) throw new UnauthorizedError("unauthorized", { userMessage: "Sign in." });
        return "t";
      },
      signIn: async () => account,
      signOut: async () => undefined,
      account: () => (signedIn ? account : null),
      onChange: () => () => undefined,
    });
    const restoring = createRuntime({
      environment: SANDBOX_ENVIRONMENT,
      tokenSource: () => lazyTokenSource(() => gate.then(() => restoredSource(true))),
      stores: () => ({}),
    });
    const none = createRuntime({
      environment: SANDBOX_ENVIRONMENT,
      tokenSource: () => lazyTokenSource(() => gate.then(() => restoredSource(false))),
      stores: () => ({}),
    });
    assert.equal(restoring.tokens.account(), null);
    const answers = Promise.all([restoring.isSignedIn(), none.isSignedIn()]);
    release();
    assert.deepEqual(await answers, [true, false]);
  });

  it("the user key differs by user and by environment and is stable", () => {
    const ana = { name: "Ana", username: "ana@example.com" };
    const bo = { name: "Bo", username: "bo@example.com" };
    const other = { ...SANDBOX_ENVIRONMENT, apiBaseUrl: "https://other.example.com" };
    assert.equal(enrichmentUserKey(SANDBOX_ENVIRONMENT, ana), enrichmentUserKey(SANDBOX_ENVIRONMENT, { ...ana, username: "ANA@example.com" }));
    assert.notEqual(enrichmentUserKey(SANDBOX_ENVIRONMENT, ana), enrichmentUserKey(SANDBOX_ENVIRONMENT, bo));
    assert.notEqual(enrichmentUserKey(SANDBOX_ENVIRONMENT, ana), enrichmentUserKey(other, ana));
    assert.notEqual(enrichmentUserKey(SANDBOX_ENVIRONMENT, null), enrichmentUserKey(SANDBOX_ENVIRONMENT, ana));
  });

  it("picks the ids under management from results, whole numbers only", () => {
    const items = [
      { id: "7", type: "Company" as const, attributes: { managementStatus: { underManagement: true } } },
      { id: "8", type: "Company" as const, attributes: { managementStatus: { underManagement: false } } },
      { id: "9", type: "Company" as const, attributes: {} },
      { id: "x", type: "Company" as const, attributes: { managementStatus: { underManagement: true } } },
    ];
    assert.deepEqual(underManagementIds(items), [7]);
    const marked: number[][] = [];
    markUnderManagement({ markUnderManagement: (_kind, ids) => marked.push([...ids]) }, "company", items.slice(1, 3));
    assert.deepEqual(marked, [], "nothing to mark, no call");
  });

  it("asks the host whether custom functions return data-type cards (CustomFunctionsRuntime 1.4, ExcelApi 1.16), false outside Office", () => {
    const global = globalThis as { Office?: unknown };
    assert.equal(supportsEntityCards(), false);
    const asked: string[] = [];
    try {
      for (const supported of [true, false]) {
        global.Office = { context: { requirements: { isSetSupported: (name: string, version: string) => (asked.push(`${name} ${version}`), supported) } } };
        assert.equal(supportsEntityCards(), supported);
      }
    } finally {
      delete global.Office;
    }
    assert.deepEqual(asked, ["CustomFunctionsRuntime 1.4", "ExcelApi 1.16", "CustomFunctionsRuntime 1.4"]);
  });
});
