// Rate limits (429 with its headers, rejected requests use no quota), usage figures and lookup.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { LOOKUP_FIELDS } from "../../src/core/contract/index.js";
import { manualClock, useSandbox } from "../helpers/sandbox.js";
import { call, companySearch } from "./http.js";

// The sandbox's clock moves only when a test moves it, so windows pass without waiting. It starts
// at the next whole hour, so the few seconds the tests move it stay inside one hour window.
const clock = manualClock((Math.floor(Date.now() / 3_600_000) + 1) * 3_600_000);
const sandbox = useSandbox({ rateLimit: { perSecond: 4, perHour: 6, perDay: 1000 }, clock });

const search = (token: string) => call(sandbox, "POST", "/data/v1/companies/search", { token, body: companySearch({}) });

describe("rate limits", () => {
  test("every API response carries the limits and what remains", async () => {
    const token = await sandbox.token({ account: "headers" });
    const res = await search(token);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("x-ratelimit-limit-second"), "4");
    assert.equal(res.headers.get("x-ratelimit-limit-hour"), "6");
    assert.equal(res.headers.get("x-ratelimit-limit-day"), "1000");
    assert.equal(res.headers.get("x-ratelimit-remaining-hour"), "5");
    assert.equal(res.headers.get("x-ratelimit-remaining-day"), "999");
    // Each bucket says when it fills again, in epoch seconds.
    const now = Math.floor(clock.now() / 1000);
    assert.equal(res.headers.get("x-ratelimit-reset-second"), String(now + 1));
    assert.equal(res.headers.get("x-ratelimit-reset-hour"), String(Math.floor(now / 3600) * 3600 + 3600));
    assert.equal(res.headers.get("x-ratelimit-reset-day"), String(Math.floor(now / 86400) * 86400 + 86400));
  });

  test("a burst over the per-second limit gets 429 with Retry-After, bucket and reset", async () => {
    const token = await sandbox.token({ account: "burst" });
    const answers = await Promise.all(Array.from({ length: 12 }, () => search(token)));
    // The clock stands still: all twelve fall in one second window, which admits four.
    assert.deepEqual(answers.map((a) => a.status).sort(), [...Array<number>(4).fill(200), ...Array<number>(8).fill(429)]);
    const windowEnd = Math.floor(clock.now() / 1000) + 1;
    for (const r of answers.filter((a) => a.status === 429)) {
      assert.equal(r.body.errors[0].status, "429");
      assert.equal(r.body.errors[0].code, "RATE_LIMITED");
      assert.equal(r.headers.get("x-ratelimit-rejected-bucket"), "second");
      assert.equal(r.headers.get("retry-after"), String(Math.ceil((windowEnd * 1000 - clock.now()) / 1000)));
      assert.equal(r.headers.get("x-ratelimit-reset"), String(windowEnd), "the reset is the end of the sandbox clock's second window");
    }
  });

  test("the hour window: rejected requests use no quota", async () => {
    const token = await sandbox.token({ account: "hourly" });
    const statuses: number[] = [];
    const remainingDay: string[] = [];
    for (let i = 0; i < 9; i++) {
      // Stay under the per-second limit so only the hour window decides.
      if (i > 0 && i % 3 === 0) await clock.advance(1000);
      const res = await search(token);
      statuses.push(res.status);
      remainingDay.push(res.headers.get("x-ratelimit-remaining-day") ?? "");
      if (res.status === 429) {
        assert.equal(res.headers.get("x-ratelimit-rejected-bucket"), "hour");
        assert.ok(Number(res.headers.get("retry-after")) <= 3600);
      }
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 429, 429, 429]);
    assert.deepEqual(remainingDay, ["999", "998", "997", "996", "995", "994", "994", "994", "994"]);
  });

  test("accounts are limited separately; /__sandbox routes are not limited", async () => {
    const other = await sandbox.token({ account: "separate" });
    assert.equal((await search(other)).status, 200);
    for (let i = 0; i < 10; i++) assert.equal((await call(sandbox, "GET", "/__sandbox/stats")).status, 200);
  });
});

describe("usage", () => {
  test("requests, records and unique ids are reported truthfully", async () => {
    await sandbox.setAccount("usage", 50);
    const token = await sandbox.token({ account: "usage" });
    await search(token);
    const enrich = (ids: number[]) =>
      call(sandbox, "POST", "/data/v1/companies/enrich", {
        token,
        body: { data: { type: "CompanyEnrich", attributes: { matchCompanyInput: ids.map((companyId) => ({ companyId })), outputFields: ["name"] } } },
      });
    assert.equal((await enrich([1, 2, 3])).status, 200);
    await clock.advance(1000);
    assert.equal((await enrich([3, 4])).status, 200);
    const res = await call(sandbox, "GET", "/data/v1/users/usage", { token });
    assert.equal(res.status, 200);
    const usage = Object.fromEntries(res.body.data[0].attributes.usage.map((u: any) => [u.limitType, u]));
    assert.deepEqual(
      { ...usage.request, description: undefined },
      { limitType: "request", description: undefined, totalLimit: 1000, currentUsage: 4, usageRemaining: 996 },
    );
    assert.equal(usage.record.totalLimit, 50);
    assert.equal(usage.record.currentUsage, 4);
    assert.equal(usage.record.usageRemaining, 46);
    assert.equal(usage.uniqueID.currentUsage, 4);
  });
});

describe("lookup", () => {
  test("every lookup field answers a non-empty list of {id, type, attributes.name}", async () => {
    await clock.advance(1000);
    // A fresh account per second keeps these under the per-hour limit of this sandbox.
    for (const [i, field] of LOOKUP_FIELDS.entries()) {
      const token = await sandbox.token({ account: `lookup-${i}` });
      const res = await call(sandbox, "GET", `/data/v1/lookup/${field}`, { token });
      assert.equal(res.status, 200, field);
      assert.ok(res.body.data.length > 0, field);
      for (const item of res.body.data) assert.ok(typeof item.id === "string" && typeof item.attributes.name === "string");
    }
  });
  test("lookup values are the ones the data uses", async () => {
    const token = await sandbox.token({ account: "lookup-values" });
    const res = await call(sandbox, "GET", "/data/v1/lookup/employee-count", { token });
    assert.deepEqual(res.body.data[0], { id: "1to4", type: "EmployeeCount", attributes: { name: "1 - 5" } });
    const used = sandbox.ctx.db.prepare("SELECT DISTINCT employee_range AS r FROM companies").all() as { r: string }[];
    const ids = new Set(res.body.data.map((d: any) => d.id));
    assert.ok(used.every((u) => ids.has(u.r)));
  });
  test("an unknown lookup is a JSON:API 404 naming the parameter", async () => {
    const token = await sandbox.token({ account: "lookup-404" });
    const res = await call(sandbox, "GET", "/data/v1/lookup/shoe-sizes", { token });
    assert.equal(res.status, 404);
    assert.equal(res.body.errors[0].source.parameter, "fieldName");
  });
});
