// Recommended contacts get their names, job titles and companies from a contact search by id:
// ids in lists within a filter's length and a page, each searched once; a contact the search
// does not find keeps its id only.
import assert from "node:assert/strict";
import { test } from "node:test";
import { idBatches, withContactNames, type ContactSearch } from "../../../src/core/research/contactNames.js";
import type { AccountContact } from "../../../src/core/research/recommendations.js";

const contact = (accountId: string, contactId: string, rank: number): AccountContact => ({
  accountId,
  rank,
  contactId,
  score: 0.5,
  reRankingScore: -1,
  brief: "",
});

test("the names come from a contact search by id; one not found keeps its id only", async () => {
  const asked: string[] = [];
  const search: ContactSearch = async (filters, options) => {
    asked.push(String(filters.personId));
    assert.equal(options.priority, "bulk");
    return {
      items: [
        { id: "11", type: "Contact", attributes: { firstName: "Ada", lastName: "Lovelace", jobTitle: "CTO", company: { id: 1, name: "Technologies LLC" } } },
        { id: "12", type: "Contact", attributes: { firstName: "Alan", middleName: "M", lastName: "Turing" } },
      ],
    };
  };
  const named = await withContactNames([contact("1", "11", 1), contact("1", "12", 2), contact("2", "11", 1), contact("2", "13", 2)], search);
  assert.deepEqual(asked, ["11,12,13"], "each id once, in one search");
  assert.deepEqual(
    named.map((c) => [c.accountId, c.contactId, c.contactName, c.jobTitle, c.companyName]),
    [
      ["1", "11", "Ada Lovelace", "CTO", "Technologies LLC"],
      ["1", "12", "Alan M Turing", "", ""],
      ["2", "11", "Ada Lovelace", "CTO", "Technologies LLC"],
      ["2", "13", undefined, undefined, undefined],
    ],
  );
});

test("ids go in lists within a filter's length and one page of 100", () => {
  const ids = Array.from({ length: 250 }, (_, i) => String(100_000_000 + i));
  const batches = idBatches(ids);
  assert.deepEqual(
    batches.flatMap((b) => b.split(",")),
    ids,
  );
  for (const b of batches) assert.ok(b.length <= 500 && b.split(",").length <= 100, `${b.length} characters`);
  assert.deepEqual(
    idBatches(Array.from({ length: 150 }, (_, i) => String(i))).map((b) => b.split(",").length),
    [100, 50],
  );
});
