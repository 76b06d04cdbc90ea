// What the pane says about the organization's rate limit, which every user of the organization
// shares: a notice while bulk work waits its turn on it (Cancel still works: the waiting
// requests leave at once), and the hour and day budgets the service last reported.
import { useMemo, useSyncExternalStore } from "react";
import { Text } from "@fluentui/react-components";
import { budgetShortfall, type PacingStatus, type ServiceClient } from "../../core/api/index.js";
import { Notice } from "../Notice.js";
import { useOptionalServices } from "../services.js";

type PacingSource = Pick<ServiceClient, "pacing" | "onPacingChange">;

const NOTHING_KNOWN: PacingStatus = { perSecond: 0, maxPerSecond: 0, waitingForOrganization: false, budgets: {} };
const noStore = { subscribe: () => () => undefined, getSnapshot: () => NOTHING_KNOWN };

/** The client's pacing as a React store: re-read when the client reports a change. */
function pacingStore(client: PacingSource) {
  let snapshot: PacingStatus = client.pacing();
  return {
    subscribe(onChange: () => void): () => void {
      return client.onPacingChange((status) => {
        snapshot = status;
        onChange();
      });
    },
    getSnapshot: () => snapshot,
  };
}

function usePacing(): PacingStatus {
  // Outside the pane's services (a panel rendered from its props alone) nothing is known.
  const runtime = useOptionalServices()?.runtime;
  const store = useMemo(() => (runtime ? pacingStore(runtime.client) : noStore), [runtime]);
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}

/** Shown under a running import or Enrich selection while it waits on the organization's limit. */
export function OrganizationLimitNotice({ busy }: { busy: boolean }) {
  const pacing = usePacing();
  if (!busy || !pacing.waitingForOrganization) return null;
  return (
    <Notice intent="info" role="status" testId="organization-limit-notice">
      Waiting for your organization&apos;s rate limit: others in your organization are using it too. This goes on by itself; your cells are served first. Cancel
      stops it.
    </Notice>
  );
}

const count = (n: number) => n.toLocaleString("en-US");

/** The organization's hour and day budgets, once an answer of the service has told them. */
export function OrganizationBudgets() {
  const { budgets } = usePacing();
  const lines = (["hour", "day"] as const).flatMap((bucket) => {
    const b = budgets[bucket];
    return b ? [`${count(b.remaining)} of ${count(b.limit)} requests left this ${bucket}`] : [];
  });
  if (lines.length === 0) return null;
  return (
    <Text as="p" size={200} data-testid="organization-budgets">
      Your organization (shared by everyone in it): {lines.join(" · ")}.
    </Text>
  );
}

/** Under a plan of `requests` requests: a warning when the organization's hour or day budget would not cover it. */
export function OrganizationBudgetWarning({ requests }: { requests: number }) {
  const { budgets } = usePacing();
  const shortfall = budgetShortfall(requests, budgets);
  if (!shortfall) return null;
  return (
    <Notice intent="warning" testId="organization-budget-warning">
      {shortfall}
    </Notice>
  );
}
