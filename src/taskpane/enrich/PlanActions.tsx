// The end of both "Before you run" summaries (a column of ids, a list to match): run, or go back,
// as the pane's one estimate view ends (run/EstimateConfirm.tsx).
import { ConfirmActions } from "../run/EstimateConfirm.js";

export interface PlanActionsProps {
  /** The run button's words, e.g. "Enrich 12 ids". */
  runLabel: string;
  /** False when the plan has nothing to run. */
  canRun: boolean;
  onRun(): void;
  onBack(): void;
}

export function PlanActions({ runLabel, canRun, onRun, onBack }: PlanActionsProps) {
  return <ConfirmActions confirmLabel={runLabel} canConfirm={canRun} cancelLabel="Back" onConfirm={onRun} onCancel={onBack} />;
}
