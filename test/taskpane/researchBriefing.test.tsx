// A briefing as the pane renders it: formatted text (headings, lists, emphasis), raw HTML in the
// markdown never rendered, links only to http(s) addresses and opening in a new window, images
// not loaded; and research tables' rows typed and text-safe.
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { renderToStaticMarkup } from "react-dom/server";
import { FluentProvider, webLightTheme } from "@fluentui/react-components";
import { BriefingView, safeHref } from "../../src/taskpane/research/BriefingView.js";
import { briefingRows, contactRows, CONTACT_RECOMMENDATION_COLUMNS, lookalikeRows, LOOKALIKE_COLUMNS } from "../../src/core/research/index.js";

const render = (markdown: string, fetchedAt?: number) =>
  renderToStaticMarkup(
    <FluentProvider theme={webLightTheme}>
      <BriefingView markdown={markdown} label="Briefing" {...(fetchedAt !== undefined ? { fetchedAt } : {})} />
    </FluentProvider>,
  );

describe("BriefingView", () => {
  it("renders the briefing's markdown as formatted text", () => {
    const html = render("# Acme Corp\n\n**Industry:** Software\n\n- 500 employees\n- [Website](https://acme.example/about)");
    assert.match(html, /<h1>Acme Corp<\/h1>/);
    assert.match(html, /<strong>Industry:<\/strong> Software/);
    assert.match(html, /<li>500 employees<\/li>/);
    assert.match(html, /<a href="https:\/\/acme.example\/about" target="_blank" rel="noopener noreferrer">Website<\/a>/);
  });

  it("says when the briefing was fetched (one fetched before is reused)", () => {
    assert.match(render("# Acme", Date.UTC(2026, 5, 15, 23, 30)), />Fetched 2026-06-15<\/p>/);
    assert.doesNotMatch(render("# Acme"), /Fetched/);
  });

  it("never renders raw HTML, keeps only http(s) links and loads no image", () => {
    const html = render(
      '<script>alert(1)</script>\n\nText <b onclick="x()">bold</b> <img src=x onerror="alert(2)">\n\n[click](javascript:alert(3)) [data](data:text/html,hi) [mail](mailto:a@b.c)\n\n![pixel](https://tracker.example/p.gif)',
    );
    assert.doesNotMatch(html, /<script|<b |onclick|onerror|<img/);
    assert.doesNotMatch(html, /javascript:|data:text|mailto:/);
    assert.match(html, /<span>click<\/span>/, "a link to anything but http(s) keeps its text, not its address");
    assert.match(html, /Text\s+bold/, "the text of dropped HTML tags stays as text");
    assert.equal(safeHref("javascript:alert(1)"), "");
    assert.equal(safeHref("http://example.com/a b"), "http://example.com/a%20b");
  });
});

describe("research tables", () => {
  it("writes ids and scores as numbers and service strings as text, formulas included", () => {
    const [row] = lookalikeRows(
      [
        {
          companyId: "42",
          companyName: '=HYPERLINK("http://x")',
          score: 0.875,
          rank: 1,
          seeds: ["7", "9"],
          industry: "Software",
          revenueRange: "",
          employeeRange: "",
          country: "",
        },
      ],
      LOOKALIKE_COLUMNS,
    );
    assert.deepEqual(row!.slice(0, 5), [1, 42, '=HYPERLINK("http://x")', 0.875, "7, 9"]);
    assert.equal(LOOKALIKE_COLUMNS[2]!.type, "text", "written with the text format, so it stays text in Excel");
    const [contact] = contactRows(
      [
        {
          accountId: "42",
          rank: 1,
          contactId: "9001",
          score: 0.5,
          reRankingScore: -1,
          brief: "+1 555 CFO",
          contactName: "=Ada",
          jobTitle: "CFO",
          companyName: "Acme",
        },
      ],
      CONTACT_RECOMMENDATION_COLUMNS,
    );
    assert.deepEqual(contact, [42, 1, 9001, "=Ada", "CFO", "Acme", 0.5, "+1 555 CFO", -1]);
    assert.deepEqual(briefingRows({ companyId: "42", markdown: "# Acme\n\n- one\n" }), [
      [42, "# Acme"],
      [42, "- one"],
    ]);
  });
});
