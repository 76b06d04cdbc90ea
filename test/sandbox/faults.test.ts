// Faults for testing clients: 5xx answers, dropped connections, latency, all deterministic from a
// seed and changeable at run time; they apply to API routes only.
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { useSandbox } from "../helpers/sandbox.js";
import { call, companySearch } from "./http.js";

const sandbox = useSandbox();
let token: string;
before(async () => {
  token = await sandbox.token();
});

const search = () => call(sandbox, "POST", "/data/v1/companies/search", { token, body: companySearch({}) });
/** Status of one request, or "reset" when the connection was dropped. */
const outcome = async (): Promise<number | "reset"> => {
  try {
    return (await search()).status;
  } catch {
    return "reset";
  }
};

describe("faults", () => {
  test("failRate 1 answers 503 with a JSON:API error", async () => {
    await sandbox.setFaults({ failRate: 1 });
    try {
      const res = await search();
      assert.equal(res.status, 503);
      assert.equal(res.body.errors[0].status, "503");
      assert.equal(res.body.errors[0].code, "SERVER_ERROR");
      // Sandbox routes are not affected.
      assert.equal((await call(sandbox, "GET", "/__sandbox/stats")).status, 200);
    } finally {
      await sandbox.setFaults({ failRate: 0 });
    }
  });

  test("resetRate 1 drops the connection", async () => {
    await sandbox.setFaults({ resetRate: 1 });
    try {
      assert.equal(await outcome(), "reset");
    } finally {
      await sandbox.setFaults({ resetRate: 0 });
    }
    assert.equal(await outcome(), 200);
  });

  test("the same seed gives the same sequence of faults", async () => {
    const run = async () => {
      await sandbox.setFaults({ seed: 12345, failRate: 0.4, resetRate: 0.2 });
      const seen: (number | "reset")[] = [];
      for (let i = 0; i < 20; i++) seen.push(await outcome());
      return seen;
    };
    await sandbox.setFaults({ seed: 1 });
    try {
      const first = await run();
      await sandbox.setFaults({ seed: 2 });
      const second = await run();
      assert.deepEqual(second, first);
      assert.ok(first.includes(503) && first.includes("reset") && first.includes(200), `a mix: ${first.join(",")}`);
    } finally {
      await sandbox.setFaults({ failRate: 0, resetRate: 0, seed: 1 });
    }
  });

  test("latency delays API answers", async () => {
    await sandbox.setFaults({ latencyMs: 300 });
    try {
      const started = Date.now();
      assert.equal((await search()).status, 200);
      // A lower bound only: the delay is added, it cannot come back sooner.
      assert.ok(Date.now() - started >= 300);
    } finally {
      await sandbox.setFaults({ latencyMs: 0 });
    }
  });

  test("invalid fault settings are refused", async () => {
    const res = await call(sandbox, "POST", "/__sandbox/faults", { body: { failRate: 2 }, contentType: "application/json" });
    assert.equal(res.status, 400);
  });
});

describe("stats", () => {
  test("requests are counted by route, rejected ones included, and can be reset", async () => {
    sandbox.resetStats();
    await search();
    await call(sandbox, "POST", "/data/v1/companies/search", { body: companySearch({}) });
    await call(sandbox, "GET", "/data/v1/lookup/industries", { token });
    assert.equal(sandbox.requests("POST /data/v1/companies/search"), 2);
    assert.equal(sandbox.requests("GET /data/v1/lookup/:fieldName"), 1);
    assert.equal(sandbox.requests(), 3);
    const stats = await call(sandbox, "GET", "/__sandbox/stats");
    assert.equal(stats.body.requests["POST /data/v1/companies/search"], 2);
    await call(sandbox, "POST", "/__sandbox/stats/reset", { body: {}, contentType: "application/json" });
    assert.equal(sandbox.requests(), 0);
  });
});
