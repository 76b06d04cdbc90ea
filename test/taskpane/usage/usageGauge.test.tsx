// The usage gauges, compact: one summary line with every limit's use (a nearly used one marked),
// the gauges with what is left behind its disclosure, closed at first so the task shows first.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { renderToStaticMarkup } from "react-dom/server";
import { FluentProvider, webLightTheme } from "@fluentui/react-components";
import type { UsageEntry } from "../../../src/core/contract/index.js";
import { ServicesProvider, type TaskPaneServices } from "../../../src/taskpane/services.js";
import { Gauge, UsageGauge, UsageSummary } from "../../../src/taskpane/usage/UsageGauge.js";

const entry = (limitType: string, currentUsage: number, totalLimit: number): UsageEntry =>
  ({ limitType, description: limitType, currentUsage, totalLimit, usageRemaining: totalLimit - currentUsage }) as UsageEntry;
const ENTRIES = [entry("request", 53, 50_000), entry("record", 120, 10_000), entry("uniqueID", 4_600, 5_000)];

const html = (node: React.ReactNode) => renderToStaticMarkup(<FluentProvider theme={webLightTheme}>{node}</FluentProvider>);
const text = (markup: string) => markup.replace(/<style[^>]*>[^<]*<\/style>/g, "").replace(/<[^>]+>/g, "");

describe("usage gauges", () => {
  it("sum up every limit on one line, the nearly used one marked", () => {
    const summary = text(html(<UsageSummary entries={ENTRIES} />));
    assert.equal(summary, "Usage: Your requests 53 of 50,000 used · Credits 120 of 10,000 used · Records 4,600 of 5,000 used (nearly all)");
  });

  it("keep what is left in the gauge behind the summary", () => {
    const gauge = text(html(<Gauge entry={ENTRIES[2]!} />));
    assert.match(gauge, /Records under management/);
    assert.match(gauge, /4,600 of 5,000 used · 400 left/);
  });

  it("start closed: the summary, then the tabs", () => {
    const services = {
      runtime: { client: { usage: () => new Promise(() => undefined), pacing: () => ({ budgets: {} }), onPacingChange: () => () => undefined } },
    };
    const markup = html(<ServicesProvider value={services as unknown as TaskPaneServices}>{<UsageGauge />}</ServicesProvider>);
    assert.match(markup, /<details><summary[^>]*>Usage<\/summary>/, "a closed disclosure whose summary comes first");
    assert.match(markup, /Refresh usage/, "Refresh is inside it");
  });
});
