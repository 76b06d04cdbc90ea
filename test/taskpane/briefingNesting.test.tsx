// Hostile nesting in a briefing (issue 39): 5,000 nested quotes or 1,000 nested list items render
// with their text and at most 8 levels instead of overflowing the stack and blanking the pane; an
// ordinary briefing is untouched. And the error boundary every panel renders in: a part that
// fails shows a short message with "Try again" in its place, the rest renders as before.
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { renderToStaticMarkup } from "react-dom/server";
import { FluentProvider, webLightTheme } from "@fluentui/react-components";
import { BriefingView } from "../../src/taskpane/research/BriefingView.js";
import { MAX_EMPHASIS_MARKS, MAX_NESTING, flattenNestingText, flattenTree } from "../../src/taskpane/research/flattenNesting.js";
import { ErrorBoundary } from "../../src/taskpane/ErrorBoundary.js";

const render = (markdown: string) =>
  renderToStaticMarkup(
    <FluentProvider theme={webLightTheme}>
      <BriefingView markdown={markdown} label="Briefing" />
    </FluentProvider>,
  );

/** The deepest nesting of quotes, lists and inline formatting in rendered HTML. */
function nesting(html: string): number {
  let depth = 0;
  let deepest = 0;
  for (const tag of html.matchAll(/<(\/?)(blockquote|ul|ol|em|strong|a)\b/g)) {
    depth += tag[1] ? -1 : 1;
    deepest = Math.max(deepest, depth);
  }
  return deepest;
}

describe("a briefing nested too deep", () => {
  it("5,000 nested quotes render with their text, 8 levels deep", () => {
    const html = render(`${"> ".repeat(5000)}The deepest quote`);
    assert.match(html, /The deepest quote/);
    assert.equal(nesting(html), MAX_NESTING);
  });

  it("1,000 nested list items (by indentation, and all on one line) render with every item, 8 levels deep", () => {
    const indented = render(Array.from({ length: 1000 }, (_, i) => `${"  ".repeat(i)}- item ${i}`).join("\n"));
    assert.match(indented, /item 0(?!\d)/);
    assert.match(indented, /item 999(?!\d)/);
    assert.ok(nesting(indented) <= MAX_NESTING, `nesting ${nesting(indented)}`);
    const oneLine = render(`${"- ".repeat(1000)}last`);
    assert.match(oneLine, /last/);
    assert.equal(nesting(oneLine), MAX_NESTING);
  });

  it("before parsing, a line keeps at most 8 quote and list markers and 16 columns of indentation, and all of its text", () => {
    assert.equal(flattenNestingText(`${"> ".repeat(5000)}deep`), `${"> ".repeat(8)}deep`);
    assert.equal(flattenNestingText(`${"- > ".repeat(100)}mixed\n${" ".repeat(2000)}- item`), `${"- > ".repeat(4)}mixed\n${" ".repeat(16)}- item`);
    assert.equal(flattenNestingText(`\t\t\t\t\t1. tabbed`), `${" ".repeat(16)}1. tabbed`);
  });

  it("3,000 nested emphases keep their first 500 marks; the others are escaped and show as characters", () => {
    const emphases = `${"*a ".repeat(3000)}x${" b*".repeat(3000)}`;
    const flat = flattenNestingText(emphases);
    assert.equal(flat.match(/(?<!\\)\*/g)?.length, MAX_EMPHASIS_MARKS);
    assert.equal(flat.replace(/\\\*/g, "*"), emphases, "only backslashes are added");
    const escaped = "\\*".repeat(600) + "_".repeat(10);
    assert.equal(flattenNestingText(escaped), escaped, "escaped marks are neither counted nor escaped again");
  });

  it("a parsed tree of any depth is flattened to 8 levels without recursion, its content kept in order", () => {
    const leaf = { type: "paragraph", children: [{ type: "text" }] };
    let tree: { type: string; children?: unknown[] } = leaf;
    for (let i = 0; i < 100_000; i++) tree = { type: i % 2 ? "blockquote" : "emphasis", children: [tree] };
    const root = { type: "root", children: [tree] };
    flattenTree(root as never);
    let levels = 0;
    let node: { type: string; children?: unknown[] } = root;
    while (node.children?.length) {
      node = node.children[0] as typeof node;
      if (node.type === "blockquote" || node.type === "emphasis") levels++;
    }
    assert.equal(levels, MAX_NESTING);
    assert.equal(node, leaf.children[0], "the innermost content is still there");
  });

  it("leaves an ordinary briefing as it is", () => {
    const briefing = [
      "# Acme Corp",
      "",
      "> Quoted from the annual report:",
      "> > the board's note",
      "",
      "- Products",
      "  - Cloud",
      "    1. Storage",
      "    2. Compute",
      "- **Revenue:** _$12M_ ([source](https://acme.example))",
      "",
      "```",
      "        indented code stays",
      "```",
    ].join("\n");
    assert.equal(flattenNestingText(briefing), briefing);
    assert.match(render(briefing), /<ol>\s*<li>Storage<\/li>/);
  });
});

describe("ErrorBoundary", () => {
  it("renders its part as long as nothing fails", () => {
    const html = renderToStaticMarkup(
      <ErrorBoundary label="the preview">
        <p>Five companies</p>
      </ErrorBoundary>,
    );
    assert.equal(html, "<p>Five companies</p>");
  });

  it("after a render failure shows a short message naming the part, with Try again, and Try again shows the part anew", () => {
    const boundary = new ErrorBoundary({ label: "the briefing", children: <p>Briefing</p> });
    boundary.state = ErrorBoundary.getDerivedStateFromError();
    const html = renderToStaticMarkup(<FluentProvider theme={webLightTheme}>{boundary.render()}</FluentProvider>);
    assert.match(html, /role="alert"/);
    assert.match(html, /Something in the briefing could not be shown\. The rest of the pane still works: try again, or go on with another tab\./);
    assert.match(html, />Try again<\/button>/);
    assert.doesNotMatch(html, /Briefing</);
    let next: unknown;
    boundary.setState = (state: unknown) => void (next = state);
    boundary.retry();
    boundary.state = next as typeof boundary.state;
    assert.equal(renderToStaticMarkup(<>{boundary.render()}</>), "<p>Briefing</p>");
  });
});
