import { test } from "node:test";
import assert from "node:assert/strict";
import { createRuntime, devTokenSource } from "../../src/runtime.js";
import { PRODUCTION_ENVIRONMENT, SANDBOX_ENVIRONMENT } from "../../src/core/settings/environment.js";
import { createUserSettingsStore, DEFAULT_USER_SETTINGS } from "../../src/core/settings/userSettings.js";
import { startTestSandbox } from "../helpers/sandbox.js";

test("the development token source works only with the sandbox", () => {
  assert.throws(() => devTokenSource(PRODUCTION_ENVIRONMENT));
});

test("the runtime searches the real sandbox with development tokens, one token request for many calls", async () => {
  const sandbox = await startTestSandbox({ companies: 200, contacts: 200 });
  try {
    const environment = { ...SANDBOX_ENVIRONMENT, apiBaseUrl: sandbox.url, audiencesBaseUrl: sandbox.url };
    let tokenCalls = 0;
    const counting: typeof fetch = async (input, init) => {
      if (String(input).endsWith("/__sandbox/token")) tokenCalls++;
      return fetch(input, init);
    };
    const runtime = createRuntime({ environment, tokenSource: (env) => devTokenSource(env, counting) });
    const [a, b] = await Promise.all([runtime.client.searchCompanies({}, { size: 5 }), runtime.client.searchCompanies({}, { size: 5, page: 2 })]);
    assert.equal(a.items.length, 5);
    assert.equal(b.pageNumber, 2);
    assert.equal(tokenCalls, 1);
    assert.equal(runtime.tokens.account()?.username, "sandbox");
    await runtime.tokens.signOut();
    assert.equal(runtime.tokens.account(), null);
    await assert.rejects(runtime.client.searchCompanies({}), (e: any) => e.kind === "unauthorized");
  } finally {
    await sandbox.close();
  }
});

test("user settings: checked before saving, unreadable ones fall back to the sandbox", async () => {
  const map = new Map<string, string>();
  const store = createUserSettingsStore({ getItem: async (k) => map.get(k) ?? null, setItem: async (k, v) => void map.set(k, v) });
  assert.deepEqual(await store.load(), DEFAULT_USER_SETTINGS);
  const bad = { environment: { ...PRODUCTION_ENVIRONMENT, kind: "custom" as const, apiBaseUrl: "http://insecure" } };
  const problems = await store.save(bad);
  assert.ok(problems.some((p) => /https/.test(p)));
  assert.equal(map.size, 0);
  const good = { environment: { ...PRODUCTION_ENVIRONMENT, signIn: { ...PRODUCTION_ENVIRONMENT.signIn, clientId: "abc" } } };
  assert.deepEqual(await store.save(good), []);
  assert.deepEqual(await store.load(), good);
  map.set("bizdata.userSettings", "{broken");
  assert.deepEqual(await store.load(), DEFAULT_USER_SETTINGS);
});

test("a lazily loaded token source waits for its implementation and passes its events on", async () => {
  const { lazyTokenSource } = await import("../../src/runtime.js");
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const listeners: ((a: { name: string; username: string } | null, reason?: any) => void)[] = [];
  const account = { name: "Ana", username: "ana@example.com" };
  let signedIn = false;
  const source = lazyTokenSource(async () => {
    await gate;
    return {
      getAccessToken: async () => "t-1",
      signIn: async () => ((signedIn = true), listeners.forEach((l) => l(account, "signedIn")), account),
      signOut: async () => undefined,
      account: () => (signedIn ? account : null),
      onChange: (l) => (listeners.push(l), () => undefined),
    };
  });
  const seen: (string | null)[] = [];
  source.onChange((a) => seen.push(a?.username ?? null));
  assert.equal(source.account(), null);
  const token = source.getAccessToken();
  release();
  assert.equal(await token, "t-1");
  await source.signIn();
  assert.deepEqual(seen, ["ana@example.com"]);
  assert.equal(source.account()?.name, "Ana");
});

test("a token source that fails to load reports it on use", async () => {
  const { lazyTokenSource } = await import("../../src/runtime.js");
  const source = lazyTokenSource(() => Promise.reject(new Error("chunk failed")));
  await assert.rejects(source.getAccessToken(), /chunk failed/);
  assert.equal(source.account(), null);
});
