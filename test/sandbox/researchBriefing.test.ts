// The sandbox's briefing writer (src/sandbox/research/briefing.ts) on hostile data: text from the
// data never becomes markup (HTML, links, emphasis), only http(s) addresses become links, and a
// question is answered from the facts its words name.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { accountBriefingMarkdown, answerQuestion, contactBriefingMarkdown, escapeMarkdown, type CompanyDossier } from "../../src/sandbox/research/briefing.js";
import type { CompanyFacts, ContactFacts } from "../../src/sandbox/research/facts.js";

const company = (over: Partial<CompanyFacts> = {}): CompanyFacts => ({
  id: 7,
  name: "Acme Widgets",
  website: "http://www.acme.example",
  domain: "acme.example",
  city: "Austin",
  state: "Texas",
  country: "United States",
  industry: "Manufacturing",
  industries: ["Manufacturing", "Retail"],
  revenue: 52_300,
  revenueRange: "$50M - $100M",
  employees: 410,
  employeeRange: "250 - 500",
  foundedYear: 1999,
  ticker: null,
  description: "Acme makes widgets.",
  competitorIds: [],
  totalFunding: 0,
  ...over,
});

const dossier = (over: Partial<CompanyFacts> = {}, more: Partial<CompanyDossier> = {}): CompanyDossier => ({
  company: company(over),
  competitors: ["Globex"],
  signals: {
    intents: [{ topic: "Cloud Security", score: 88, strength: "A", date: "2026-06-01" }],
    scoops: [{ title: "Acme opens a new office", link: "https://scoops.sandbox.example/1", date: "2026-05-02" }],
    news: [{ title: "Acme wins an award", url: "https://www.news.example/news/7-0", domain: "news.example", date: "2026-04-03" }],
    technologies: [{ product: "Salesforce", vendor: "Salesforce" }],
  },
  ...more,
});

/** Every link target of a markdown text. */
const targets = (markdown: string) => [...markdown.matchAll(/(?<!\\)\]\(([^)]*)\)/g)].map((m) => m[1]);

describe("the sandbox's briefings", () => {
  it("a briefing has the company's headings, facts and signals, with http(s) links", () => {
    const md = accountBriefingMarkdown(dossier());
    for (const heading of [
      "# Acme Widgets",
      "## Firmographics",
      "## Signals",
      "### Buyer intent",
      "### Scoops",
      "### News",
      "## Technologies",
      "## Competitors",
    ]) {
      assert.ok(md.split("\n").includes(heading), heading);
    }
    assert.match(md, /\*\*Revenue:\*\* about \$52\.3M \(\$50M - \$100M\)/);
    assert.match(md, /Cloud Security: score 88/);
    assert.deepEqual(targets(md), ["http://www.acme.example", "https://scoops.sandbox.example/1", "https://www.news.example/news/7-0"]);
  });

  it("markup in the data stays text: no HTML, no link, no emphasis is made of a name", () => {
    const hostile = "<img src=x onerror=alert(1)> [click](javascript:alert(1)) **bold** _x_ `code`\n# heading";
    const md = accountBriefingMarkdown(dossier({ name: hostile, description: hostile }, { competitors: [hostile] }));
    assert.ok(!/(?<!\\)<img/.test(md), "no raw HTML: every < is escaped");
    assert.ok(!/(?<!\\)\]\(javascript:/.test(md), "no javascript: link");
    assert.ok(!md.includes("**bold**") && !md.includes("`code`"));
    assert.deepEqual(targets(md), ["http://www.acme.example", "https://scoops.sandbox.example/1", "https://www.news.example/news/7-0"]);
    assert.equal(md.split("\n").filter((line) => line.startsWith("# ")).length, 1, "a newline in the data makes no heading");
    assert.equal(escapeMarkdown("a*b_c[d](e)<f>#g"), "a\\*b\\_c\\[d\\]\\(e\\)\\<f\\>\\#g");
  });

  it("only http(s) addresses become links: a website or news address of another scheme is text", () => {
    const md = accountBriefingMarkdown(
      dossier(
        { website: "javascript:alert(1)" },
        {
          signals: {
            intents: [],
            scoops: [
              { title: "A scoop", link: "data:text/html,<b>x</b>", date: "2026-01-01" },
              { title: "Mail us", link: "mailto:someone@example.com", date: "2026-01-02" },
            ],
            news: [{ title: "News", url: "https://ok.example/a b", domain: "ok.example", date: "2026-01-01" }],
            technologies: [],
          },
        },
      ),
    );
    assert.deepEqual(targets(md), [], "no link at all");
    assert.match(md, /\*\*Website:\*\* acme\.example\n/, "the website as text");
    assert.match(md, /- A scoop \(2026-01-01\)/);
    assert.match(md, /No intent signals/);
  });

  it("a question is answered from the facts its words name, else with what is known", () => {
    const d = dossier();
    assert.equal(answerQuestion(d, "What is their revenue?"), "Acme Widgets's revenue is about $52.3M ($50M - $100M).");
    assert.match(answerQuestion(d, "How many employees, and who are the competitors?"), /about 410 employees.*competitors include Globex/);
    assert.match(answerQuestion(d, "Any news lately?"), /"Acme wins an award" \(news\.example, 2026-04-03\)/);
    assert.match(answerQuestion(d, "Which technologies do they use?"), /uses Salesforce/);
    assert.match(
      answerQuestion(d, "Is the CEO nice?"),
      /does not answer that question directly\. What is known: Acme Widgets is in Manufacturing, based in Austin, Texas, United States/,
    );
  });

  it("a contact's briefing names the role and the company, escaped", () => {
    const contact: ContactFacts = {
      id: 3,
      companyId: 7,
      companyName: "Acme *Widgets*",
      firstName: "Ada",
      lastName: "<b>Lovelace</b>",
      jobTitle: "VP of Engineering",
      managementLevel: "VP-Level",
      department: "Engineering & Technical",
      jobFunction: "Engineering Management",
      city: "Austin",
      country: "United States",
      accuracy: 95,
    };
    const md = contactBriefingMarkdown(contact, dossier());
    assert.ok(md.startsWith("# Ada \\<b\\>Lovelace\\</b\\>\n"));
    assert.match(md, /\*\*Title:\*\* VP of Engineering/);
    assert.match(md, /\*\*Company:\*\* Acme \\\*Widgets\\\*/);
    assert.ok(md.includes("## About Acme Widgets"));
  });
});
