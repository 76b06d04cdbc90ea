// The pane's one column checkbox list, rendered from its props (server rendering): its legend,
// every choice with the chosen ones ticked (from a list or a set), a choice outside the plan
// listed but not choosable, and the keys after a tick or an untick.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { FluentProvider, webLightTheme } from "@fluentui/react-components";
import { ColumnCheckboxes, toggledKeys } from "../../src/taskpane/ColumnCheckboxes.js";

const html = (view: ReactElement) => renderToStaticMarkup(<FluentProvider theme={webLightTheme}>{view}</FluentProvider>);
/** Each checkbox's label, whether it is ticked and whether it can be changed, in order. */
const boxes = (markup: string) =>
  [...markup.matchAll(/<input([^>]*type="checkbox"[^>]*)\/?>.*?<label[^>]*>([^<]*)<\/label>/g)].map((m) => ({
    label: m[2],
    checked: /checked=""/.test(m[1]!),
    disabled: /disabled=""/.test(m[1]!),
  }));

const OPTIONS = [
  { key: "id", label: "Company ID" },
  { key: "name", label: "Name" },
  { key: "revenue", label: "Revenue ($K) (not in your account's plan)", disabled: true },
];

describe("ColumnCheckboxes", () => {
  it("lists every choice under its legend, the chosen ones ticked, from a list or a set", () => {
    for (const chosen of [["name"], new Set(["name"])]) {
      const shown = html(<ColumnCheckboxes legend="Columns (1 of 3 chosen)" options={OPTIONS} chosen={chosen} onToggle={() => undefined} />);
      assert.match(shown, /<legend>Columns \(1 of 3 chosen\)<\/legend>/);
      assert.deepEqual(boxes(shown), [
        { label: "Company ID", checked: false, disabled: false },
        { label: "Name", checked: true, disabled: false },
        { label: "Revenue ($K) (not in your account&#x27;s plan)", checked: false, disabled: true },
      ]);
    }
  });

  it("a tick adds the key at the end, an untick takes it out", () => {
    assert.deepEqual(toggledKeys(["name"], "id", true), ["name", "id"]);
    assert.deepEqual(toggledKeys(["name", "id"], "name", false), ["id"]);
  });
});
