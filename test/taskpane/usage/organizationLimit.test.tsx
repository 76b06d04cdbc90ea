// The organization-limit parts of the pane, rendered on the server from a client's pacing status.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { renderToStaticMarkup } from "react-dom/server";
import { FluentProvider, webLightTheme } from "@fluentui/react-components";
import type { PacingStatus } from "../../../src/core/api/index.js";
import { ServicesProvider, type TaskPaneServices } from "../../../src/taskpane/services.js";
import { OrganizationBudgets, OrganizationBudgetWarning, OrganizationLimitNotice } from "../../../src/taskpane/usage/OrganizationLimit.js";

function render(status: PacingStatus, node: React.ReactNode): string {
  const client = { pacing: () => status, onPacingChange: () => () => undefined };
  const services = { runtime: { client } } as unknown as TaskPaneServices;
  return renderToStaticMarkup(
    <FluentProvider theme={webLightTheme}>
      <ServicesProvider value={services}>{node}</ServicesProvider>
    </FluentProvider>,
  );
}

const calm: PacingStatus = { perSecond: 25, maxPerSecond: 25, waitingForOrganization: false, budgets: {} };

describe("organization limit in the pane", () => {
  it("says bulk work waits for the organization's rate limit, only while it does", () => {
    assert.match(render({ ...calm, waitingForOrganization: true }, <OrganizationLimitNotice busy />), /Waiting for your organization&#x27;s rate limit/);
    assert.doesNotMatch(render(calm, <OrganizationLimitNotice busy />), /Waiting/);
    assert.doesNotMatch(render({ ...calm, waitingForOrganization: true }, <OrganizationLimitNotice busy={false} />), /Waiting/);
  });

  it("shows the hour and day budgets and warns when a plan needs more", () => {
    const budgets = { hour: { limit: 54000, remaining: 300, readAt: 0 }, day: { limit: 648000, remaining: 600000, readAt: 0 } };
    const html = render({ ...calm, budgets }, <OrganizationBudgets />);
    assert.match(html, /300 of 54,000 requests left this hour/);
    assert.match(html, /600,000 of 648,000 requests left this day/);
    assert.match(render({ ...calm, budgets }, <OrganizationBudgetWarning requests={430} />), /has 300 left this hour/);
    assert.doesNotMatch(render({ ...calm, budgets }, <OrganizationBudgetWarning requests={200} />), /left this/);
  });

  it("renders nothing outside the pane's services", () => {
    const html = renderToStaticMarkup(<OrganizationLimitNotice busy />);
    assert.equal(html, "");
  });
});
