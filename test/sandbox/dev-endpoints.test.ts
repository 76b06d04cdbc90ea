// Development endpoints cannot be driven by a web page on another origin: they take only JSON
// bodies (so a browser must preflight, which foreign origins fail) and refuse foreign Origin
// headers; the sandbox listens beyond loopback only when told --unsafe-host.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { describe, test } from "node:test";
import { startSandbox } from "../../src/sandbox/server.js";
import { manualClock, useSandbox } from "../helpers/sandbox.js";
import { commandArgs } from "../helpers/commands.js";

const ADDIN = "https://addin.example.test";
const FOREIGN = "https://attacker.example.test";
const sandbox = useSandbox({ corsOrigins: [ADDIN] });

const post = (path: string, body: string, headers: Record<string, string>) => fetch(`${sandbox.url}${path}`, { method: "POST", headers, body });
const credits = async (id: string) => ((await (await fetch(`${sandbox.url}/__sandbox/accounts/${id}`)).json()) as { credits: number }).credits;

describe("development endpoints", () => {
  test("a simple cross-site POST (text/plain or a form) is refused and changes nothing", async () => {
    await sandbox.setAccount("victim", 500);
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
      const token = await post("/__sandbox/token", "{}", { "content-type": type });
      assert.equal(token.status, 415, type);
      assert.equal(((await token.json()) as { access_token?: string }).access_token, undefined);
      const reset = await post("/__sandbox/accounts", JSON.stringify({ id: "victim", credits: 0 }), { "content-type": type, origin: FOREIGN });
      assert.ok(reset.status === 415 || reset.status === 403, `${type}: ${reset.status}`);
    }
    assert.equal(await credits("victim"), 500);
  });

  test("a foreign Origin is refused even with JSON; the add-in's origin and no origin are served", async () => {
    const json = { "content-type": "application/json" };
    const foreign = await post("/__sandbox/token", "{}", { ...json, origin: FOREIGN });
    assert.equal(foreign.status, 403);
    const foreignRead = await fetch(`${sandbox.url}/__sandbox/accounts/victim`, { headers: { origin: FOREIGN } });
    assert.equal(foreignRead.status, 403);
    assert.equal((await post("/__sandbox/token", "{}", { ...json, origin: ADDIN })).status, 200);
    assert.equal((await post("/__sandbox/token", "{}", json)).status, 200);
    assert.equal((await post("/__sandbox/stats/reset", "{}", json)).status, 200);
  });

  test("a foreign origin's preflight is not allowed", async () => {
    const res = await fetch(`${sandbox.url}/__sandbox/token`, {
      method: "OPTIONS",
      headers: { origin: FOREIGN, "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
    });
    assert.equal(res.headers.get("access-control-allow-origin"), null);
  });
});

describe("the clock endpoint", () => {
  const manual = manualClock(Date.UTC(2030, 0, 1));
  const timed = useSandbox({ clock: manual });
  const advance = (url: string, body: unknown) =>
    fetch(`${url}/__sandbox/clock`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

  test("moves a manual clock by exactly what is asked", async () => {
    const res = await advance(timed.url, { advanceMs: 90_000 });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { now: "2030-01-01T00:01:30.000Z" });
    assert.equal(manual.now(), Date.UTC(2030, 0, 1, 0, 1, 30));
    assert.equal((await advance(timed.url, { advanceMs: -1 })).status, 400);
  });

  test("on the system clock it says how to get a manual one, and time is not moved", async () => {
    const res = await advance(sandbox.url, { advanceMs: 1000 });
    assert.equal(res.status, 409);
    assert.match(((await res.json()) as { error: string }).error, /--manual-clock/);
  });
});

describe("listening beyond loopback", () => {
  test("startSandbox refuses a non-loopback host unless unsafeHost is set", async () => {
    await assert.rejects(startSandbox({ host: "0.0.0.0", port: 0, http: true, companies: 50, contacts: 50 }), /--unsafe-host/);
  });

  test("the command line refuses --host 0.0.0.0 without --unsafe-host", () => {
    const run = spawnSync(process.execPath, [...commandArgs("src/sandbox/main.ts"), "--http", "--host", "0.0.0.0", "--port", "0", "--companies", "50"], {
      encoding: "utf8",
    });
    assert.equal(run.status, 1);
    assert.match(run.stderr, /Refusing to listen on 0\.0\.0\.0.*--unsafe-host/s);
  });
});
