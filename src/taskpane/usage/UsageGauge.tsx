// A small gauge of the account's usage: requests, records and credits used and remaining. It
// follows spending through the runtime's usage-changed event (usageFeed), and Refresh reads it
// again on demand.
import { useMemo, useSyncExternalStore } from "react";
import { Button, Field, ProgressBar, makeStyles } from "@fluentui/react-components";
import { useServices } from "../services.js";
import { OrganizationBudgets } from "./OrganizationLimit.js";
import { barFraction, createUsageFeed } from "./usageFeed.js";

// The account's own figures (the organization's shared rate limit is the line below them).
const LABELS: Record<string, string> = { request: "Your requests today", record: "Credits", uniqueID: "Records under management" };
const useStyles = makeStyles({ gauge: { display: "grid", gap: "4px", gridTemplateColumns: "repeat(auto-fit, minmax(140px, 1fr))" } });

export function UsageGauge() {
  const styles = useStyles();
  const services = useServices();
  const { runtime } = services;
  const feed = useMemo(
    () =>
      createUsageFeed({
        usage: () => runtime.client.usage(),
        ...(services.onUsageChanged ? { onUsageChanged: services.onUsageChanged } : {}),
      }),
    // One feed per runtime (the services object itself is rebuilt on every render of the root).
    [runtime],
  );
  const { entries, problem } = useSyncExternalStore(feed.subscribe, feed.getSnapshot);

  return (
    <section aria-label="Account usage">
      <div className={styles.gauge}>
        {(entries ?? []).map((e) => {
          const share = e.totalLimit > 0 ? e.currentUsage / e.totalLimit : 0;
          const label = LABELS[e.limitType] ?? e.description ?? e.limitType;
          return (
            <Field
              key={e.limitType}
              label={label}
              validationState={share >= 0.9 ? "warning" : "none"}
              validationMessage={`${e.currentUsage.toLocaleString("en-US")} of ${e.totalLimit.toLocaleString("en-US")} used · ${e.usageRemaining.toLocaleString("en-US")} left`}
            >
              <ProgressBar
                value={barFraction(e.currentUsage, e.totalLimit)}
                max={1}
                thickness="large"
                color={share >= 0.9 ? "warning" : "brand"}
                aria-label={`${label} used`}
              />
            </Field>
          );
        })}
      </div>
      <OrganizationBudgets />
      {problem && <p role="status">Usage unavailable: {problem}</p>}
      <Button size="small" appearance="subtle" onClick={() => void feed.refresh()}>
        Refresh usage
      </Button>
    </section>
  );
}
