// The end of both "Before you run" summaries (a column of ids, a list to match): run, or go back.
import { Button, makeStyles } from "@fluentui/react-components";

const useStyles = makeStyles({
  row: { display: "flex", gap: "8px", marginTop: "8px", alignItems: "end", flexWrap: "wrap" },
});

export interface PlanActionsProps {
  /** The run button's words, e.g. "Enrich 12 ids". */
  runLabel: string;
  /** False when the plan has nothing to run. */
  canRun: boolean;
  onRun(): void;
  onBack(): void;
}

export function PlanActions({ runLabel, canRun, onRun, onBack }: PlanActionsProps) {
  const styles = useStyles();
  return (
    <div className={styles.row}>
      <Button appearance="primary" disabled={!canRun} onClick={onRun}>
        {runLabel}
      </Button>
      <Button onClick={onBack}>Back</Button>
    </div>
  );
}
