// The pane's one estimate-and-confirm view: what a run will cost, said in the user's terms before
// anything that costs is sent (credits, AI credits, requests, and what is free: cached, under
// management), then Confirm, which starts it, and Cancel (or Back), which sends nothing.
import type { ReactNode } from "react";
import { Button, makeStyles } from "@fluentui/react-components";

const useStyles = makeStyles({
  view: { minWidth: 0, overflowWrap: "anywhere" },
  row: { display: "flex", gap: "8px", marginTop: "8px", alignItems: "center", flexWrap: "wrap" },
});

export interface EstimateConfirmProps {
  /** The view's name for screen readers ("Before you run"). */
  label: string;
  /** "region" for a view of its own, "group" for one inside a section (default). */
  role?: "region" | "group";
  testId?: string;
  /** The cost and what is free, and any warning. */
  children: ReactNode;
  /** The Confirm button's words, e.g. "Enrich 12 ids". */
  confirmLabel: string;
  /** False when there is nothing to run, or it cannot run (the estimate says why). */
  canConfirm?: boolean;
  /** While Confirm's work starts: both buttons wait. */
  busy?: boolean;
  /** The other button's words: "Cancel" (default) or "Back". */
  cancelLabel?: string;
  onConfirm(): void;
  onCancel(): void;
}

export type ConfirmActionsProps = Pick<EstimateConfirmProps, "confirmLabel" | "canConfirm" | "busy" | "cancelLabel" | "onConfirm" | "onCancel">;

/** The estimate's end: Confirm (it starts the run) and Cancel or Back (nothing is sent). */
export function ConfirmActions({ confirmLabel, canConfirm = true, busy = false, cancelLabel = "Cancel", onConfirm, onCancel }: ConfirmActionsProps) {
  const styles = useStyles();
  return (
    <div className={styles.row}>
      <Button appearance="primary" disabled={busy || !canConfirm} onClick={onConfirm}>
        {confirmLabel}
      </Button>
      <Button disabled={busy} onClick={onCancel}>
        {cancelLabel}
      </Button>
    </div>
  );
}

export function EstimateConfirm({ label, role = "group", testId, children, ...actions }: EstimateConfirmProps) {
  const styles = useStyles();
  return (
    <div role={role} aria-label={label} className={styles.view} {...(testId ? { "data-testid": testId } : {})}>
      {children}
      <ConfirmActions {...actions} />
    </div>
  );
}
