// The research and lookalike operations of the client (docs/research.md) on a scripted transport:
// the paths of each profile, requests refused before sending (bad ids, an empty question, neither
// id nor name, a size out of range, a use case not offered), contact research refused up front in
// production, answers read into plain records and shape-checked, and research calls (which spend
// AI action credits) never sent twice after an answer that may have charged them.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CONTACT_RESEARCH_NOT_OFFERED, errorText, isServiceError, type ServiceClient } from "../../../src/core/api/index.js";
import { BASE, harness, rejection } from "./harness.js";
import { answer, type RecordedRequest } from "./scripted.js";

const summary = (id: string, markdown: string) => ({ data: { id, type: "AccountSummary", attributes: { markdown } } });
const lookalikes = {
  data: [
    {
      id: "200",
      type: "CompanyLookalike",
      attributes: { companyName: "Beta", score: 0.91, rank: 1, industry: "Software", revenueRange: "$1M - $5M", employeeRange: "10 - 50", country: "France" },
    },
    {
      id: "300",
      type: "CompanyLookalike",
      attributes: { companyName: "Gamma", score: 0.5, rank: 2, industry: "Retail", revenueRange: "$5M - $10M", employeeRange: "50 - 100", country: "Spain" },
    },
  ],
};

/** Calls `run` on a client of `profile` whose transport answers `body` with 200; returns the error or result and what was sent. */
async function sent<T>(profile: "specification" | "production", run: (client: ServiceClient) => Promise<T>, body: unknown = { data: [] }) {
  const { client, requests } = harness(() => answer(200, body), { profile });
  let outcome: T | unknown;
  try {
    outcome = await run(client);
  } catch (error) {
    outcome = error;
  }
  return { outcome, requests };
}

const pathAndQuery = (r: RecordedRequest) => `${r.method} ${r.path}${r.query.size > 0 ? `?${[...r.query].map(([k, v]) => `${k}=${v}`).join("&")}` : ""}`;

describe("research operations: the paths of each profile", () => {
  it("the specification profile: our paths under /data/v1", async () => {
    const calls: [string, (c: ServiceClient) => Promise<unknown>, unknown][] = [
      ["GET /data/v1/research/accounts/42", (c) => c.accountBriefing("42"), summary("42", "# A")],
      [
        "POST /data/v1/research/accounts/42/questions",
        (c) => c.askAccount("42", "What is the revenue?"),
        { data: { id: "42", type: "AccountSummaryQuestion", attributes: { answer: "x" } } },
      ],
      ["GET /data/v1/research/contacts/7", (c) => c.contactBriefing("7"), { data: { id: "7", type: "ContactSummary", attributes: { markdown: "# C" } } }],
      [
        "GET /data/v1/lookalikes/companies?filter[companyId]=42&filter[sameCountry]=true&page[size]=5",
        (c) => c.companyLookalikes({ companyId: "42", sameCountry: true, size: 5 }),
        lookalikes,
      ],
      [
        "GET /data/v1/lookalikes/contacts?filter[referencePersonId]=7&filter[targetCompanyId]=42",
        (c) => c.contactLookalikes({ referencePersonId: "7", targetCompanyId: "42" }),
        { data: [] },
      ],
      [
        "GET /data/v1/recommendations/contacts?filter[ziCompanyId]=42&filter[useCaseType]=RENEWAL_AND_GROWTH",
        (c) => c.contactRecommendations({ companyId: "42", useCase: "RENEWAL_AND_GROWTH" }),
        { data: [] },
      ],
    ];
    for (const [expected, run, body] of calls) {
      const { outcome, requests } = await sent("specification", run, body);
      assert.ok(!(outcome instanceof Error), `${expected}: ${String(outcome)}`);
      assert.equal(requests.length, 1);
      assert.equal(pathAndQuery(requests[0]!), expected);
      assert.ok(requests[0]!.url.startsWith(BASE));
    }
  });

  it("the production profile: the copilot API's paths, beside /data/v1 under the same base", async () => {
    const calls: [string, (c: ServiceClient) => Promise<unknown>, unknown][] = [
      ["GET /copilot/v1/companies/42/account-summary", (c) => c.accountBriefing("42"), summary("42", "# A")],
      [
        "POST /copilot/v1/companies/42/account-summary/actions/ask",
        (c) => c.askAccount("42", "Who are the competitors?"),
        { data: { id: "42", type: "AccountSummaryQuestion", attributes: { answer: "x" } } },
      ],
      [
        "GET /copilot/v1/companies/lookalikes?filter[companyName]=Acme Corp&filter[sameIndustry]=false",
        (c) => c.companyLookalikes({ companyName: "Acme Corp", sameIndustry: false }),
        lookalikes,
      ],
      [
        "GET /copilot/v1/contacts/lookalikes?filter[referencePersonId]=7&page[size]=100",
        (c) => c.contactLookalikes({ referencePersonId: "7", size: 100 }),
        { data: [] },
      ],
      [
        "GET /copilot/v1/contacts/recommendations?filter[ziCompanyId]=42&filter[useCaseType]=PROSPECTING&page[size]=1",
        (c) => c.contactRecommendations({ companyId: "42", useCase: "PROSPECTING", size: 1 }),
        { data: [] },
      ],
    ];
    for (const [expected, run, body] of calls) {
      const { outcome, requests } = await sent("production", run, body);
      assert.ok(!(outcome instanceof Error), `${expected}: ${String(outcome)}`);
      assert.equal(pathAndQuery(requests[0]!), expected);
    }
  });

  it("a question goes as the copilot API's request document", async () => {
    const { requests } = await sent("production", (c) => c.askAccount("42", "How many employees?"), {
      data: { id: "42", type: "AccountSummaryQuestion", attributes: { answer: "About 120." } },
    });
    assert.deepEqual(requests[0]!.body, { data: { type: "AccountSummaryQuestionRequest", attributes: { question: "How many employees?" } } });
  });
});

describe("research operations: refused before sending", () => {
  const refusals: [string, (c: ServiceClient) => Promise<unknown>, RegExp][] = [
    ["a company id that is not digits", (c) => c.accountBriefing("acme.com"), /Company id must be a ZoomInfo id/],
    ["a question about an id with a slash", (c) => c.askAccount("1/2", "Revenue?"), /Company id must be a ZoomInfo id/],
    ["an empty question", (c) => c.askAccount("42", "   "), /Write a question/],
    ["a question too long", (c) => c.askAccount("42", "x".repeat(1001)), /at most 1000 characters/],
    ["a contact id that is not digits", (c) => c.contactBriefing("jane@acme.com"), /Contact id must be a ZoomInfo id/],
    ["lookalikes of neither an id nor a name", (c) => c.companyLookalikes({ sameCountry: true }), /Give the company's id or its name/],
    ["lookalikes of a blank name", (c) => c.companyLookalikes({ companyName: "  " }), /Company name must not be blank/],
    ["101 lookalikes", (c) => c.companyLookalikes({ companyId: "42", size: 101 }), /from 1 to 100/],
    ["no lookalike at all", (c) => c.companyLookalikes({ companyId: "42", size: 0 }), /from 1 to 100/],
    ["a fraction of a result", (c) => c.contactLookalikes({ referencePersonId: "7", size: 2.5 }), /from 1 to 100/],
    ["a reference contact that is not an id", (c) => c.contactLookalikes({ referencePersonId: "Jane Doe" }), /must be a ZoomInfo id/],
    [
      "a use case the service does not know",
      (c) => c.contactRecommendations({ companyId: "42", useCase: "UPSELL" as never }),
      /Use case must be Prospecting, Deal acceleration or Renewal and growth/,
    ],
    ["recommendations without a company", (c) => c.contactRecommendations({ companyId: "", useCase: "PROSPECTING" }), /must be a ZoomInfo id/],
  ];
  for (const profile of ["specification", "production"] as const) {
    for (const [what, run, message] of refusals) {
      // Production refuses any contact research first (below).
      if (profile === "production" && what.startsWith("a contact id")) continue;
      it(`${profile}: ${what}`, async () => {
        const { outcome, requests } = await sent(profile, run);
        assert.equal(requests.length, 0, "nothing was sent");
        assert.ok(isServiceError(outcome), String(outcome));
        assert.equal(outcome.kind, "validation");
        assert.match(errorText(outcome), message);
      });
    }
  }

  it("production: contact research is refused up front, in one plain sentence", async () => {
    const { outcome, requests } = await sent("production", (c) => c.contactBriefing("7"));
    assert.equal(requests.length, 0);
    assert.ok(isServiceError(outcome));
    assert.equal(errorText(outcome), CONTACT_RESEARCH_NOT_OFFERED);
    assert.match(CONTACT_RESEARCH_NOT_OFFERED, /does not offer contact research over its API/);
  });
});

describe("research operations: answers", () => {
  it("reads lookalikes into plain records, ids as text, in the service's order", async () => {
    const { outcome } = await sent("specification", (c) => c.companyLookalikes({ companyId: "42" }), lookalikes);
    assert.deepEqual(outcome, [
      {
        companyId: "200",
        companyName: "Beta",
        score: 0.91,
        rank: 1,
        industry: "Software",
        revenueRange: "$1M - $5M",
        employeeRange: "10 - 50",
        country: "France",
      },
      {
        companyId: "300",
        companyName: "Gamma",
        score: 0.5,
        rank: 2,
        industry: "Retail",
        revenueRange: "$5M - $10M",
        employeeRange: "50 - 100",
        country: "Spain",
      },
    ]);
  });

  it("reads contact lookalikes and recommendations: the reference person as text, a missing brief left out", async () => {
    const contacts = {
      data: [
        {
          id: "900",
          type: "ContactLookalike",
          attributes: { rank: 1, score: 0.8, lookalikePersonBrief: "VP Sales at Beta" },
          meta: { referencePersonId: 7, referencePersonBrief: "VP Sales at Acme" },
        },
      ],
    };
    const like = await sent("production", (c) => c.contactLookalikes({ referencePersonId: "7" }), contacts);
    assert.deepEqual(like.outcome, [{ contactId: "900", rank: 1, score: 0.8, brief: "VP Sales at Beta", referencePersonId: "7" }]);
    const recommended = {
      data: [
        { id: "901", type: "ContactRecommendation", attributes: { rank: 1, score: 0.7, reRankingScore: -1 } },
        { id: "902", type: "ContactRecommendation", attributes: { rank: 2, score: 0.6, reRankingScore: 0.4, recommendedPersonBrief: "CFO" } },
      ],
    };
    const rec = await sent("production", (c) => c.contactRecommendations({ companyId: "42", useCase: "DEAL_ACCELERATION" }), recommended);
    assert.deepEqual(rec.outcome, [
      { contactId: "901", companyId: "42", rank: 1, score: 0.7, reRankingScore: -1 },
      { contactId: "902", companyId: "42", rank: 2, score: 0.6, reRankingScore: 0.4, brief: "CFO" },
    ]);
  });

  it("an answer of the wrong shape is an invalid response, not a record", async () => {
    const wrong: [(c: ServiceClient) => Promise<unknown>, unknown][] = [
      [(c) => c.accountBriefing("42"), { data: { id: "42", type: "AccountSummary", attributes: {} } }],
      [(c) => c.accountBriefing("42"), { data: { id: 42, type: "AccountSummary", attributes: { markdown: "#" } } }],
      [(c) => c.companyLookalikes({ companyId: "42" }), { data: [{ id: "1", type: "CompanyLookalike", attributes: { companyName: "X", score: "high" } }] }],
      [(c) => c.contactRecommendations({ companyId: "42", useCase: "PROSPECTING" }), { data: [{ id: "1", type: "ContactLookalike", attributes: {} }] }],
    ];
    for (const [run, body] of wrong) {
      const { outcome } = await sent("production", run, body);
      assert.ok(isServiceError(outcome), String(outcome));
      assert.equal(outcome.kind, "invalidResponse");
    }
  });

  it("a briefing that failed with a server error is not sent again (it may have cost a credit); lookalikes are", async () => {
    const briefing = harness(() => answer(500, { errors: [{ id: "e1", code: "PFAPI0007", status: "500", title: "Internal Server Error" }] }), {
      profile: "production",
    });
    const refused = await rejection(briefing.clock.run(briefing.client.accountBriefing("42")));
    assert.ok(isServiceError(refused));
    assert.equal(refused.kind, "server");
    assert.equal(briefing.requests.length, 1);

    let calls = 0;
    const free = harness(() => (++calls === 1 ? answer(500, { errors: [{ id: "e1", code: "PFAPI0007", status: "500" }] }) : answer(200, lookalikes)), {
      profile: "production",
    });
    const found = await free.clock.run(free.client.companyLookalikes({ companyId: "42" }));
    assert.equal(found.length, 2);
    assert.equal(free.requests.length, 2);
  });

  it("no AI action credit left: the service's refusal says so in the user's terms, with its reference", async () => {
    const body = {
      errors: [
        { id: "ref-1", code: "PFAPI0011", status: "400", title: "Bad Request", detail: "Credit Limit Reached: no AI action credits are left for research." },
      ],
    };
    const { client } = harness(() => answer(400, body), { profile: "specification" });
    const error = await rejection(client.askAccount("42", "Revenue?"));
    assert.ok(isServiceError(error));
    assert.match(errorText(error), /no AI action credits left/);
    assert.match(errorText(error), /ref-1/);
  });

  it("usage: the AI action credits as aiActions (limit, used, remaining), when the account lists them", async () => {
    const usage = (entries: unknown[]) => ({ data: [{ id: "u", type: "UserUsage", attributes: { usage: entries } }] });
    const record = { limitType: "record", totalLimit: 100, currentUsage: 1, usageRemaining: 99 };
    const ai = { limitType: "aiAction", description: "AI action credits", totalLimit: 250, currentUsage: 3, usageRemaining: 247 };
    const withAi = harness(() => answer(200, usage([record, ai])));
    assert.deepEqual((await withAi.client.usage()).aiActions, { limit: 250, used: 3, remaining: 247 });
    const without = harness(() => answer(200, usage([record])));
    assert.equal((await without.client.usage()).aiActions, undefined);
  });
});
