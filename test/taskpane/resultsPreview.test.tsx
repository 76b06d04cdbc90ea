// The preview's words and controls: singular for one match, no paging buttons when everything
// fits one page (or nothing matched).
import { test } from "node:test";
import assert from "node:assert/strict";
import { renderToStaticMarkup } from "react-dom/server";
import { FluentProvider, webLightTheme } from "@fluentui/react-components";
import type { CompanyItem } from "../../src/core/contract/index.js";
import { ResultsPreview, type PreviewPage } from "../../src/taskpane/search/ResultsPreview.js";

const company = (id: string, name: string) => ({ id, type: "company", attributes: { name } }) as unknown as CompanyItem;

function render(page: PreviewPage): string {
  return renderToStaticMarkup(
    <FluentProvider theme={webLightTheme}>
      <ResultsPreview page={page} busy={false} onPage={() => {}} />
    </FluentProvider>,
  );
}

test("one match is said in the singular, without paging", () => {
  const html = render({ kind: "company", items: [company("1", "Acme")], totalResults: 1, pageNumber: 1, totalPages: 1 });
  assert.match(html, /1 company matches\./);
  assert.doesNotMatch(html, /Next page|Previous page|Page 1 of/);
  assert.match(render({ kind: "contact", items: [], totalResults: 1, pageNumber: 1, totalPages: 1 }), /1 contact matches\./);
});

test("an empty result shows no paging buttons", () => {
  const html = render({ kind: "company", items: [], totalResults: 0, pageNumber: 1, totalPages: 0 });
  assert.match(html, /0 companies match\./);
  assert.doesNotMatch(html, /Next page|Previous page/);
});

test("several pages show where the user is and the paging buttons", () => {
  const html = render({ kind: "company", items: [company("1", "Acme")], totalResults: 60, pageNumber: 2, totalPages: 3 });
  assert.match(html, /60 companies match\. Page 2 of 3\./);
  assert.match(html, /Next page/);
});
