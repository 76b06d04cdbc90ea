// The pane's one progress view and one estimate-and-confirm view, rendered from their props
// (server rendering: no DOM needed): the count of total, Cancel only where a run can stop, and
// Confirm held back when there is nothing to run.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { FluentProvider, webLightTheme } from "@fluentui/react-components";
import { EstimateConfirm } from "../../../src/taskpane/run/EstimateConfirm.js";
import { countOf, RunProgress } from "../../../src/taskpane/run/RunProgress.js";

const html = (view: ReactElement) => renderToStaticMarkup(<FluentProvider theme={webLightTheme}>{view}</FluentProvider>);
const buttons = (markup: string) => [...markup.matchAll(/<button[^>]*>([^<]*)<\/button>/g)].map((m) => ({ text: m[1], disabled: /disabled=""/.test(m[0]) }));

describe("run views", () => {
  it("the progress says the count of total and offers Cancel only when the run can stop", () => {
    const shown = html(<RunProgress label={countOf(3, 1200, "briefings")} done={3} total={1200} barLabel="briefings progress" onCancel={() => undefined} />);
    assert.match(shown, /3 of 1,200 briefings/);
    assert.match(shown, /aria-label="briefings progress"/);
    assert.deepEqual(buttons(shown), [{ text: "Cancel", disabled: false }]);
    const detailed = html(<RunProgress label="Enriching" detail="2 of 4 ids · 1 of 1 requests" done={2} total={4} barLabel="Enrichment progress" />);
    assert.match(detailed, /Enriching/);
    assert.match(detailed, /2 of 4 ids · 1 of 1 requests/);
    assert.deepEqual(buttons(detailed), []);
  });

  it("the estimate shows its cost, then Confirm and Cancel (or Back); Confirm waits when nothing can run", () => {
    const view = (canConfirm: boolean, busy = false) =>
      html(
        <EstimateConfirm
          label="Estimate"
          confirmLabel="Get briefings"
          canConfirm={canConfirm}
          busy={busy}
          onConfirm={() => undefined}
          onCancel={() => undefined}
        >
          <p>6 briefings: 12 AI credits; 2 reused (free).</p>
        </EstimateConfirm>,
      );
    assert.match(view(true), /6 briefings: 12 AI credits; 2 reused \(free\)\./);
    assert.deepEqual(buttons(view(true)), [
      { text: "Get briefings", disabled: false },
      { text: "Cancel", disabled: false },
    ]);
    assert.deepEqual(buttons(view(false)), [
      { text: "Get briefings", disabled: true },
      { text: "Cancel", disabled: false },
    ]);
    assert.deepEqual(buttons(view(true, true)), [
      { text: "Get briefings", disabled: true },
      { text: "Cancel", disabled: true },
    ]);
    const back = html(
      <EstimateConfirm label="Plan" role="region" cancelLabel="Back" confirmLabel="Send 3 rows" onConfirm={() => undefined} onCancel={() => undefined}>
        <p>Sending costs no credits.</p>
      </EstimateConfirm>,
    );
    assert.match(back, /role="region" aria-label="Plan"/);
    assert.deepEqual(
      buttons(back).map((b) => b.text),
      ["Send 3 rows", "Back"],
    );
  });
});
