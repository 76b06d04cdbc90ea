// Insights in the workbook (docs/signals.md, Insights): the types offered and ticked first, a
// list's insights written as a table on a new sheet, and a morning list ("Insights for my
// accounts", kept with the saved searches) refreshed in place: its accounts asked again, the
// insights not seen at the previous refresh marked New, the table's rows replaced and the
// columns the user added to its right kept. Words for the outcome fit a 320 px pane.
import { INSIGHT_TYPES, type InsightType } from "../../core/contract/index.js";
import {
  INSIGHT_COLUMNS,
  INSIGHT_TYPE_NAMES,
  insightRows,
  isNewSince,
  seenIds,
  type InsightAsk,
  type Insights,
  type InsightsResult,
} from "../../core/insights/index.js";
import type { TableResult, TableWriter, WorkbookAdapter } from "../../office/workbook.js";
import type { InsightList, SavedSearchRecord } from "../../core/search/savedSearchSchema.js";
import { overwriteQuestion, type ConfirmQuestion } from "../ConfirmDialog.js";

export const MORNING_LIST_NAME = "Insights for my accounts";
export const INSIGHTS_ARE_FREE = "Insights are free: they spend no credits.";

/** What the form ticks first: the signals a sales-ops morning starts with. */
export const DEFAULT_INSIGHT_TYPES: readonly InsightType[] = [
  "zi.funding",
  "zi.cxochange",
  "zi.account-level-intent.spike",
  "zi.buyingcommitteechange",
  "zi.scoop",
];

export const INSIGHT_TYPE_OPTIONS = INSIGHT_TYPES.map((type) => ({ key: type, label: INSIGHT_TYPE_NAMES[type] }));

const count = (n: number) => n.toLocaleString("en-US");
const plural = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;

/** Where the rows go: a new sheet, or the rows of a morning list's table (refreshed in place). */
export type InsightTableTarget = { kind: "newSheet" } | { kind: "refresh"; tableName: string };

async function writerFor(
  workbook: WorkbookAdapter,
  target: InsightTableTarget,
  rows: number,
  ask: (q: ConfirmQuestion) => Promise<boolean>,
): Promise<TableWriter> {
  if (target.kind === "refresh") return workbook.refreshTable(target.tableName, INSIGHT_COLUMNS);
  return workbook.createTable({
    target: { kind: "newSheet", sheetName: "Insights" },
    tableName: "Insights",
    columns: INSIGHT_COLUMNS,
    expectedRows: rows,
    confirmOverwrite: (text) => ask(overwriteQuestion(text)),
  });
}

/** Writes a list's insights; `seen` (the previous refresh's) marks the others New; none: a first table, nothing marked. */
export async function writeInsightTable(
  workbook: WorkbookAdapter,
  target: InsightTableTarget,
  result: InsightsResult,
  seen: readonly string[] | undefined,
  ask: (q: ConfirmQuestion) => Promise<boolean>,
): Promise<TableResult> {
  const isNew = seen === undefined ? () => false : isNewSince(seen);
  const writer = await writerFor(workbook, target, result.items.length, ask);
  await writer.append(insightRows(result.items, isNew));
  return writer.finish();
}

/** How many of a result's insights were not seen before. */
export const newCount = (result: InsightsResult, seen: readonly string[]) => result.items.filter((item) => isNewSince(seen)(item.insight)).length;

/** "12 insights for 20 companies, into table Insights on sheet Insights. 1 not found: nobody.example (no match)." */
export function insightOutcomeText(result: InsightsResult, table: TableResult | undefined, fresh?: number): string {
  const found = `${plural(result.items.length, "insight", "insights")} for ${plural(result.companies, "company", "companies")}`;
  const where = table ? `, in table ${table.tableName} on sheet ${table.sheetName}` : "";
  const marked = fresh === undefined ? "" : ` ${count(fresh)} ${fresh === 1 ? "is" : "are"} new since the last refresh.`;
  const missed =
    result.misses.length > 0 ? ` ${count(result.misses.length)} not found: ${result.misses.map((m) => `${m.input} (${m.message})`).join("; ")}.` : "";
  const stopped = result.cancelled ? " Cancelled: the companies not asked yet are left out." : "";
  return `${found}${where}.${marked}${missed}${stopped}`;
}

/** The saved record of a morning list: its accounts, types, table and what it has seen. */
export function morningList(accounts: readonly string[], types: readonly InsightType[], tableName: string, result: InsightsResult) {
  const insights: InsightList = { accounts: [...accounts], types: [...types], seen: seenIds(result.items) };
  return { name: MORNING_LIST_NAME, kind: "company" as const, filters: {}, columns: INSIGHT_COLUMNS.map((c) => c.key), tableName, insights };
}

export interface RefreshedList {
  result: InsightsResult;
  table: TableResult;
  fresh: number;
  /** The list's record after the refresh (what it has now seen). */
  insights: InsightList;
}

/** Asks a morning list's accounts again (not from the cache) and rewrites its table in place, the unseen marked New. */
export async function refreshMorningList(
  insights: Insights,
  workbook: WorkbookAdapter,
  search: SavedSearchRecord & { insights: InsightList; tableName: string },
  run: Pick<InsightAsk, "signal" | "onProgress">,
  ask: (q: ConfirmQuestion) => Promise<boolean>,
): Promise<RefreshedList> {
  const list = search.insights;
  const types = list.types.filter((t): t is InsightType => (INSIGHT_TYPES as readonly string[]).includes(t));
  const result = await insights.forCompanies({ companies: list.accounts, types, refresh: true, ...run });
  const table = await writeInsightTable(workbook, { kind: "refresh", tableName: search.tableName }, result, list.seen, ask);
  // A cancelled refresh keeps what was seen before as well: the companies not asked stay unseen.
  const seen = result.cancelled ? [...new Set([...list.seen, ...seenIds(result.items)])] : seenIds(result.items);
  return { result, table, fresh: newCount(result, list.seen), insights: { ...list, seen } };
}
