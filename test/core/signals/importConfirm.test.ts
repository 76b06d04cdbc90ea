// A signal insert above one search's reach asks before fetching more than the first page: for
// news, which no filter splits, with the one unsplittable part and the rows one search reaches.
// Declined, nothing is delivered and no other page is asked.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { SearchPage } from "../../../src/core/api/types.js";
import { importSignalSearch, type SignalSearchClient, type SignalSearchItem } from "../../../src/core/signals/index.js";

/** A news search of `total` articles, `size` a page; counts the pages asked. */
function newsClient(total: number) {
  const asked: number[] = [];
  const client = {
    searchNews: async (_filters: unknown, o: { page: number; size: number }): Promise<SearchPage<SignalSearchItem>> => {
      asked.push(o.page);
      const from = (o.page - 1) * o.size;
      const items = Array.from(
        { length: Math.max(0, Math.min(o.size, total - from)) },
        (_, i) => ({ id: `n${from + i}`, type: "News", attributes: {} }) as unknown as SignalSearchItem,
      );
      return { items, totalResults: total, pageNumber: o.page, totalPages: Math.ceil(total / o.size), links: {} };
    },
  } as unknown as SignalSearchClient;
  return { client, asked };
}

test("news above the reach: asked with what one search reaches; declined, only the first page was read", async () => {
  const { client, asked } = newsClient(12);
  const questions: { total: number; rows: number; unsplittable: boolean }[] = [];
  const delivered: string[] = [];
  const outcome = await importSignalSearch({
    client,
    family: "news",
    filters: {},
    reach: 6,
    pageSize: 2,
    confirmPlan: async (plan, rows) => {
      questions.push({ total: plan.total, rows, unsplittable: plan.parts.every((p) => p.unsplittable) });
      return false;
    },
    deliver: async (items) => void delivered.push(...items.map((i) => i.id)),
  });
  assert.deepEqual(questions, [{ total: 12, rows: 6, unsplittable: true }]);
  assert.equal(outcome.declined, true);
  assert.equal(outcome.result, undefined);
  assert.deepEqual(delivered, []);
  assert.deepEqual(asked, [1], "nothing beyond the first page");
});

test("accepted, the rows one search reaches are delivered; within the reach nothing is asked", async () => {
  const { client } = newsClient(12);
  const delivered: string[] = [];
  const outcome = await importSignalSearch({
    client,
    family: "news",
    filters: {},
    reach: 6,
    pageSize: 2,
    confirmPlan: async () => true,
    deliver: async (items) => void delivered.push(...items.map((i) => i.id)),
  });
  assert.equal(outcome.declined, undefined);
  assert.equal(delivered.length, 6);

  const small = newsClient(5);
  let questions = 0;
  await importSignalSearch({
    client: small.client,
    family: "news",
    filters: {},
    reach: 6,
    pageSize: 2,
    confirmPlan: async () => (questions++, true),
    deliver: async () => undefined,
  });
  assert.equal(questions, 0);
});
