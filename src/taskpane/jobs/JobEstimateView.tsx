// "Before you start" for an audience enrichment: rows in scope, records not yet under
// management, the most it can cost, today's limit and the credits left, and plainly that a
// started job cannot be stopped. Start or go back.
import { Text, makeStyles } from "@fluentui/react-components";
import { paneMessage, refusals, rowStatus } from "../../core/errors/failure.js";
import { Notice } from "../Notice.js";
import { EstimateConfirm } from "../run/EstimateConfirm.js";
import type { JobEstimate } from "./jobEstimate.js";

export interface AccountAllowance {
  /** Credits (new records) the account has left; undefined when the usage could not be read. */
  creditsLeft?: number;
  /** The add-in's daily limit of new records and what is used of it today. */
  daily?: { cap: number; used: number };
}

export interface JobEstimateViewProps {
  audienceName: string;
  estimate: JobEstimate;
  allowance: AccountAllowance;
  busy: boolean;
  onStart(): void;
  onBack(): void;
}

const useStyles = makeStyles({
  facts: { margin: "4px 0", paddingLeft: "20px", overflowWrap: "anywhere" },
});

const count = (n: number) => n.toLocaleString("en-US");
/** What a job's row left without credits says (core/jobs/rows.ts reads it through the error factory). */
const NO_CREDITS_ROW = rowStatus(refusals.noCredits());
const plural = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;

/** The sentence that says a job cannot be stopped (shown before the start and beside a running job). */
export const CANNOT_STOP = "Once started, a job cannot be stopped: the service has no way to cancel it, and it runs to its end even if you close the pane.";

/** The warnings of an estimate: more than the credits left or today's limit. */
export function estimateWarnings(estimate: JobEstimate, allowance: AccountAllowance): string[] {
  const warnings: string[] = [];
  const { creditsLeft, daily } = allowance;
  if (creditsLeft !== undefined && estimate.maxCredits > creditsLeft) {
    warnings.push(
      creditsLeft === 0
        ? `${paneMessage(refusals.noCredits())} Rows of new records will not be enriched: their status will say "${NO_CREDITS_ROW}".`
        : `Your account has ${plural(creditsLeft, "credit", "credits")} left; this job may need up to ${count(estimate.maxCredits)}. Once they are used, the other new records will not be enriched: their status will say "${NO_CREDITS_ROW}".`,
    );
  }
  if (daily) {
    const left = Math.max(0, daily.cap - daily.used);
    if (estimate.maxCredits > left) {
      warnings.push(
        `This is more than the ${count(left)} new records left of your daily limit (${count(daily.cap)} a day, in the Enrich tab). An audience job is charged by the service as a whole, so the limit does not hold it back: start it only if you mean to spend this much.`,
      );
    }
  }
  return warnings;
}

export function JobEstimateView({ audienceName, estimate, allowance, busy, onStart, onBack }: JobEstimateViewProps) {
  const styles = useStyles();
  const warnings = estimateWarnings(estimate, allowance);
  const { daily, creditsLeft } = allowance;
  return (
    <EstimateConfirm
      label="Before you start"
      role="region"
      confirmLabel={busy ? "Starting..." : `Start: at most ${plural(estimate.maxCredits, "credit", "credits")}`}
      canConfirm={estimate.rowsInScope > 0}
      busy={busy}
      cancelLabel="Back"
      onConfirm={onStart}
      onCancel={onBack}
    >
      <Text as="p" weight="semibold">{`Enrich "${audienceName}"`}</Text>
      <ul className={styles.facts} data-testid="job-estimate">
        <li>
          {plural(estimate.rowsInScope, "row", "rows")} in scope
          {estimate.records !== estimate.rowsInScope - estimate.invalidRows
            ? ` (${plural(estimate.records, "distinct record", "distinct records")}: some rows repeat one)`
            : ""}
        </li>
        {estimate.invalidRows > 0 && (
          <li>
            {plural(estimate.invalidRows, "row holds", "rows hold")} no record id: the service may still match them, so each counts in the most it can cost
          </li>
        )}
        {estimate.notFound !== undefined && estimate.notFound > 0 && (
          <li>{plural(estimate.notFound, "record is", "records are")} unknown to the service: no charge</li>
        )}
        {estimate.underManagement !== undefined ? (
          <li>
            {plural(estimate.underManagement, "record is", "records are")} already under management (free); {count(estimate.newRecords)}{" "}
            {estimate.newRecords === 1 ? "is" : "are"} not
          </li>
        ) : (
          <li>{plural(estimate.records, "contact", "contacts")}: which are under management is not known beforehand, so each is counted as new</li>
        )}
        <li>
          At most <strong>{plural(estimate.maxCredits, "credit", "credits")}</strong>
        </li>
        <li>
          {daily ? `Today's limit: ${count(daily.cap)} new records, ${count(Math.max(0, daily.cap - daily.used))} left` : "Today's limit: unknown"}
          {" · "}
          {creditsLeft !== undefined ? `Credits left: ${count(creditsLeft)}` : "Credits left: could not be read"}
        </li>
      </ul>
      {warnings.map((text) => (
        <Notice key={text} intent="warning" role="alert">
          {text}
        </Notice>
      ))}
      <Text as="p" size={200}>
        {CANNOT_STOP}
      </Text>
    </EstimateConfirm>
  );
}
