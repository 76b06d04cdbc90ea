// The account's usage, compact so the first screen shows the task: one summary line (requests,
// records and credits used) that opens the gauges with what is left, the organization's budgets
// and Refresh. It follows spending through the runtime's usage-changed event (usageFeed), and
// Refresh reads it again on demand.
import { useMemo, useSyncExternalStore } from "react";
import { Button, Field, ProgressBar, makeStyles, tokens } from "@fluentui/react-components";
import type { UsageEntry } from "../../core/contract/index.js";
import { useServices } from "../services.js";
import { OrganizationBudgets } from "./OrganizationLimit.js";
import { barFraction, createUsageFeed } from "./usageFeed.js";
import { planLimits } from "../../core/plan/index.js";
import { usePlan } from "../entitledFields.js";

// The account's own figures (the organization's shared rate limit is the line below them).
const LABELS: Record<string, string> = { request: "Your requests today", record: "Credits", uniqueID: "Records under management" };
/** The summary line's shorter names. */
const SHORT: Record<string, string> = { request: "Your requests", record: "Credits", aiAction: "AI credits", uniqueID: "Records" };
const useStyles = makeStyles({
  gauge: { display: "grid", gap: "4px", gridTemplateColumns: "repeat(auto-fit, minmax(140px, 1fr))", marginTop: "4px" },
  summary: { cursor: "pointer", fontSize: tokens.fontSizeBase200, lineHeight: tokens.lineHeightBase200, overflowWrap: "anywhere" },
  figure: { whiteSpace: "nowrap" },
  warning: { color: tokens.colorPaletteDarkOrangeForeground1, fontWeight: tokens.fontWeightSemibold },
});

const count = (n: number) => n.toLocaleString("en-US");
const nearlyUsed = (e: UsageEntry) => e.totalLimit > 0 && e.currentUsage / e.totalLimit >= 0.9;
const labelOf = (e: UsageEntry) => LABELS[e.limitType] ?? e.description ?? e.limitType;

/** One line: each limit's use ("Requests 53 of 50,000 used"), a nearly used one marked. */
export function UsageSummary({ entries }: { entries: readonly UsageEntry[] }) {
  const styles = useStyles();
  return (
    <summary className={styles.summary} data-testid="usage-summary">
      {entries.length === 0 ? "Usage" : "Usage: "}
      {entries.map((e, i) => (
        <span key={e.limitType} className={nearlyUsed(e) ? styles.warning : undefined} data-testid={`usage-${e.limitType}`}>
          {i > 0 ? " · " : ""}
          {SHORT[e.limitType] ?? labelOf(e)} <span className={styles.figure}>{`${count(e.currentUsage)} of ${count(e.totalLimit)} used`}</span>
          {nearlyUsed(e) ? " (nearly all)" : ""}
        </span>
      ))}
    </summary>
  );
}

/** A limit's gauge: used, of, left. */
export function Gauge({ entry: e }: { entry: UsageEntry }) {
  const label = labelOf(e);
  const warn = nearlyUsed(e);
  return (
    <Field
      label={label}
      validationState={warn ? "warning" : "none"}
      validationMessage={`${count(e.currentUsage)} of ${count(e.totalLimit)} used · ${count(e.usageRemaining)} left`}
    >
      <ProgressBar
        value={barFraction(e.currentUsage, e.totalLimit)}
        max={1}
        thickness="large"
        color={warn ? "warning" : "brand"}
        aria-label={`${label} used`}
      />
    </Field>
  );
}

/** The plan's limits beside the usage (read from its entitlements): nothing while the plan is unknown. */
export function PlanLimits() {
  const styles = useStyles();
  const limits = planLimits(usePlan());
  const parts = [
    limits.bulkCredits !== undefined ? `${count(limits.bulkCredits)} credits for new records` : undefined,
    limits.aiCredits !== undefined ? `${count(limits.aiCredits)} AI action credits` : undefined,
    limits.audiences !== undefined ? `${count(limits.audiences)} audiences` : undefined,
  ].filter((p) => p !== undefined);
  if (parts.length === 0) return null;
  return (
    <p className={styles.summary} data-testid="plan-limits">
      Your plan: {parts.join(" · ")}
    </p>
  );
}

export function UsageGauge() {
  const styles = useStyles();
  const services = useServices();
  const { runtime } = services;
  const feed = useMemo(
    () =>
      createUsageFeed({
        usage: () => runtime.client.usage(),
        refreshPlan: () => runtime.plan.refresh(),
        ...(services.onUsageChanged ? { onUsageChanged: services.onUsageChanged } : {}),
      }),
    // One feed per runtime (the services object itself is rebuilt on every render of the root).
    [runtime],
  );
  const { entries, problem } = useSyncExternalStore(feed.subscribe, feed.getSnapshot, feed.getSnapshot);

  return (
    <section aria-label="Account usage">
      <details>
        <UsageSummary entries={entries ?? []} />
        <div className={styles.gauge}>
          {(entries ?? []).map((e) => (
            <Gauge key={e.limitType} entry={e} />
          ))}
        </div>
        <PlanLimits />
        <OrganizationBudgets />
        <Button size="small" appearance="subtle" onClick={() => void feed.refresh()}>
          Refresh usage
        </Button>
      </details>
      {problem && <p role="status">Usage unavailable: {problem}</p>}
    </section>
  );
}
