// Every enrichment job the user started: audience, start time, state, progress, elapsed time;
// terminal states shown distinctly (a partial success says how many rows failed, read from the
// rows), and "Insert rows into sheet" for a finished job.
import { useEffect, useRef, useState } from "react";
import { Badge, Button, ProgressBar, Text, makeStyles, tokens } from "@fluentui/react-components";
import { every, systemClock } from "../../core/api/clock.js";
import type { Clock, ServiceClient } from "../../core/api/types.js";
import {
  audienceTable,
  countFailedRows,
  elapsedMs,
  formatElapsed,
  jobStateLabel,
  readAllRows,
  type JobTracker,
  type TrackedJob,
  type TrackerSnapshot,
} from "../../core/jobs/index.js";
import type { WorkbookAdapter } from "../../office/workbook.js";
import { errorText } from "../errorText.js";
import { Notice } from "../Notice.js";

export type ListClient = Pick<ServiceClient, "getAudience" | "getAudienceRows">;

export interface JobListProps {
  client: ListClient;
  tracker: Pick<JobTracker, "snapshot" | "subscribe" | "setFailedRows" | "forget" | "track">;
  workbook: Pick<WorkbookAdapter, "createTable">;
  /** Elapsed times, and their tick each second while a job runs (default the system clock). */
  clock?: Clock;
}

const useStyles = makeStyles({
  list: { display: "flex", flexDirection: "column", gap: "10px", listStyleType: "none", padding: 0, margin: 0 },
  job: { border: `1px solid ${tokens.colorNeutralStroke2}`, borderRadius: "4px", padding: "8px", display: "flex", flexDirection: "column", gap: "4px" },
  head: { display: "flex", justifyContent: "space-between", alignItems: "center", gap: "8px" },
  facts: { display: "flex", gap: "12px", flexWrap: "wrap" },
  actions: { display: "flex", gap: "8px", flexWrap: "wrap" },
});

type BadgeColor = "brand" | "success" | "warning" | "danger" | "informative" | "subtle";

export function badgeColor(job: TrackedJob): BadgeColor {
  switch (job.status) {
    case "SUCCEEDED":
      return "success";
    case "PARTIALLY_SUCCEEDED":
      return "warning";
    case "FAILED":
      return "danger";
    case "CANCELLED":
      return "subtle";
    case "SCHEDULED":
      return "informative";
    default:
      return "brand";
  }
}

/** The sentence under a job: what its end means, or what is happening now. */
export function jobSummary(job: TrackedJob): string {
  const rows = (n: number) => `${n.toLocaleString("en-US")} row${n === 1 ? "" : "s"}`;
  switch (job.status) {
    case "SUCCEEDED":
      return "Finished: every row was enriched.";
    case "PARTIALLY_SUCCEEDED":
      return job.failedRows === undefined
        ? "Finished, but some rows could not be enriched (counting them...)."
        : `Finished, but ${rows(job.failedRows)} failed (no match or an invalid reference).`;
    case "FAILED":
      return job.failedRows === undefined ? "The job failed." : `The job failed: ${rows(job.failedRows)} could not be enriched.`;
    case "CANCELLED":
      return "The job was cancelled.";
    case "SCHEDULED":
      return "Waiting to start. A started job runs to its end: it cannot be stopped.";
    case "UNKNOWN":
      return "The service no longer has this job (it or its audience may have been deleted). Check again, or remove it from the list.";
    default:
      return job.terminal ? `Ended: ${job.status}.` : "Enriching rows... A started job runs to its end: it cannot be stopped.";
  }
}

function progressColor(job: TrackedJob): "brand" | "success" | "warning" | "error" {
  if (job.status === "SUCCEEDED") return "success";
  if (job.status === "PARTIALLY_SUCCEEDED") return "warning";
  if (job.status === "FAILED" || job.status === "CANCELLED") return "error";
  return "brand";
}

function useTracker(tracker: JobListProps["tracker"]): TrackerSnapshot {
  const [snapshot, setSnapshot] = useState(() => tracker.snapshot());
  useEffect(() => {
    setSnapshot(tracker.snapshot());
    return tracker.subscribe(setSnapshot);
  }, [tracker]);
  return snapshot;
}

/** The time for elapsed times: ticks each second on `clock` while a job runs. */
function useNow(running: boolean, clock: Clock): number {
  const [time, setTime] = useState(() => clock.now());
  useEffect(() => {
    setTime(clock.now());
    if (!running) return;
    return every(clock, 1000, () => setTime(clock.now()));
  }, [running, clock]);
  return time;
}

/** The job as first tracked, to follow it again from its start. */
function recheck(job: TrackedJob): Parameters<JobTracker["track"]>[0] {
  return { audienceId: job.audienceId, jobId: job.jobId, audienceName: job.audienceName, scope: job.scope, ...(job.rowIds ? { rowIds: job.rowIds } : {}) };
}

function sheetNameFor(audienceName: string): string {
  return (
    audienceName
      .replace(/[\\/?*[\]:]/g, " ")
      .trim()
      .slice(0, 31) || "Audience"
  );
}

export function JobList({ client, tracker, workbook, clock = systemClock }: JobListProps) {
  const styles = useStyles();
  const { jobs, storageProblem } = useTracker(tracker);
  const time = useNow(
    jobs.some((j) => !j.terminal),
    clock,
  );
  const counting = useRef(new Set<string>());
  const [inserting, setInserting] = useState<Record<string, string>>({});
  const [results, setResults] = useState<Record<string, { intent: "success" | "error" | "warning"; text: string }>>({});

  // Once a job ends with failures, count them from the audience's rows (the status has no counters).
  useEffect(() => {
    for (const job of jobs) {
      if (!job.terminal || job.failedRows !== undefined || counting.current.has(job.jobId)) continue;
      if (job.status !== "PARTIALLY_SUCCEEDED" && job.status !== "FAILED") continue;
      counting.current.add(job.jobId);
      readAllRows(client, job.audienceId, job.rowIds ? { rowIds: job.rowIds } : {})
        .then((rows) => tracker.setFailedRows(job.jobId, countFailedRows(rows, job.rowIds)))
        .catch((error: unknown) =>
          setResults((r) => ({
            ...r,
            [job.jobId]: { intent: "warning", text: `Could not count the failed rows: ${errorText(error)}` },
          })),
        );
    }
  }, [jobs, client, tracker]);

  async function insertRows(job: TrackedJob) {
    setInserting((s) => ({ ...s, [job.jobId]: "Reading rows..." }));
    setResults((r) => {
      const next = { ...r };
      delete next[job.jobId];
      return next;
    });
    try {
      const audience = await client.getAudience(job.audienceId);
      const rows = await readAllRows(client, job.audienceId, {
        onProgress: (read, total) => setInserting((s) => ({ ...s, [job.jobId]: `Reading rows... ${read} of ${total}` })),
      });
      const table = audienceTable(audience, rows);
      setInserting((s) => ({ ...s, [job.jobId]: `Writing ${table.rows.length} rows...` }));
      const writer = await workbook.createTable({
        target: { kind: "newSheet", sheetName: sheetNameFor(audience.attributes.name) },
        tableName: `Audience ${audience.attributes.name}`,
        columns: table.columns,
        expectedRows: table.rows.length,
      });
      await writer.append(table.rows);
      const done = await writer.finish();
      setResults((r) => ({
        ...r,
        [job.jobId]: {
          intent: "success",
          text: `Inserted ${done.rowsWritten.toLocaleString("en-US")} rows into sheet "${done.sheetName}" (table ${done.tableName}).`,
        },
      }));
    } catch (error) {
      const text = errorText(error);
      setResults((r) => ({ ...r, [job.jobId]: { intent: "error", text: `The rows could not be inserted: ${text}` } }));
    } finally {
      setInserting((s) => {
        const next = { ...s };
        delete next[job.jobId];
        return next;
      });
    }
  }

  return (
    <section aria-label="Your enrichment jobs">
      {storageProblem && <Notice intent="warning">{storageProblem}</Notice>}
      {jobs.length === 0 && <Text>You have not started an audience enrichment yet.</Text>}
      <ul className={styles.list}>
        {jobs.map((job) => {
          const percent = job.percentProgress ?? (job.terminal ? 100 : 0);
          const result = results[job.jobId];
          return (
            <li key={job.jobId} className={styles.job} data-job-id={job.jobId} data-state={job.status}>
              <div className={styles.head}>
                <Text weight="semibold">{job.audienceName}</Text>
                <Badge appearance={job.terminal ? "filled" : "tint"} color={badgeColor(job)} data-testid="job-state">
                  {jobStateLabel(job.status)}
                </Badge>
              </div>
              <ProgressBar
                value={percent / 100}
                color={progressColor(job)}
                thickness="large"
                aria-label={`${job.audienceName}: ${percent}% done`}
                aria-valuenow={percent}
                aria-valuemin={0}
                aria-valuemax={100}
              />
              <div className={styles.facts}>
                <Text size={200}>{`Started ${new Date(job.startedAt).toLocaleString()}`}</Text>
                <Text size={200} data-testid="job-percent">{`${percent}%`}</Text>
                <Text size={200}>{`Elapsed ${formatElapsed(elapsedMs(job, time))}`}</Text>
              </div>
              <Text size={200} data-testid="job-summary">
                {jobSummary(job)}
              </Text>
              {job.problem && !job.terminal && <Text size={200} role="status">{`Checking the job: ${job.problem}`}</Text>}
              {job.problem && job.terminal && job.status !== "SUCCEEDED" && job.status !== "UNKNOWN" && (
                <Text size={200} role="status">
                  {job.problem}
                </Text>
              )}
              {result && <Notice intent={result.intent}>{result.text}</Notice>}
              <div className={styles.actions}>
                {job.status === "UNKNOWN" && (
                  <Button size="small" appearance="primary" onClick={() => void tracker.track(recheck(job))}>
                    Check again
                  </Button>
                )}
                {job.terminal && job.status !== "FAILED" && job.status !== "CANCELLED" && job.status !== "UNKNOWN" && (
                  <Button size="small" appearance="primary" disabled={inserting[job.jobId] !== undefined} onClick={() => void insertRows(job)}>
                    {inserting[job.jobId] ?? "Insert rows into sheet"}
                  </Button>
                )}
                <Button
                  size="small"
                  onClick={() => void tracker.forget(job.jobId)}
                  {...(job.terminal ? {} : { title: "The job goes on; only this list stops showing it" })}
                >
                  {job.terminal ? "Remove from list" : "Stop following (the job goes on)"}
                </Button>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
