// Resource bounds: the search page cache stays within its byte budget, free re-enrichments
// take one ledger row per call instead of one per record, and the account ledger is paged
// with a total instead of being cut silently.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { useSandbox } from "../helpers/sandbox.js";
import { call, contactSearch, searchPath } from "./http.js";

const BUDGET = 60_000;
const sandbox = useSandbox({ pageCacheBytes: BUDGET });

describe("page cache", () => {
  test("stays within its byte budget however many pages are read", async () => {
    const token = await sandbox.token();
    for (let page = 1; page <= 60; page++) {
      const res = await call(sandbox, "POST", searchPath("contacts", { "page[number]": page, "page[size]": 10 }), { token, body: contactSearch({}) });
      assert.equal(res.status, 200);
    }
    const { pageCache } = (await call(sandbox, "GET", "/__sandbox/stats")).body;
    assert.equal(pageCache.limitBytes, BUDGET);
    assert.ok(pageCache.pages >= 1, "recent pages are kept");
    assert.ok(pageCache.pages < 60, `older pages are evicted (${pageCache.pages} kept)`);
    assert.ok(pageCache.bytes <= BUDGET, `${pageCache.bytes} bytes cached`);
  });
});

describe("credit ledger", () => {
  const ids = Array.from({ length: 25 }, (_, i) => i + 301);
  const enrich = (token: string) =>
    call(sandbox, "POST", "/data/v1/companies/enrich", {
      token,
      body: { data: { type: "CompanyEnrich", attributes: { matchCompanyInput: ids.map((companyId) => ({ companyId })), outputFields: ["id"] } } },
    });

  test("free re-enrichments take one row per call; the ledger is paged with a total", async () => {
    await sandbox.setAccount("ledger", 100);
    const token = await sandbox.token({ account: "ledger" });
    for (let i = 0; i < 11; i++) assert.equal((await enrich(token)).status, 200);
    const rows = (sandbox.ctx.db.prepare("SELECT COUNT(*) AS n FROM ledger WHERE account = 'ledger'").get() as { n: number }).n;
    assert.equal(rows, 25 + 10, "25 charges, then one row for each free call of 25");

    const page = async (number: number, size: number) =>
      (await call(sandbox, "GET", `/__sandbox/accounts/ledger?page[number]=${number}&page[size]=${size}`)).body;
    const first = await page(1, 100);
    assert.equal(first.ledgerTotal, 275);
    assert.deepEqual(first.ledgerPage, { number: 1, size: 100, total: 3 });
    assert.equal(first.credits, 75);
    const all = [...first.ledger, ...(await page(2, 100)).ledger, ...(await page(3, 100)).ledger];
    assert.equal(all.length, 275);
    const expected = [...ids.map((id) => ["company", id, true]), ...Array.from({ length: 10 }, () => ids.map((id) => ["company", id, false])).flat()];
    assert.deepEqual(
      all.map((e: { kind: string; id: number; charged: boolean }) => [e.kind, e.id, e.charged]),
      expected,
    );
    // Page boundaries inside a compact row still give exact pages.
    const odd = await page(2, 7);
    assert.deepEqual(
      odd.ledger.map((e: { id: number }) => e.id),
      all.slice(7, 14).map((e: { id: number }) => e.id),
    );
    assert.equal((await page(4, 100)).ledger.length, 0);
  });

  test("a bad page is a 400 naming the parameter", async () => {
    const res = await call(sandbox, "GET", "/__sandbox/accounts/ledger?page[size]=0");
    assert.equal(res.status, 400);
    const big = await call(sandbox, "GET", "/__sandbox/accounts/ledger?page[size]=abc");
    assert.equal(big.status, 400);
  });
});
