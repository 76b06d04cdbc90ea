// The job status panel: start an audience enrichment, and follow every job the user started.
// Services come in as props (the client, the user's job tracker, the workbook, and a reader of
// the selected cells inside Excel); the panel never touches Office itself.
import { lazy, Suspense, useRef, useState } from "react";
import { Divider, Subtitle2, makeStyles } from "@fluentui/react-components";
import type { Clock } from "../../core/api/types.js";
import type { JobTracker } from "../../core/jobs/index.js";
import type { WorkbookAdapter } from "../../office/workbook.js";
import { JobList, type ListClient } from "./JobList.js";
import type { AccountAllowance } from "./JobEstimateView.js";
import { StartEnrichment, type StartClient } from "./StartEnrichment.js";
import type { AudienceSendProps } from "../audiences/AudienceSendPanel.js";
import { ErrorBoundary } from "../ErrorBoundary.js";

const AudienceSendPanel = lazy(() => import("../audiences/AudienceSendPanel.js").then((m) => ({ default: m.AudienceSendPanel })));

export interface JobsPanelProps {
  client: StartClient & ListClient;
  /** The user's job list (JobTracker.open with per-user storage); outlives the panel. */
  tracker: JobTracker;
  workbook: Pick<WorkbookAdapter, "createTable">;
  /** Reads the selected cells (inside Excel); leave out in browser mode. */
  readSelectedCells?: () => Promise<unknown[][]>;
  /** The job list's elapsed times (default the system clock). */
  clock?: Clock;
  /** The credits left and today's limit, shown before a job starts. */
  allowance?: () => Promise<AccountAllowance>;
  /** "Send to an audience" from the selected table (docs/audiences-addin.md); left out where no workbook can be read. */
  audienceSend?: Omit<AudienceSendProps, "onEnrich"> & { instructions?: string };
}

const useStyles = makeStyles({
  panel: { display: "flex", flexDirection: "column", gap: "12px", padding: "8px 0" },
});

export function JobsPanel({ client, tracker, workbook, readSelectedCells, clock, allowance, audienceSend }: JobsPanelProps) {
  const styles = useStyles();
  const list = useRef<HTMLDivElement>(null);
  const start = useRef<HTMLDivElement>(null);
  const [enrichId, setEnrichId] = useState<string | undefined>();
  const enrich = (audienceId: string) => {
    setEnrichId(audienceId);
    start.current?.scrollIntoView({ block: "start" });
  };
  return (
    <div className={styles.panel} data-testid="jobs-panel">
      {audienceSend && (
        <>
          <Subtitle2 as="h2">Send to an audience</Subtitle2>
          <ErrorBoundary label="sending to an audience">
            <Suspense fallback={null}>
              <AudienceSendPanel {...audienceSend} onEnrich={enrich} />
            </Suspense>
          </ErrorBoundary>
          <Divider />
        </>
      )}
      <div ref={start}>
        <Subtitle2 as="h2">Enrich an audience</Subtitle2>
      </div>
      <ErrorBoundary label="starting an enrichment">
        <StartEnrichment
          {...(enrichId ? { audienceId: enrichId } : {})}
          client={client}
          tracker={tracker}
          {...(readSelectedCells ? { readSelectedCells } : {})}
          {...(allowance ? { allowance } : {})}
          // The new job is at the end of the list, below the fold of a task pane: show it.
          onStarted={() => list.current?.scrollIntoView({ block: "start" })}
        />
      </ErrorBoundary>
      <Divider />
      <div ref={list}>
        <Subtitle2 as="h2">Your jobs</Subtitle2>
      </div>
      <ErrorBoundary label="your jobs">
        <JobList client={client} tracker={tracker} workbook={workbook} {...(clock ? { clock } : {})} />
      </ErrorBoundary>
    </div>
  );
}

export default JobsPanel;
