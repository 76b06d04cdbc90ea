// Runs a search into a worksheet table. The first page tells the total; a search beyond what one
// search reaches is split into disjoint parts (core/search) whose pages all go into one table.
// A page that fails for good does not stop the others; the outcome then names the missing pages
// and carries what Resume needs to fetch just those into the same table (also later, from a saved
// search). Whatever happens (done, Cancel, an error) the table is finished over exactly the rows
// written and the user is told which it was; completeness is claimed only when checked.
import { LIMITS, type CompanyItem, type ContactItem } from "../../core/contract/index.js";
import {
  describePlan,
  type FetchedPage,
  importPages,
  pageFetcher,
  prepareImport,
  SEARCH_REACH,
  type ImportResult,
  type PageKey,
  type PartitionPlan,
  type ResumeState,
  type SearchClient,
} from "../../core/search/index.js";
import { itemsToRows, type ColumnSpec, type SearchKind } from "../../core/sheet/index.js";
import type { InsertTarget, TableResult, TableWriter, WorkbookAdapter } from "../../office/workbook.js";
import { errorText } from "../errorText.js";
import { outcomeMessage, SHEET_ROWS, sheetLimitText } from "./outcomeMessage.js";

export type { ResumeState };

export interface SearchSpec {
  kind: SearchKind;
  filters: Record<string, unknown>;
  sort?: string;
}

export interface InsertProgress {
  rowsWritten: number;
  /** Rows this insert will write when it runs to the end. */
  rowsExpected: number;
  pagesFetched: number;
  pagesTotal: number;
  totalResults: number;
  reachableResults: number;
  /** Sub-searches the import runs (1 unless the search was partitioned). */
  parts?: number;
  /** The plan in words, once known ("42,310 companies — imported in 6 parts, ..."). */
  plan?: string;
}

interface InsertCommon {
  client: SearchClient;
  workbook: WorkbookAdapter;
  columns: readonly ColumnSpec[];
  signal?: AbortSignal;
  onProgress?: (progress: InsertProgress) => void;
  /** Sees each page's items as they arrive (e.g. to note the records under management). */
  onItems?: (items: readonly (CompanyItem | ContactItem)[]) => void;
  /** Requests per second the client allows itself, for the time estimate (default 25). */
  perSecond?: number;
}

export interface InsertRequest extends InsertCommon {
  search: SearchSpec;
  target: InsertTarget;
  tableName: string;
  /** Refresh this existing table instead of creating one. */
  refreshTableName?: string;
  confirmOverwrite?: (message: string) => Promise<boolean>;
  /**
   * Asked before an import larger than one search reaches, with the plan in words (parts,
   * requests, time); nothing is written unless it answers yes. Without it, the import goes on.
   */
  confirmPlan?: (plan: PartitionPlan, text: string) => Promise<boolean>;
  /**
   * Asked before an insert whose rows cannot all fit the worksheet below its start row, with the
   * limit in words and the rows that fit; nothing is written unless it answers yes (then those
   * rows are). A large import says it in its plan instead. Without it, what fits is inserted.
   */
  confirmFit?: (text: string, rowsThatFit: number) => Promise<boolean>;
  /** Page size of the requests (default 100, the service's maximum). */
  pageSize?: number;
  /** Results one search reaches (default 10,000; tests make it small). */
  reach?: number;
}

export interface InsertOutcome {
  /** "incomplete": written, but not every result (missing pages, an unsplittable slice, a moved total). */
  status: "complete" | "incomplete" | "cancelled" | "failed";
  table?: TableResult;
  rowsWritten: number;
  totalResults: number;
  reachableResults: number;
  pagesFetched: number;
  parts: number;
  /** Count requests spent on planning (the first page, which also tells the total, is not one). */
  probes: number;
  /** What to tell the user, in full sentences. */
  message: string;
  error?: unknown;
  /** Present when pages are missing: Resume fetches exactly those into the same table. */
  resume?: ResumeState;
}

/** The figures of an outcome that come from the plan and the import (zero where a step never ran). */
export function outcomeFigures(
  plan: PartitionPlan | undefined,
  result: ImportResult | undefined,
): Pick<InsertOutcome, "totalResults" | "reachableResults" | "pagesFetched" | "parts" | "probes"> {
  return {
    totalResults: plan?.total ?? 0,
    reachableResults: plan?.reachable ?? 0,
    pagesFetched: result?.pagesFetched ?? 0,
    parts: plan?.parts.length ?? 0,
    probes: plan?.probes ?? 0,
  };
}

function isCancellation(error: unknown, signal: AbortSignal | undefined): boolean {
  if (signal?.aborted) return true;
  return typeof error === "object" && error !== null && (error as { kind?: unknown }).kind === "cancelled";
}

/** The user-facing text of an error (ServiceError and WorkbookError carry one). */
export { errorText };

/** Pages of the plan that fit in `room` rows of a sheet, in order. */
function pagesWithin(plan: PartitionPlan, pageSize: number, reach: number, room: number): { keys: PageKey[]; rows: number } {
  const keys: PageKey[] = [];
  let rows = 0;
  plan.parts.forEach((p, part) => {
    const reachable = Math.min(p.count, reach);
    for (let page = 1; page <= Math.ceil(reachable / pageSize); page++) {
      const n = Math.min(pageSize, reachable - (page - 1) * pageSize);
      if (rows + n > room) return;
      rows += n;
      keys.push({ part, page });
    }
  });
  return { keys, rows };
}

interface Run {
  /** The user chose not to run the plan of a large import: nothing was written. */
  declined?: boolean;
  /** The user chose not to insert only the rows that fit the worksheet: nothing was written. */
  declinedFit?: boolean;
  /** The worksheet row the table's header goes to. */
  startRow?: number;
  /** Every page this run set out to fetch (a cancel before the first leaves them all to Continue). */
  keys?: PageKey[];
  writer?: TableWriter;
  result?: ImportResult;
  failure?: unknown;
  table?: TableResult;
}

async function runPages(
  common: InsertCommon,
  run: Run,
  parts: ResumeState["parts"],
  keys: PageKey[],
  progress: InsertProgress,
  kind: SearchKind,
  sort: string | undefined,
  pageSize: number,
  prefetched?: Map<string, FetchedPage<CompanyItem | ContactItem>>,
) {
  const fetchPage = pageFetcher(common.client, kind, sort);
  const report = () => common.onProgress?.({ ...progress });
  run.result = await importPages<CompanyItem | ContactItem>({
    parts,
    pages: keys,
    pageSize,
    fetch: fetchPage,
    // The first page fetched to learn the total is written, not asked again.
    ...(prefetched ? { prefetched } : {}),
    idOf: (item) => item.id,
    deliver: async (items) => {
      common.onItems?.(items);
      await run.writer!.append(itemsToRows(items, common.columns));
      progress.rowsWritten = run.writer!.stats().rowsWritten;
    },
    ...(common.signal ? { signal: common.signal } : {}),
    onPage: ({ pagesDone }) => {
      progress.pagesFetched = pagesDone;
      report();
    },
  });
}

/**
 * The questions before writing: a large import's plan (with what fits the sheet, when not all),
 * or, for a search within reach, whether to insert only the rows that fit. False: declined.
 */
async function agreed(request: InsertRequest, run: Run, plan: PartitionPlan, planText: string, rows: number, reach: number): Promise<boolean> {
  const noun = plan.kind === "company" ? "companies" : "contacts";
  const fit = rows < plan.reachable ? sheetLimitText(rows, plan.reachable, noun, run.startRow ?? 0, "fit") : undefined;
  if (plan.total > reach && request.confirmPlan) {
    run.declined = !(await request.confirmPlan(plan, fit ? `${planText}. ${fit.slice(0, -1)}` : planText));
  } else if (fit && request.confirmFit) {
    run.declinedFit = !(await request.confirmFit(fit, rows));
  }
  return !run.declined && !run.declinedFit;
}

/** Finishes the table over the rows written (if one was started); a failure here is kept unless one came first. */
export async function finishTable(run: Pick<Run, "writer" | "table" | "failure">, progress: InsertProgress): Promise<void> {
  if (!run.writer) return;
  try {
    run.table = await run.writer.finish();
    progress.rowsWritten = run.table.rowsWritten;
  } catch (error) {
    run.failure ??= error;
  }
}

export async function insertSearch(request: InsertRequest): Promise<InsertOutcome> {
  const { workbook, search, columns, signal } = request;
  const pageSize = request.pageSize ?? LIMITS.maxPageSize;
  const reach = request.reach ?? SEARCH_REACH;
  const progress: InsertProgress = { rowsWritten: 0, rowsExpected: 0, pagesFetched: 0, pagesTotal: 0, totalResults: 0, reachableResults: 0 };
  const run: Run = {};
  let plan: PartitionPlan | undefined;
  let sheetRows = 0;
  try {
    const prepared = await prepareImport(request.client, search, {
      pageSize,
      reach,
      ...(signal ? { signal } : {}),
    });
    plan = prepared.plan;
    // Rows below the header from the row the table starts at (a refresh keeps its table's place).
    run.startRow = request.refreshTableName ? 0 : ((await workbook.startRow?.(request.target)) ?? 0);
    const { keys, rows } = pagesWithin(plan, pageSize, reach, SHEET_ROWS - run.startRow - 1);
    sheetRows = rows;
    Object.assign(progress, {
      rowsExpected: rows,
      pagesTotal: keys.length,
      totalResults: plan.total,
      reachableResults: plan.reachable,
      parts: plan.parts.length,
    });
    const planText = describePlan(plan, request.perSecond ?? 25, pageSize);
    if (plan.parts.length > 1) progress.plan = planText;
    request.onProgress?.({ ...progress });
    run.keys = keys;
    if ((await agreed(request, run, plan, planText, rows, reach)) && (plan.total > 0 || request.refreshTableName)) {
      run.writer = request.refreshTableName
        ? await workbook.refreshTable(request.refreshTableName, columns)
        : await workbook.createTable({
            target: request.target,
            tableName: request.tableName,
            columns,
            expectedRows: rows,
            ...(request.confirmOverwrite ? { confirmOverwrite: request.confirmOverwrite } : {}),
          });
      if (!signal?.aborted) {
        await runPages(
          request,
          run,
          plan.parts.map((p) => ({ filters: p.filters, count: p.count })),
          keys,
          progress,
          search.kind,
          search.sort,
          pageSize,
          prepared.prefetched,
        );
      }
    }
  } catch (error) {
    run.failure = error;
  }
  await finishTable(run, progress);
  request.onProgress?.({ ...progress });
  return outcome(request, run, progress, plan, pageSize, sheetRows);
}

/** Resume: fetches only the missing pages into the same table, below its rows. */
export async function resumeInsert(request: InsertCommon & { resume: ResumeState }): Promise<InsertOutcome> {
  const { resume } = request;
  const rows = resume.missing.reduce((sum, k) => sum + Math.min(resume.pageSize, resume.parts[k.part]!.count - (k.page - 1) * resume.pageSize), 0);
  const progress: InsertProgress = {
    rowsWritten: 0,
    rowsExpected: rows,
    pagesFetched: 0,
    pagesTotal: resume.missing.length,
    totalResults: resume.total,
    reachableResults: rows,
    parts: resume.parts.length,
  };
  const run: Run = {};
  try {
    run.writer = await request.workbook.appendToTable(resume.tableName, request.columns);
    await runPages(request, run, resume.parts, resume.missing, progress, resume.kind, resume.sort, resume.pageSize);
  } catch (error) {
    run.failure = error;
  }
  await finishTable(run, progress);
  request.onProgress?.({ ...progress });
  const plan: PartitionPlan = {
    kind: resume.kind,
    total: resume.total,
    parts: resume.parts.map((p) => ({ ...p, bounds: [], unsplittable: false })),
    probes: 0,
    reachable: rows,
  };
  return outcome(
    { ...request, search: { kind: resume.kind, filters: {}, ...(resume.sort ? { sort: resume.sort } : {}) }, tableName: resume.tableName },
    run,
    progress,
    plan,
    resume.pageSize,
    rows,
    resume,
  );
}

function outcome(
  request: InsertCommon & { search: SearchSpec; tableName: string; signal?: AbortSignal },
  run: Run,
  progress: InsertProgress,
  plan: PartitionPlan | undefined,
  pageSize: number,
  sheetRows: number,
  resumed?: ResumeState,
): InsertOutcome {
  const result = run.result;
  const cancelled = result?.cancelled === true || isCancellation(run.failure, request.signal);
  const failure = run.failure ?? result?.fatal;
  // Cancelled before the first page: every page is still to fetch.
  const missing = result?.missing ?? (cancelled && run.table ? (run.keys ?? []) : []);
  const tableName = run.table?.tableName ?? run.writer?.tableName ?? request.tableName;
  const resume: ResumeState | undefined =
    plan && run.table && missing.length > 0
      ? {
          kind: request.search.kind,
          ...(request.search.sort ? { sort: request.search.sort } : {}),
          tableName,
          columns: request.columns.map((c) => c.key),
          pageSize,
          parts: plan.parts.map((p) => ({ filters: p.filters, count: p.count })),
          missing,
          total: plan.total,
        }
      : undefined;
  const unsplittable = plan?.parts.filter((p) => p.unsplittable) ?? [];
  let status: InsertOutcome["status"];
  if (cancelled || run.declined || run.declinedFit) status = "cancelled";
  else if (failure !== undefined && !run.table) status = "failed";
  else if (failure !== undefined) status = "failed";
  else if (missing.length > 0 || unsplittable.length > 0 || (result?.moved.length ?? 0) > 0) status = "incomplete";
  // The check before "complete": every expected row written once (the importer drops repeats).
  else if (progress.rowsWritten !== (resumed ? sheetRows : (plan?.total ?? 0))) status = "incomplete";
  else status = "complete";
  const message = outcomeMessage({
    status,
    kind: request.search.kind,
    ...(resumed ? { sort: resumed.sort } : request.search.sort ? { sort: request.search.sort } : {}),
    ...(run.table ? { table: run.table } : {}),
    rowsWritten: progress.rowsWritten,
    sheetRows,
    ...(plan ? { plan } : {}),
    ...(result ? { result } : {}),
    failure,
    resumed: resumed !== undefined,
    pageSize,
    declined: run.declined === true,
    declinedFit: run.declinedFit === true,
    ...(run.startRow ? { startRow: run.startRow } : {}),
    canContinue: resume !== undefined,
    refreshed: "refreshTableName" in request && typeof request.refreshTableName === "string",
  });
  return {
    status,
    ...(run.table ? { table: run.table } : {}),
    rowsWritten: progress.rowsWritten,
    ...outcomeFigures(plan, result),
    message,
    ...(failure !== undefined && status === "failed" ? { error: failure } : {}),
    // A cancelled import keeps what Resume needs: Continue fetches the rest into the same table.
    ...(resume ? { resume } : {}),
  };
}
