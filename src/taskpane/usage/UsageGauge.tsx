// A small gauge of the account's usage: requests, records and credits used and remaining.
import { useCallback, useEffect, useState } from "react";
import { Button, Field, ProgressBar, makeStyles } from "@fluentui/react-components";
import type { UsageEntry } from "../../core/contract/index.js";
import { errorText } from "../errorText.js";
import { useServices } from "../services.js";

const LABELS: Record<string, string> = { request: "Requests", record: "Records", uniqueID: "Credits (new records)" };
const useStyles = makeStyles({ gauge: { display: "grid", gap: "4px", gridTemplateColumns: "repeat(auto-fit, minmax(150px, 1fr))" } });

export function UsageGauge() {
  const styles = useStyles();
  const { runtime } = useServices();
  const [entries, setEntries] = useState<UsageEntry[] | undefined>();
  const [problem, setProblem] = useState<string | undefined>();

  const load = useCallback(() => {
    setProblem(undefined);
    runtime.client.usage().then(
      (u) => setEntries(u.entries),
      (error: unknown) => setProblem(errorText(error)),
    );
  }, [runtime]);
  useEffect(load, [load]);

  return (
    <section aria-label="Account usage">
      <div className={styles.gauge}>
        {(entries ?? []).map((e) => {
          const fraction = e.totalLimit > 0 ? Math.min(1, e.currentUsage / e.totalLimit) : 0;
          return (
            <Field
              key={e.limitType}
              label={LABELS[e.limitType] ?? e.description ?? e.limitType}
              validationState={fraction >= 0.9 ? "warning" : "none"}
              validationMessage={`${e.currentUsage.toLocaleString("en-US")} of ${e.totalLimit.toLocaleString("en-US")} used · ${e.usageRemaining.toLocaleString("en-US")} left`}
            >
              <ProgressBar value={fraction} max={1} color={fraction >= 0.9 ? "warning" : "brand"} aria-label={`${LABELS[e.limitType] ?? e.limitType} used`} />
            </Field>
          );
        })}
      </div>
      {problem && <p role="status">Usage unavailable: {problem}</p>}
      <Button size="small" appearance="subtle" onClick={load}>
        Refresh usage
      </Button>
    </section>
  );
}
