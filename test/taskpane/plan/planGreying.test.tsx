// The pane greys what the account's plan lacks, with the reason in words, before anyone tries:
// the Signals tab's kinds, Enrich selection's signal kinds, a search filter, the research parts,
// the audience writes; the usage gauge shows the plan's limits. No plan: nothing greyed.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { FluentProvider, webLightTheme } from "@fluentui/react-components";
import { createPlanSource, type PlanSource } from "../../../src/core/plan/index.js";
import type { EntitlementOperations } from "../../../src/core/api/entitlementTypes.js";
import { ServicesProvider, type TaskPaneServices } from "../../../src/taskpane/services.js";
import { SavedSearchesProvider } from "../../../src/taskpane/saved/useSavedSearches.js";
import { SignalsTab } from "../../../src/taskpane/signals/SignalsTab.js";
import { ResearchTab } from "../../../src/taskpane/research/ResearchTab.js";
import { AudienceSendPanel, type AudienceSendProps } from "../../../src/taskpane/audiences/AudienceSendPanel.js";
import { SignalKindChoice } from "../../../src/taskpane/enrich/SignalKindChoice.js";
import { FilterForm } from "../../../src/taskpane/search/FilterForm.js";
import { PlanLimits } from "../../../src/taskpane/usage/UsageGauge.js";
import { useRefusedFilters } from "../../../src/taskpane/entitledFields.js";
import { COMPANY_FILTERS } from "../../../src/core/contract/index.js";
import { USERS, rowsOf } from "../../core/plan/planFixtures.js";

/** A plan source holding the basic user's plan (revenue refused as a filter), or none (no scope). */
async function planOf(user: "basic" | "none"): Promise<PlanSource> {
  const client: EntitlementOperations = {
    getEntitlements: async (type) => {
      if (user === "none") throw Object.assign(new Error("Forbidden"), { kind: "forbidden" });
      return rowsOf(USERS.basic, type);
    },
    searchInputFields: async () => [{ fieldName: "revenueMin", accessGranted: false }],
  };
  const plan = createPlanSource({ client, user: () => "user-basic" });
  await plan.refresh();
  return plan;
}

function render(plan: PlanSource, node: ReactNode): string {
  // Research's parts are only drawn here (no effect runs on the server): any call answers nothing.
  const research = new Proxy({}, { get: () => async () => undefined });
  const services = {
    runtime: { client: {}, plan, research, engine: {} },
    workbook: { kind: "browser", supportsSelection: false },
  } as unknown as TaskPaneServices;
  const html = renderToStaticMarkup(
    <FluentProvider theme={webLightTheme}>
      <ServicesProvider value={services}>
        {/* As in the pane: the Signals tab's parts may read the saved searches. */}
        <SavedSearchesProvider>{node}</SavedSearchesProvider>
      </ServicesProvider>
    </FluentProvider>,
  );
  return html.replace(/<style[^>]*>[^<]*<\/style>/g, "");
}

/** The radio of a label, as rendered: its input tag. */
const radio = (html: string, label: string) => {
  const id = new RegExp(`<label[^>]*for="([^"]+)"[^>]*>${label}</label>`).exec(html)?.[1];
  assert.ok(id, `a radio labelled ${label}`);
  return new RegExp(`<input[^>]*id="${id}"[^>]*>`).exec(html)?.[0] ?? "";
};

function RevenueFilter() {
  const refused = useRefusedFilters("company");
  const specs = { revenueMin: COMPANY_FILTERS.revenueMin! };
  return <FilterForm specs={specs} values={{}} messages={{}} onChange={() => undefined} refused={refused} />;
}

describe("the pane and the plan", () => {
  it("the Signals tab greys intent with the reason, and shows the first kind the plan allows", async () => {
    const html = render(await planOf("basic"), <SignalsTab />);
    assert.match(radio(html, "Buyer intent"), /disabled/);
    assert.doesNotMatch(radio(html, "Scoops"), /disabled/);
    assert.match(html, /Intent signals are not in your account&#x27;s plan\. Ask your administrator to add them\./);
    assert.match(radio(html, "Scoops"), /checked/);
    // Insights need fea:gtmpl, which the basic plan lacks: the button is greyed and the reason said.
    assert.match(html, /Insights are not in your account&#x27;s plan\./);
    assert.match(html, /<button[^>]*disabled[^>]*>Get insights<\/button>/);
  });

  it("Enrich selection greys the intent kind; a filter the search lookup refuses is greyed with the reason", async () => {
    const plan = await planOf("basic");
    const kinds = render(plan, <SignalKindChoice value="scoops" busy={false} onChange={() => undefined} onTopics={() => undefined} />);
    assert.match(radio(kinds, "Intent scores of the companies"), /disabled/);
    assert.doesNotMatch(radio(kinds, "Scoops of the companies"), /disabled/);
    const filter = render(plan, <RevenueFilter />);
    assert.match(filter, /This filter is not in your account&#x27;s plan/);
    assert.match(filter, /<input[^>]*disabled/);
  });

  it("the Research tab greys briefings and questions with the reason; sending a table to an audience is greyed without lim:wkb", async () => {
    const html = render(await planOf("basic"), <ResearchTab />);
    assert.match(radio(html, "Briefing"), /disabled/);
    assert.match(radio(html, "Lookalikes"), /checked/);
    assert.match(html, /Briefings are not in your account&#x27;s plan/);
    assert.match(html, /Questions on an account are not in your account&#x27;s plan/);
    const noAudiences = createPlanSource({
      client: { getEntitlements: async (type) => rowsOf(USERS.basic, type).filter((r) => r.roleCode !== "lim:wkb"), searchInputFields: async () => [] },
      user: () => "user-basic",
    });
    await noAudiences.refresh();
    const send = render(noAudiences, <AudienceSendPanel {...({} as AudienceSendProps)} />);
    assert.match(send, /Creating and changing audiences is not in your account&#x27;s plan\. Ask your administrator to add it\./);
    assert.match(/<button[^>]*>Read table<\/button>/.exec(send)?.[0] ?? "", /disabled/);
    assert.doesNotMatch(render(await planOf("basic"), <AudienceSendPanel {...({} as AudienceSendProps)} />), /not in your account/);
  });

  it("the usage gauge shows the plan's limits", async () => {
    const html = render(await planOf("basic"), <PlanLimits />);
    assert.match(html, /Your plan: 10,000 credits for new records · 500 AI action credits · 25 audiences/);
  });

  it("without a plan (no entitlement scope) nothing is greyed and no limit is shown", async () => {
    const plan = await planOf("none");
    const html = render(plan, <SignalsTab />);
    assert.doesNotMatch(radio(html, "Buyer intent"), /disabled/);
    assert.doesNotMatch(html, /not in your account/);
    assert.doesNotMatch(html, /<button[^>]*disabled[^>]*>Get insights<\/button>/);
    assert.doesNotMatch(render(plan, <PlanLimits />), /Your plan/);
    assert.doesNotMatch(render(plan, <RevenueFilter />), /not in your account/);
  });
});
