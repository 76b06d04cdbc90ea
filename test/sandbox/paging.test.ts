// Paging arithmetic, links and sort orders of company and contact search (docs/service.md, "Search").
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { useSandbox, TEST_COMPANIES } from "../helpers/sandbox.js";
import { call, companySearch, contactSearch, searchPath } from "./http.js";

const sandbox = useSandbox();
let token: string;
before(async () => {
  token = await sandbox.token();
});

const search = (query: Record<string, string | number>, attributes: object = {}) =>
  call(sandbox, "POST", searchPath("companies", query), { token, body: companySearch(attributes) });

/** Company ids in the default order (-revenue, ties by id descending), straight from the data. */
function expectedOrder(filterSql = "1"): number[] {
  return (sandbox.ctx.db.prepare(`SELECT id FROM companies WHERE ${filterSql} ORDER BY revenue DESC, id DESC`).all() as { id: number }[]).map((r) => r.id);
}

describe("page n of size s holds results (n-1)*s+1 to n*s", () => {
  for (const size of [1, 7, 25, 100]) {
    test(`page size ${size}`, async () => {
      const order = expectedOrder();
      for (const number of [1, 2, 5]) {
        const res = await search({ "page[number]": number, "page[size]": size });
        assert.equal(res.status, 200);
        assert.deepEqual(
          res.body.data.map((d: { id: string }) => Number(d.id)),
          order.slice((number - 1) * size, number * size),
        );
        assert.equal(res.body.meta.totalResults, TEST_COMPANIES);
        assert.deepEqual(res.body.meta.page, { number, total: Math.ceil(TEST_COMPANIES / size) });
      }
    });
  }

  test("the default page is the first, of 25", async () => {
    const res = await search({});
    assert.equal(res.body.data.length, 25);
    assert.deepEqual(res.body.meta.page, { number: 1, total: TEST_COMPANIES / 25 });
    assert.deepEqual(
      res.body.data.map((d: { id: string }) => Number(d.id)),
      expectedOrder().slice(0, 25),
    );
  });

  test("the last page holds the remainder; a page past the end is empty", async () => {
    // 2000 companies with state California: count from the data, pick a size that leaves a remainder.
    const ca = expectedOrder("state = 'California'");
    const size = 7;
    const lastPage = Math.ceil(ca.length / size);
    const last = await search({ "page[number]": lastPage, "page[size]": size }, { state: "California" });
    assert.deepEqual(
      last.body.data.map((d: { id: string }) => Number(d.id)),
      ca.slice((lastPage - 1) * size),
    );
    assert.equal(last.body.meta.totalResults, ca.length);
    // Early pages (read by walking the sort index) and late ones (matches sorted) agree.
    for (const n of [1, 2, Math.floor(lastPage / 2)]) {
      const page = await search({ "page[number]": n, "page[size]": size }, { state: "California" });
      assert.deepEqual(
        page.body.data.map((d: { id: string }) => Number(d.id)),
        ca.slice((n - 1) * size, n * size),
      );
    }
    const past = await search({ "page[number]": lastPage + 1, "page[size]": size }, { state: "California" });
    assert.equal(past.status, 200);
    assert.deepEqual(past.body.data, []);
  });
});

describe("links", () => {
  test("first page: first, last, next but no prev", async () => {
    const res = await search({ "page[number]": 1, "page[size]": 50 });
    assert.deepEqual(res.body.links, {
      first: "/data/v1/companies/search?page[number]=1&page[size]=50",
      last: "/data/v1/companies/search?page[number]=40&page[size]=50",
      next: "/data/v1/companies/search?page[number]=2&page[size]=50",
    });
  });

  test("middle page: prev and next; the sort travels with the links", async () => {
    const res = await search({ "page[number]": 3, "page[size]": 10, sort: "name" });
    assert.equal(res.body.links.prev, "/data/v1/companies/search?page[number]=2&page[size]=10&sort=name");
    assert.equal(res.body.links.next, "/data/v1/companies/search?page[number]=4&page[size]=10&sort=name");
  });

  test("last page: prev but no next", async () => {
    const res = await search({ "page[number]": 20, "page[size]": 100 });
    assert.equal(res.body.links.next, undefined);
    assert.equal(res.body.links.prev, "/data/v1/companies/search?page[number]=19&page[size]=100");
  });

  test("links are followable: the next link gives the next page", async () => {
    const first = await search({ "page[number]": 1, "page[size]": 13 });
    const next = await call(sandbox, "POST", first.body.links.next, { token, body: companySearch({}) });
    assert.deepEqual(
      next.body.data.map((d: { id: string }) => Number(d.id)),
      expectedOrder().slice(13, 26),
    );
  });

  test("a single page has neither prev nor next; no results still give first and last", async () => {
    const one = await search({ "page[size]": 100 }, { companyName: "Formula" });
    assert.equal(one.body.meta.totalResults, 5);
    assert.equal(one.body.links.prev, undefined);
    assert.equal(one.body.links.next, undefined);
    const none = await search({}, { companyName: "no company has this name" });
    assert.equal(none.body.meta.totalResults, 0);
    assert.deepEqual(none.body.meta.page, { number: 1, total: 0 });
    assert.ok(none.body.links.first && none.body.links.last);
  });

  test("last and next stop at page 100 (the service refuses higher pages)", async () => {
    const res = await search({ "page[number]": 100, "page[size]": 1 });
    assert.equal(res.status, 200);
    assert.equal(res.body.meta.page.total, TEST_COMPANIES);
    assert.equal(res.body.links.last, "/data/v1/companies/search?page[number]=100&page[size]=1");
    assert.equal(res.body.links.next, undefined);
  });
});

describe("limits of the page parameters", () => {
  for (const [parameter, value] of [
    ["page[number]", 101],
    ["page[number]", 0],
    ["page[size]", 101],
    ["page[size]", 0],
    ["page[size]", "ten"],
  ] as const) {
    test(`${parameter}=${value} is refused with source.parameter`, async () => {
      const res = await search({ [parameter]: value });
      assert.equal(res.status, 400);
      assert.equal(res.body.errors.length, 1);
      assert.equal(res.body.errors[0].source.parameter, parameter);
      assert.equal(res.body.errors[0].status, "400");
    });
  }
  test("an unknown sort is refused", async () => {
    const res = await search({ sort: "-city" });
    assert.equal(res.status, 400);
    assert.equal(res.body.errors[0].source.parameter, "sort");
  });
});

describe("sort orders", () => {
  const fetchAll = async (sort: string) => {
    const items: { id: number; name: string; revenue: number; employees: number }[] = [];
    for (let page = 1; page <= 20; page++) {
      const res = await search({ "page[number]": page, "page[size]": 100, sort });
      for (const d of res.body.data) {
        items.push({ id: Number(d.id), name: d.attributes.name, revenue: Number(d.attributes.revenue), employees: Number(d.attributes.employeeCount) });
      }
    }
    return items;
  };
  const check = (items: { id: number }[], compare: (a: any, b: any) => number) => {
    assert.equal(items.length, TEST_COMPANIES);
    assert.equal(new Set(items.map((i) => i.id)).size, TEST_COMPANIES, "every company exactly once across pages");
    for (let i = 1; i < items.length; i++) assert.ok(compare(items[i - 1], items[i]) < 0, `items ${i - 1} and ${i} out of order`);
  };
  const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;
  const lowerName = (x: { name: string }) => x.name.toLowerCase();
  const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);

  test("revenue ascending, ties by id", async () => check(await fetchAll("revenue"), (a, b) => cmp(a.revenue, b.revenue) || byId(a, b)));
  test("-revenue (the default) descending, ties by id descending", async () =>
    check(await fetchAll("-revenue"), (a, b) => cmp(b.revenue, a.revenue) || byId(b, a)));
  test("employeeCount ascending", async () => check(await fetchAll("employeeCount"), (a, b) => cmp(a.employees, b.employees) || byId(a, b)));
  test("-employeeCount descending", async () => check(await fetchAll("-employeeCount"), (a, b) => cmp(b.employees, a.employees) || byId(b, a)));
  test("name ascending, case-insensitive", async () => check(await fetchAll("name"), (a, b) => cmp(lowerName(a), lowerName(b)) || byId(a, b)));
  test("-name descending", async () => check(await fetchAll("-name"), (a, b) => cmp(lowerName(b), lowerName(a)) || byId(b, a)));

  test("contact sorts: default -relevance, contactAccuracyScore, lastName, companyName", async () => {
    const contacts = async (sort?: string) => {
      const res = await call(sandbox, "POST", searchPath("contacts", { "page[size]": 100, ...(sort ? { sort } : {}) }), {
        token,
        body: contactSearch({ state: "California" }),
      });
      assert.equal(res.status, 200);
      return res.body.data as { id: string; attributes: { contactAccuracyScore: number; lastName: string; company: { name: string } } }[];
    };
    const relevance = (await contacts()).map((c) => Number(c.id));
    const expected = (
      sandbox.ctx.db
        .prepare(
          "SELECT id FROM contacts WHERE state = 'California' OR company_id IN (SELECT id FROM companies WHERE state = 'California') ORDER BY relevance DESC, id DESC LIMIT 100",
        )
        .all() as { id: number }[]
    ).map((r) => r.id);
    assert.deepEqual(relevance, expected);
    const acc = await contacts("-contactAccuracyScore");
    for (let i = 1; i < acc.length; i++) assert.ok(acc[i - 1]!.attributes.contactAccuracyScore >= acc[i]!.attributes.contactAccuracyScore);
    const last = await contacts("lastName");
    for (let i = 1; i < last.length; i++) assert.ok(last[i - 1]!.attributes.lastName.toLowerCase() <= last[i]!.attributes.lastName.toLowerCase());
    const company = await contacts("-companyName");
    for (let i = 1; i < company.length; i++)
      assert.ok(company[i - 1]!.attributes.company.name.toLowerCase() >= company[i]!.attributes.company.name.toLowerCase());
  });
});
