import assert from "node:assert/strict";
import { test } from "node:test";
import {
  environmentProblems,
  PRODUCTION_ENVIRONMENT,
  requestAddresses,
  SANDBOX_ENVIRONMENT,
  SANDBOX_PRODUCTION_ENVIRONMENT,
  startEnvironment,
} from "../../../src/core/settings/environment.js";
import { isEnvironmentSettings } from "../../../src/core/settings/environmentSchema.js";
import { createUserSettingsStore, DEFAULT_USER_SETTINGS, USER_SETTINGS_KEY } from "../../../src/core/settings/userSettings.js";

function memory() {
  const map = new Map<string, string>();
  return { map, storage: { getItem: async (k: string) => map.get(k) ?? null, setItem: async (k: string, v: string) => void map.set(k, v) } };
}

test("three environments: the sandbox, its production profile and production; the production ones discover nothing and ask no scope", () => {
  for (const env of [SANDBOX_ENVIRONMENT, SANDBOX_PRODUCTION_ENVIRONMENT, PRODUCTION_ENVIRONMENT]) assert.ok(isEnvironmentSettings(env), env.label);
  for (const env of [SANDBOX_PRODUCTION_ENVIRONMENT, PRODUCTION_ENVIRONMENT]) {
    assert.equal(env.profile, "production");
    assert.equal(env.signIn.flow, "oauth");
    assert.deepEqual(env.signIn.scopes, []);
    assert.match(env.signIn.authorizeUrl ?? "", /\/gtm\/oauth\/v1\/authorize$/);
    assert.match(env.signIn.tokenEndpoint ?? "", /\/token$/);
    assert.match(env.audiencesBaseUrl, /\/gtm\/studio$/);
  }
  assert.equal(SANDBOX_ENVIRONMENT.signIn.flow, "oidc");
});

test("production needs a client id and the broker's token address; a relay carries the same paths", () => {
  assert.deepEqual(environmentProblems(PRODUCTION_ENVIRONMENT), ["Client id is required to sign in."]);
  const { tokenEndpoint: _none, ...noBroker } = PRODUCTION_ENVIRONMENT.signIn;
  assert.ok(environmentProblems({ ...PRODUCTION_ENVIRONMENT, signIn: { ...noBroker, clientId: "app" } }).some((p) => /token broker/.test(p)));
  const relayed = { ...PRODUCTION_ENVIRONMENT, relayUrl: "https://broker.example.org/" };
  assert.deepEqual(requestAddresses(relayed), { data: "https://broker.example.org", audiences: "https://broker.example.org/studio" });
  assert.deepEqual(requestAddresses(SANDBOX_ENVIRONMENT), { data: SANDBOX_ENVIRONMENT.apiBaseUrl, audiences: SANDBOX_ENVIRONMENT.audiencesBaseUrl });
});

test("the stored shape is checked: a damaged or foreign value falls back to the sandbox, a good one reads back", async () => {
  const { map, storage } = memory();
  const store = createUserSettingsStore(storage);
  map.set(USER_SETTINGS_KEY, JSON.stringify({ environment: { ...SANDBOX_PRODUCTION_ENVIRONMENT, signIn: { clientId: 5 } } }));
  assert.deepEqual(await store.load(), DEFAULT_USER_SETTINGS);
  map.set(USER_SETTINGS_KEY, JSON.stringify({ environment: { ...SANDBOX_ENVIRONMENT, token: "secret" } }));
  assert.deepEqual(await store.load(), DEFAULT_USER_SETTINGS, "no unknown members are kept");
  const mine = { ...PRODUCTION_ENVIRONMENT, signIn: { ...PRODUCTION_ENVIRONMENT.signIn, clientId: "app-1" } };
  assert.deepEqual(await store.save({ environment: mine }), []);
  assert.deepEqual(await store.load(), { environment: mine });
  assert.deepEqual(await store.save({ environment: SANDBOX_PRODUCTION_ENVIRONMENT }), []);
});

test("a fresh pane's environment follows the profile that runs: the production profile's preset behind the local broker, else the Sandbox", () => {
  const production = startEnvironment({ profile: "production", sandboxUrl: "https://localhost:4311/", brokerUrl: "https://localhost:4321" });
  assert.equal(production.kind, "sandboxProduction");
  assert.equal(production.signIn.authorizeUrl, "https://localhost:4311/gtm/oauth/v1/authorize");
  assert.equal(production.signIn.tokenEndpoint, "https://localhost:4321/token");
  assert.deepEqual(startEnvironment({ profile: "production" }), SANDBOX_PRODUCTION_ENVIRONMENT, "the default ports when none are given");
  assert.deepEqual(startEnvironment({ profile: "", sandboxUrl: "" }), SANDBOX_ENVIRONMENT);
  assert.equal(startEnvironment({ sandboxUrl: "https://localhost:4311" }).apiBaseUrl, "https://localhost:4311");
});
