// A signal search into a worksheet table: core/signals plans and fetches (the import machinery
// of company search), this writes the rows through the workbook adapter and words the outcome.
import { importSignalSearch, signalRows, type SignalSearchClient, type SignalSearchFamily } from "../../core/signals/index.js";
import type { PartitionPlan } from "../../core/search/index.js";
import type { ColumnSpec } from "../../core/sheet/index.js";
import type { InsertTarget, TableResult, TableWriter, WorkbookAdapter } from "../../office/workbook.js";
import { errorText } from "../errorText.js";
import { finishTable, outcomeFigures, type InsertOutcome, type InsertProgress } from "../insert/insertSearch.js";

export const SIGNAL_NOUNS: Record<SignalSearchFamily, string> = { intent: "intent signals", scoops: "scoops", news: "news articles" };

export interface SignalInsertRequest {
  client: SignalSearchClient;
  workbook: WorkbookAdapter;
  family: SignalSearchFamily;
  filters: Record<string, unknown>;
  sort?: string;
  columns: readonly ColumnSpec[];
  target: InsertTarget;
  tableName: string;
  signal?: AbortSignal;
  onProgress?: (progress: InsertProgress) => void;
  confirmOverwrite?: (message: string) => Promise<boolean>;
  /** Asked above one search's reach with the plan and the rows it writes; false writes nothing. */
  confirmPlan?: (plan: PartitionPlan, rows: number) => Promise<boolean>;
}

const count = (n: number) => n.toLocaleString("en-US");

export async function insertSignalSearch(request: SignalInsertRequest): Promise<InsertOutcome> {
  const progress: InsertProgress = { rowsWritten: 0, rowsExpected: 0, pagesFetched: 0, pagesTotal: 0, totalResults: 0, reachableResults: 0 };
  const run: { writer?: TableWriter; table?: TableResult; failure?: unknown } = {};
  let outcome: Awaited<ReturnType<typeof importSignalSearch>> | undefined;
  try {
    outcome = await importSignalSearch({
      client: request.client,
      family: request.family,
      filters: request.filters,
      ...(request.sort ? { sort: request.sort } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
      ...(request.confirmPlan ? { confirmPlan: request.confirmPlan } : {}),
      onPlan: async (plan, rows) => {
        Object.assign(progress, { rowsExpected: rows, totalResults: plan.total, reachableResults: plan.reachable, parts: plan.parts.length });
        request.onProgress?.({ ...progress });
        if (plan.total === 0) return;
        run.writer = await request.workbook.createTable({
          target: request.target,
          tableName: request.tableName,
          columns: request.columns,
          expectedRows: rows,
          ...(request.confirmOverwrite ? { confirmOverwrite: request.confirmOverwrite } : {}),
        });
      },
      deliver: async (items) => {
        await run.writer!.append(signalRows(request.family, items, request.columns));
        progress.rowsWritten = run.writer!.stats().rowsWritten;
      },
      onPage: (done, total) => {
        Object.assign(progress, { pagesFetched: done, pagesTotal: total });
        request.onProgress?.({ ...progress });
      },
    });
  } catch (error) {
    run.failure = error;
  }
  await finishTable(run, progress);
  const { table, failure } = run;
  request.onProgress?.({ ...progress });
  const result = outcome?.result;
  const plan = outcome?.plan;
  const noun = SIGNAL_NOUNS[request.family];
  const cancelled = result?.cancelled === true || request.signal?.aborted === true;
  const fatal = failure ?? result?.fatal;
  const missing = result?.missing.length ?? 0;
  const where = table ? ` into table ${table.tableName} on sheet ${table.sheetName}` : "";
  let status: InsertOutcome["status"];
  let message: string;
  if (outcome?.declined) {
    status = "cancelled";
    message = `Not inserted: nothing was written. Narrow the filters to insert fewer ${noun}, or Insert again and choose ${plan?.parts.some((p) => p.unsplittable) ? "to insert what one search reaches" : "Import all"}.`;
  } else if (cancelled) {
    status = "cancelled";
    message = `Cancelled: ${count(progress.rowsWritten)} ${noun} were written${where}.`;
  } else if (fatal !== undefined) {
    status = "failed";
    message = `The insert stopped: ${errorText(fatal)} ${count(progress.rowsWritten)} ${noun} were written${where}.`;
  } else if (!plan || plan.total === 0) {
    status = "complete";
    message = `No ${noun} match: nothing was inserted.`;
  } else if (missing > 0 || progress.rowsWritten !== plan.total) {
    status = "incomplete";
    const unreached = plan.total - plan.reachable;
    message = `${count(progress.rowsWritten)} of ${count(plan.total)} ${noun} written${where}.${missing > 0 ? ` ${count(missing)} pages could not be read.` : ""}${unreached > 0 ? ` One search reaches ${count(plan.reachable)}; narrow the filters to reach the other ${count(unreached)}.` : ""}`;
  } else {
    status = "complete";
    message = `Inserted all ${count(progress.rowsWritten)} ${noun}${where}${plan.parts.length > 1 ? ` (in ${plan.parts.length} parts)` : ""}.`;
  }
  return {
    status,
    ...(table ? { table } : {}),
    rowsWritten: progress.rowsWritten,
    ...outcomeFigures(plan, result),
    message,
    ...(status === "failed" ? { error: fatal } : {}),
  };
}
