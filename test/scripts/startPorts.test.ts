// `npm start` takes the sandbox's and the broker's ports from flags or the environment, and
// hands the dev server the addresses the task pane's Sandbox presets then name.
import assert from "node:assert/strict";
import { test } from "node:test";
import { addinBuildEnvironment, startBanner, topologyFrom } from "../../scripts/start.js";

test("without flags or environment: the sandbox on 4010, the broker on 4020", () => {
  const t = topologyFrom([], {});
  assert.equal(t.sandboxUrl, "https://localhost:4010");
  assert.equal(t.brokerUrl, "https://localhost:4020");
  assert.deepEqual(t.sandboxArgs, ["--port", "4010"]);
});

test("flags: the sandbox's own --port, and --broker-port, which the sandbox is not given", () => {
  const t = topologyFrom(["--companies", "100", "--port", "4311", "--broker-port=4321", "--profile", "production"], { SANDBOX_PORT: "5000" });
  assert.equal(t.sandboxUrl, "https://localhost:4311", "a flag wins over the environment");
  assert.equal(t.brokerUrl, "https://localhost:4321");
  assert.deepEqual(t.sandboxArgs, ["--companies", "100", "--port", "4311", "--profile", "production"]);
});

test("environment: SANDBOX_PORT and BROKER_PORT; --http makes the sandbox's address http", () => {
  const t = topologyFrom(["--http"], { SANDBOX_PORT: "4411", BROKER_PORT: "4422" });
  assert.equal(t.sandboxUrl, "http://localhost:4411");
  assert.equal(t.brokerUrl, "https://localhost:4422");
  assert.deepEqual(t.sandboxArgs, ["--http", "--port", "4411"]);
});

test("a port the pane could not name is refused in words", () => {
  assert.throws(() => topologyFrom(["--port", "0"], {}), /--port must be a port number from 1 to 65535, not "0"/);
  assert.throws(() => topologyFrom([], { BROKER_PORT: "http" }), /BROKER_PORT must be a port number/);
});

test("the dev server is told the profile: a fresh pane started for the production profile preselects its preset", () => {
  const t = topologyFrom(["--port", "4311", "--broker-port", "4321", "--profile", "production"], {});
  const production = addinBuildEnvironment(t, true, "app-1");
  assert.equal(production.SANDBOX_PROFILE, "production");
  assert.equal(production.SANDBOX_URL, "https://localhost:4311");
  assert.equal(production.SANDBOX_BROKER_URL, "https://localhost:4321");
  assert.equal(production.BROKER_URL, "https://localhost:4321");
  assert.equal(production.SERVICE_CLIENT_ID, "app-1");
  const plain = addinBuildEnvironment(topologyFrom([], {}), false, "app-1");
  assert.equal(plain.SANDBOX_PROFILE, "");
  assert.equal(plain.BROKER_URL, undefined, "no production addresses for the specification's profile");
});

test("the start banner names the ports that run, never the defaults when others were chosen", () => {
  const t = topologyFrom(["--port", "4311", "--broker-port", "4321", "--profile", "production"], {});
  const banner = startBanner({ url: "https://localhost:4311" }, false, t, true);
  assert.match(banner, /Sandbox service: https:\/\/localhost:4311/);
  assert.match(banner, /API https:\/\/localhost:4311\/gtm, sign-in https:\/\/localhost:4311\/gtm\/oauth\/v1\/authorize/);
  assert.match(banner, /token broker https:\/\/localhost:4321\/token/);
  assert.match(banner, /open https:\/\/localhost:3000, https:\/\/localhost:4311 and https:\/\/localhost:4321 and accept/);
  assert.match(banner, /A fresh pane starts on "Sandbox \(production profile\)"/);
  assert.doesNotMatch(banner, /4010|4020/);
  const starting = startBanner({ problem: "still starting" }, true, topologyFrom([], { SANDBOX_PORT: "4411" }), false);
  assert.match(starting, /Sandbox service \(https:\/\/localhost:4411\): still starting/);
  assert.doesNotMatch(starting, /4010|broker|not trusted/);
});
