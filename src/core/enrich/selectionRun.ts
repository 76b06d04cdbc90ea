// The steps of "enrich selection" between reading the selection and writing it back: what it
// would cost (shown before the user confirms), then the run in requests of 25 with progress
// and cancel, giving the columns to write. The task pane panel drives these steps.
import type { EnrichIdsProgress, EnrichmentEngine, SelectionPlan } from "./engine.js";
import type { EntityKind } from "./fields.js";
import { problems } from "./problems.js";
import { buildOutputColumns, splitHeader, type OutputColumns, type SelectedColumn, type SplitColumn } from "./selection.js";

export interface SelectionEnrichmentPlan {
  kind: EntityKind;
  fields: string[];
  selection: SelectedColumn;
  column: SplitColumn;
  plan: SelectionPlan;
}

export async function planSelectionEnrichment(
  engine: EnrichmentEngine,
  kind: EntityKind,
  selection: SelectedColumn,
  fields: readonly string[],
): Promise<SelectionEnrichmentPlan> {
  const column = splitHeader(selection.values);
  const plan = await engine.planSelection(kind, column.values, fields);
  return { kind, fields: [...fields], selection, column, plan };
}

interface SelectionRunResult {
  output: OutputColumns;
  cancelled: boolean;
}

export async function runSelectionEnrichment(
  engine: EnrichmentEngine,
  planned: SelectionEnrichmentPlan,
  options: { signal?: AbortSignal; onProgress?: (progress: EnrichIdsProgress) => void } = {},
): Promise<SelectionRunResult> {
  const results = await engine.enrichIds(planned.kind, planned.plan.ids, planned.fields, {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  const output = buildOutputColumns(
    planned.kind,
    planned.fields,
    planned.column.values,
    results,
    problems.invalidId(planned.kind).message,
  );
  return { output, cancelled: options.signal?.aborted ?? false };
}
