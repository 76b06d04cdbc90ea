// The panel renders its first screen from its props alone (server rendering: no DOM needed).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { renderToStaticMarkup } from "react-dom/server";
import { FluentProvider, webLightTheme } from "@fluentui/react-components";
import { createEnrichmentEngine, type SelectionSource } from "../../../src/core/enrich/index.js";
import { EnrichSelectionPanel } from "../../../src/taskpane/enrich/EnrichSelectionPanel.js";
import { FakeEnrichClient } from "../../core/enrich/fakeClient.js";

describe("EnrichSelectionPanel", () => {
  it("offers the company fields with defaults chosen, the check button and the spending controls", () => {
    const engine = createEnrichmentEngine({ client: new FakeEnrichClient() });
    const source: SelectionSource = {
      readIds: async () => ({ ok: false, message: "unused" }),
      writeColumns: async () => ({ status: "written", address: "" }),
    };
    const html = renderToStaticMarkup(
      <FluentProvider theme={webLightTheme}>
        <EnrichSelectionPanel engine={engine} source={source} />
      </FluentProvider>,
    );
    assert.match(html, /Check selection/);
    assert.match(html, /Fields \(5 chosen\)/);
    assert.match(html, /Revenue \(\$K\)/);
    assert.match(html, /New records per day/);
    assert.match(html, /Clear cache/);
    // Every kind keyed by company is offered with its declaration's label, hashtags among them.
    for (const label of ["Intent scores", "Scoops", "News", "Technologies", "Hashtags"]) assert.match(html, new RegExp(`${label} of the companies`));
  });
});
