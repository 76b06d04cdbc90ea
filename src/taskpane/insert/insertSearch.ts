// Runs a search page by page into a worksheet table: the first page tells the total, the table
// starts then, each page's rows go to the writer, and whatever happens (done, Cancel, an error)
// the table is finished over exactly the rows written and the user is told which it was.
import type { ServiceClient } from "../../core/api/index.js";
import { LIMITS, type CompanyItem, type ContactItem } from "../../core/contract/index.js";
import { itemsToRows, type ColumnSpec, type SearchKind } from "../../core/sheet/index.js";
import type { InsertTarget, TableResult, TableWriter, WorkbookAdapter } from "../../office/workbook.js";
import { errorText } from "../errorText.js";

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
}

export interface InsertRequest {
  client: Pick<ServiceClient, "iterateCompanies" | "iterateContacts">;
  workbook: WorkbookAdapter;
  search: SearchSpec;
  columns: readonly ColumnSpec[];
  target: InsertTarget;
  tableName: string;
  /** Refresh this existing table instead of creating one. */
  refreshTableName?: string;
  signal?: AbortSignal;
  onProgress?: (progress: InsertProgress) => void;
  confirmOverwrite?: (message: string) => Promise<boolean>;
  /** Page size of the requests (default 100, the service's maximum). */
  pageSize?: number;
  /** Sees each page's items as they arrive (e.g. to note the records under management). */
  onItems?: (items: readonly (CompanyItem | ContactItem)[]) => void;
}

export interface InsertOutcome {
  status: "complete" | "cancelled" | "failed";
  table?: TableResult;
  rowsWritten: number;
  totalResults: number;
  reachableResults: number;
  pagesFetched: number;
  /** What to tell the user, in full sentences. */
  message: string;
  error?: unknown;
}

const count = (n: number) => n.toLocaleString("en-US");

function isCancellation(error: unknown, signal: AbortSignal | undefined): boolean {
  if (signal?.aborted) return true;
  return typeof error === "object" && error !== null && (error as { kind?: unknown }).kind === "cancelled";
}

/** The user-facing text of an error (ServiceError and WorkbookError carry one). */
export { errorText };

export async function insertSearch(request: InsertRequest): Promise<InsertOutcome> {
  const { client, workbook, search, columns, signal } = request;
  const pageSize = request.pageSize ?? LIMITS.maxPageSize;
  const noun = search.kind === "company" ? "companies" : "contacts";
  const progress: InsertProgress = { rowsWritten: 0, rowsExpected: 0, pagesFetched: 0, pagesTotal: 0, totalResults: 0, reachableResults: 0 };
  const report = () => request.onProgress?.({ ...progress });
  let writer: TableWriter | undefined;
  let status: InsertOutcome["status"] = "complete";
  let failure: unknown;

  const options = { pageSize, ...(search.sort ? { sort: search.sort } : {}), ...(signal ? { signal } : {}) };
  const pages = search.kind === "company" ? client.iterateCompanies(search.filters, options) : client.iterateContacts(search.filters, options);
  try {
    for await (const page of pages) {
      progress.pagesFetched = page.progress.pagesFetched;
      progress.pagesTotal = page.progress.pagesTotal;
      progress.totalResults = page.progress.totalResults;
      progress.reachableResults = page.progress.reachableResults;
      progress.rowsExpected = page.progress.reachableResults;
      if (!writer) {
        writer = request.refreshTableName
          ? await workbook.refreshTable(request.refreshTableName, columns)
          : await workbook.createTable({
              target: request.target,
              tableName: request.tableName,
              columns,
              expectedRows: progress.rowsExpected,
              ...(request.confirmOverwrite ? { confirmOverwrite: request.confirmOverwrite } : {}),
            });
      }
      if (signal?.aborted) break;
      request.onItems?.(page.items);
      await writer.append(itemsToRows(page.items, columns));
      progress.rowsWritten = writer.stats().rowsWritten;
      report();
      if (signal?.aborted) break;
    }
    if (signal?.aborted) status = "cancelled";
  } catch (error) {
    status = isCancellation(error, signal) ? "cancelled" : "failed";
    failure = error;
  }

  let table: TableResult | undefined;
  if (writer) {
    try {
      table = await writer.finish();
      progress.rowsWritten = table.rowsWritten;
      report();
    } catch (error) {
      status = "failed";
      failure ??= error;
    }
  } else if (status === "complete") {
    // The search answered no page at all (nothing matched and no table is wanted).
    progress.rowsExpected = 0;
  }

  const where = table ? ` in table ${table.tableName} on sheet ${table.sheetName}` : "";
  let message: string;
  if (status === "complete") {
    message = `Inserted ${count(progress.rowsWritten)} ${noun}${where}.`;
    if (progress.totalResults > progress.reachableResults) {
      message += ` The search matches ${count(progress.totalResults)} ${noun}; the service returns at most ${count(progress.reachableResults)} for one search, so only those were inserted. Narrow the filters to reach the rest.`;
    }
  } else if (status === "cancelled") {
    message = table
      ? `Stopped. ${count(progress.rowsWritten)} of ${count(progress.rowsExpected)} ${noun} were written${where}; the table holds exactly those rows.`
      : "Stopped before anything was written.";
  } else {
    message = `${errorText(failure)}${table ? ` ${count(progress.rowsWritten)} ${noun} were written${where} before this happened; the table holds exactly those rows.` : " Nothing was written."}`;
  }
  return {
    status,
    ...(table ? { table } : {}),
    rowsWritten: progress.rowsWritten,
    totalResults: progress.totalResults,
    reachableResults: progress.reachableResults,
    pagesFetched: progress.pagesFetched,
    message,
    ...(failure !== undefined && status === "failed" ? { error: failure } : {}),
  };
}
