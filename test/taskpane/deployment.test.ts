// The task pane's Sandbox presets follow what `npm start` serves: the dev server is given
// SANDBOX_URL and SANDBOX_BROKER_URL (a build replaces process.env.NAME with the text; here, in
// Node, they are the process's environment).
import assert from "node:assert/strict";
import { test } from "node:test";

test("the Sandbox presets name the sandbox and broker the dev server was started with", async () => {
  process.env.SANDBOX_URL = "https://localhost:4311";
  process.env.SANDBOX_BROKER_URL = "https://localhost:4321/";
  try {
    const { DEPLOYED_SANDBOX_ENVIRONMENT: sandbox, DEPLOYED_SANDBOX_PRODUCTION_ENVIRONMENT: production } = await import(
      `../../src/taskpane/deployment.js?ports=${Date.now()}`
    );
    assert.equal(sandbox.apiBaseUrl, "https://localhost:4311");
    assert.equal(sandbox.audiencesBaseUrl, "https://localhost:4311");
    assert.equal(sandbox.signIn.authority, "https://localhost:4311/oauth");
    assert.equal(production.apiBaseUrl, "https://localhost:4311/gtm");
    assert.equal(production.signIn.authorizeUrl, "https://localhost:4311/gtm/oauth/v1/authorize");
    assert.equal(production.signIn.tokenEndpoint, "https://localhost:4321/token");
  } finally {
    delete process.env.SANDBOX_URL;
    delete process.env.SANDBOX_BROKER_URL;
  }
});

test("without them, the defaults: localhost:4010 and the broker on :4020", async () => {
  const { DEPLOYED_SANDBOX_ENVIRONMENT: sandbox, DEPLOYED_SANDBOX_PRODUCTION_ENVIRONMENT: production } = await import(
    `../../src/taskpane/deployment.js?defaults=${Date.now()}`
  );
  assert.equal(sandbox.apiBaseUrl, "https://localhost:4010");
  assert.equal(production.signIn.tokenEndpoint, "https://localhost:4020/token");
});

test("a fresh pane starts on the preset of the profile `npm start` runs (SANDBOX_PROFILE)", async () => {
  process.env.SANDBOX_PROFILE = "production";
  process.env.SANDBOX_URL = "https://localhost:4311";
  process.env.SANDBOX_BROKER_URL = "https://localhost:4321";
  try {
    const { DEPLOYED_START_ENVIRONMENT: start } = await import(`../../src/taskpane/deployment.js?profile=${Date.now()}`);
    assert.equal(start.kind, "sandboxProduction");
    assert.equal(start.apiBaseUrl, "https://localhost:4311/gtm");
    assert.equal(start.signIn.tokenEndpoint, "https://localhost:4321/token");
  } finally {
    delete process.env.SANDBOX_PROFILE;
    delete process.env.SANDBOX_URL;
    delete process.env.SANDBOX_BROKER_URL;
  }
  const { DEPLOYED_START_ENVIRONMENT: plain } = await import(`../../src/taskpane/deployment.js?plain=${Date.now()}`);
  assert.equal(plain.kind, "sandbox");
});
