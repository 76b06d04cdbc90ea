// `npm start` takes the sandbox's and the broker's ports from flags or the environment, and
// hands the dev server the addresses the task pane's Sandbox presets then name.
import assert from "node:assert/strict";
import { test } from "node:test";
import { topologyFrom } from "../../scripts/start.js";

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
