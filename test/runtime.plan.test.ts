// The runtime reads the signed-in user's plan at sign-in, keeps it in the user's settings storage
// under that user's key (never a token), and its cells refuse what the plan lacks without a request.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ROLES } from "../src/core/contract/index.js";
import { SANDBOX_ENVIRONMENT } from "../src/core/settings/environment.js";
import { memoryKeyValueStorage } from "../src/core/storage/keyValue.js";
import { cellFunctionsWiring, createRuntime, devTokenSource } from "../src/runtime.js";
import { cellOutcome, invocation, loadFunctions } from "./functions/fakeCustomFunctions.js";
import { startTestSandbox, type TestSandbox } from "./helpers/sandbox.js";

const fns = await loadFunctions();

const BASIC = [ROLES.dataApi, ROLES.scoops, ROLES.news, ROLES.technologies, ROLES.audiences, ROLES.bulkCredits, ROLES.aiCredits];

/** The sandbox's development token for the basic plan (the token request asks for its roles). */
const basicTokens: typeof fetch = (url, init) => fetch(url, { ...init, body: JSON.stringify({ roles: BASIC }) });

describe("the runtime and the plan", () => {
  let sandbox: TestSandbox;
  before(async () => {
    sandbox = await startTestSandbox({ companies: 50, contacts: 50 });
  });
  after(async () => {
    fns.configureFunctions(undefined);
    await sandbox.close();
  });

  it("reads the plan at sign-in, keeps it per user without a token, and a refused cell sends nothing", async () => {
    const environment = { ...SANDBOX_ENVIRONMENT, apiBaseUrl: sandbox.url, audiencesBaseUrl: sandbox.url };
    const planStore = memoryKeyValueStorage();
    const runtime = createRuntime({ environment, tokenSource: (env) => devTokenSource(env, basicTokens), planStore, researchStore: memoryKeyValueStorage() });
    const read = new Promise<void>((resolve) => runtime.plan.subscribe(() => runtime.plan.current() && resolve()));
    await runtime.tokens.signIn();
    await read;
    assert.equal(runtime.plan.allows("intent").allowed, false);
    assert.equal(runtime.plan.allows("scoops").allowed, true);
    const stored = await planStore.getKeys();
    assert.equal(stored.length, 1);
    const token = await runtime.tokens.getAccessToken();
    assert.ok(!(await planStore.getItem(stored[0]!))!.includes(token), "no token in the stored plan");

    fns.configureFunctions(cellFunctionsWiring(runtime, { supportsEntityCards: () => false }).functions);
    sandbox.resetStats();
    const intent = await cellOutcome(fns.intent(1, "Cloud Security", invocation()));
    assert.deepEqual(intent, { error: "#N/A", message: "Intent signals are not in your account's plan. Ask your administrator to add them" });
    assert.equal(sandbox.ctx.stats.requests.size, 0, "nothing sent");
  });
});
