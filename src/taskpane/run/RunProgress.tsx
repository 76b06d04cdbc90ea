// The pane's one progress view: how far a run is ("3 of 10 briefings"), a bar, and Cancel when
// the run can be stopped. It wraps in a 320 px pane: the bar takes the width the button leaves.
import type { ReactNode } from "react";
import { Button, Field, ProgressBar, makeStyles } from "@fluentui/react-components";

const useStyles = makeStyles({
  row: { display: "flex", gap: "8px", marginTop: "8px", alignItems: "end", flexWrap: "wrap" },
  field: { flexGrow: 1, minWidth: 0 },
});

export interface RunProgressProps {
  /** What is under way, in the user's words; it carries the count when there is no `detail`. */
  label: string;
  done: number;
  total: number;
  /** The count of total under the bar ("3 of 10 ids · 1 of 2 requests"). */
  detail?: string;
  /** The bar's name for screen readers ("Enrichment progress"). */
  barLabel: string;
  /** Cancel's action; without it the run cannot be stopped here and no button shows. */
  onCancel?: () => void;
  /** Said under the progress (e.g. the organization's limits while bulk work runs). */
  children?: ReactNode;
}

const count = (n: number) => n.toLocaleString("en-US");

/** "3 of 10 briefings": the usual label of a run's progress. */
export const countOf = (done: number, total: number, noun: string) => `${count(done)} of ${count(total)} ${noun}`;

export function RunProgress({ label, done, total, detail, barLabel, onCancel, children }: RunProgressProps) {
  const styles = useStyles();
  return (
    <>
      <div className={styles.row}>
        <Field className={styles.field} label={label} {...(detail !== undefined ? { validationState: "none" as const, validationMessage: detail } : {})}>
          <ProgressBar value={total > 0 ? Math.min(1, done / total) : 0} max={1} aria-label={barLabel} />
        </Field>
        {onCancel && <Button onClick={onCancel}>Cancel</Button>}
      </div>
      {children}
    </>
  );
}
