// Insights as table rows (docs/signals.md, Insights): the company, the type by its readable name,
// the date and expiry, the payload's main facts in plain columns (its summary for every type, and
// per type a few: amount and investors for funding, the person for a leadership change, the topic
// and score for an intent spike...), a link where the payload has one, and whether it is new. The
// service's strings stay text: the sheet's own itemsToRows types and guards every value.
import type { Insight } from "../contract/index.js";
import { itemsToRows, type CellValue, type ColumnSpec } from "../sheet/index.js";
import { insightTypeName } from "./names.js";

const col = (key: string, header: string, type: ColumnSpec["type"], byDefault = true): ColumnSpec => ({ key, header, type, path: key, byDefault });

/** The header of the column that marks an insight not seen in the previous refresh. */
export const NEW_HEADER = "New";
/** What that column holds for a new insight. */
export const NEW_MARK = "New";

export const INSIGHT_COLUMNS: readonly ColumnSpec[] = [
  col("isNew", NEW_HEADER, "text"),
  col("company", "Company", "text"),
  col("companyId", "Company id", "integer"),
  col("type", "Type", "text"),
  col("date", "Date", "date"),
  col("expires", "Expires", "date"),
  col("summary", "Summary", "text"),
  col("amount", "Amount", "text"),
  col("investors", "Investors", "text"),
  col("person", "Person", "text"),
  col("title", "Title", "text"),
  col("change", "Change", "text"),
  col("topic", "Topic", "text"),
  col("score", "Score", "number"),
  col("link", "Link", "url"),
  // Keyed "id": a refresh in place carries the user's own columns over to the same insight by it.
  col("id", "Signal id", "text"),
];

/** One insight with the company as the user named it (a website, a name or the id). */
export interface CompanyInsight {
  company: string;
  insight: Insight;
}

const text = (value: unknown): string => (typeof value === "string" ? value : typeof value === "number" ? String(value) : "");
const list = (value: unknown): string => (Array.isArray(value) ? value.filter((v) => typeof v === "string").join(", ") : text(value));
const score = (value: unknown): number | "" => (typeof value === "number" && Number.isFinite(value) ? value : "");

/** The payload's facts worth a column, whatever its type: each type fills the ones it has. */
function facts(payload: Record<string, unknown>) {
  const competitor = typeof payload.competitor === "object" && payload.competitor !== null ? (payload.competitor as Record<string, unknown>) : {};
  return {
    amount: text(payload.amount),
    investors: list(payload.investors),
    person: text(payload.name),
    title: text(payload.title),
    change: text(payload.changeType),
    topic: text(payload.clusterName) || list(payload.topics) || text(competitor.name),
    score: score(payload.score),
    link: text(payload.url),
  };
}

/** The date an insight is about: its insight date, else its payload's date. */
export const insightDate = (insight: Insight): string => insight.insightDate ?? insight.signalPayload.date;

/** The flat record of one insight, in INSIGHT_COLUMNS' keys. */
export function insightRecord(item: CompanyInsight, isNew: boolean): Record<string, unknown> {
  const { insight } = item;
  return {
    isNew: isNew ? NEW_MARK : "",
    company: item.company,
    companyId: insight.ziCompanyId,
    type: insightTypeName(insight.signalType),
    date: insightDate(insight),
    expires: insight.expiresAt ?? "",
    summary: insight.signalPayload.displayText,
    ...facts(insight.signalPayload),
    signalId: insight.signalId,
  };
}

/** The rows of these insights, in INSIGHT_COLUMNS' order; `isNew` says which are new. */
export function insightRows(items: readonly CompanyInsight[], isNew: (insight: Insight) => boolean = () => false): CellValue[][] {
  return itemsToRows(
    items.map((item) => ({ id: item.insight.signalId, attributes: insightRecord(item, isNew(item.insight)) })),
    INSIGHT_COLUMNS,
  );
}

/** Newest first, then by company as given. */
export function byNewest(a: CompanyInsight, b: CompanyInsight): number {
  return insightDate(b.insight).localeCompare(insightDate(a.insight)) || a.company.localeCompare(b.company);
}
