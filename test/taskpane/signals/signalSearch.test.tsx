// The Signals tab's search form on a fresh pane: nothing filled, nothing pressed, so no "Fix
// before inserting" yet (Insert stays disabled until the search is complete).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { renderToStaticMarkup } from "react-dom/server";
import { FluentProvider, webLightTheme } from "@fluentui/react-components";
import { ServicesProvider, type TaskPaneServices } from "../../../src/taskpane/services.js";
import { SignalSearch } from "../../../src/taskpane/signals/SignalSearch.js";

const services = { runtime: { client: {} }, workbook: { kind: "browser", supportsSelection: false } } as unknown as TaskPaneServices;
const render = (family: "intent" | "scoops" | "news") =>
  renderToStaticMarkup(
    <FluentProvider theme={webLightTheme}>
      <ServicesProvider value={services}>
        <SignalSearch family={family} />
      </ServicesProvider>
    </FluentProvider>,
  );

describe("a fresh signal search form", () => {
  for (const family of ["intent", "scoops", "news"] as const)
    it(`${family}: no "Fix before" message before the user has done anything`, () => {
      const html = render(family);
      assert.match(html, /Insert into sheet/);
      assert.doesNotMatch(html, /Fix before/);
    });
});
