// The Production preset from a build's deployment addresses, with no build involved.
import assert from "node:assert/strict";
import { test } from "node:test";
import { isEnvironmentSettings } from "../../../src/core/settings/environmentSchema.js";
import { environmentProblems, PRODUCTION_ENVIRONMENT, productionEnvironment } from "../../../src/core/settings/environment.js";
import { DEPLOYED_PRODUCTION_ENVIRONMENT } from "../../../src/taskpane/deployment.js";

test("a build's deployment addresses make the Production preset: service, studio, sign-in, broker token URL, relay, client id", () => {
  const env = productionEnvironment({
    serviceApiUrl: "https://api.acme.test/gtm/",
    signInUrl: "https://login.acme.test/gtm/oauth/v1/authorize",
    brokerUrl: "https://broker.acme.test/",
    relayUrl: "https://broker.acme.test",
    clientId: " acme-app ",
  });
  assert.equal(env.kind, "production");
  assert.equal(env.profile, "production");
  assert.equal(env.apiBaseUrl, "https://api.acme.test/gtm");
  assert.equal(env.audiencesBaseUrl, "https://api.acme.test/gtm/studio");
  assert.equal(env.relayUrl, "https://broker.acme.test");
  assert.deepEqual(env.signIn, {
    flow: "oauth",
    authority: "https://login.acme.test/gtm/oauth/v1",
    authorizeUrl: "https://login.acme.test/gtm/oauth/v1/authorize",
    tokenEndpoint: "https://broker.acme.test/token",
    clientId: "acme-app",
    scopes: [],
  });
  assert.ok(isEnvironmentSettings(env));
  assert.deepEqual(environmentProblems(env), []);
});

test("addresses a build was not given fall back to placeholders; the sign-in defaults to the service's own", () => {
  const empty = productionEnvironment({ serviceApiUrl: "", signInUrl: "", brokerUrl: " ", relayUrl: "", clientId: "" });
  assert.deepEqual(empty, PRODUCTION_ENVIRONMENT);
  assert.equal(empty.apiBaseUrl, "https://api.service.example/gtm");
  assert.equal(empty.signIn.flow === "oauth" && empty.signIn.tokenEndpoint, "https://broker.service.example/token");
  assert.equal("relayUrl" in empty, false);

  const serviceOnly = productionEnvironment({ serviceApiUrl: "https://api.acme.test/gtm" });
  assert.equal(serviceOnly.signIn.flow === "oauth" && serviceOnly.signIn.authorizeUrl, "https://api.acme.test/gtm/oauth/v1/authorize");
  assert.equal(serviceOnly.signIn.authority, "https://api.acme.test/gtm/oauth/v1");
});

const DEPLOYMENT_VARIABLES = ["SERVICE_API_URL", "SERVICE_SIGNIN_URL", "BROKER_URL", "SERVICE_RELAY_URL", "SERVICE_CLIENT_ID"];
const deploymentSet = DEPLOYMENT_VARIABLES.filter((name) => process.env[name]);

test(
  "outside a build (no deployment variables) the task pane's preset is the placeholder one",
  { skip: deploymentSet.length > 0 ? `deployment variables are set in this shell (${deploymentSet.join(", ")})` : false },
  () => {
    assert.deepEqual(DEPLOYED_PRODUCTION_ENVIRONMENT, PRODUCTION_ENVIRONMENT);
  },
);
