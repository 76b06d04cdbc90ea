// Signal search results as sheet columns: nested company and contacts flattened into readable
// columns (ids, names, "First Last (Title)" lists), links as url columns, dates as date columns.
// The rows are made by the sheet's own itemsToRows, so typing and text safety are the sheet's.
import type { IntentItem, NewsItem, ScoopItem } from "../contract/index.js";
import { itemsToRows, type CellValue, type ColumnSpec } from "../sheet/index.js";

export type SignalSearchFamily = "intent" | "scoops" | "news";
export type SignalSearchItem = IntentItem | ScoopItem | NewsItem;

const col = (key: string, header: string, type: ColumnSpec["type"], byDefault = true, path = key): ColumnSpec => ({ key, header, type, path, byDefault });

export const SIGNAL_COLUMNS: Record<SignalSearchFamily, readonly ColumnSpec[]> = {
  intent: [
    col("companyId", "Company id", "integer"),
    col("companyName", "Company name", "text"),
    col("companyWebsite", "Website", "url"),
    col("topic", "Topic", "text"),
    col("category", "Topic category", "text"),
    col("signalScore", "Signal score", "integer"),
    col("audienceStrength", "Audience strength", "text"),
    col("signalDate", "Signal date", "date"),
    col("spikesInDateRange", "Spikes in date range", "integer", false),
    col("hasOtherTopicConsumption", "Researching other topics", "boolean", false),
    col("recommendedContacts", "Recommended contacts", "text"),
    col("recommendedContactIds", "Recommended contact ids", "text", false),
  ],
  scoops: [
    col("scoopId", "Scoop id", "text", false),
    col("companyId", "Company id", "integer"),
    col("companyName", "Company name", "text"),
    col("publishedDate", "Published", "date"),
    col("types", "Types", "text"),
    col("topics", "Topics", "text"),
    col("linkText", "Headline", "text"),
    col("link", "Link", "url"),
    col("description", "Description", "text", false),
    col("originalPublishedDate", "First published", "date", false),
    col("updateText", "Update", "text", false),
    col("contacts", "Contacts", "text"),
    col("contactIds", "Contact ids", "text", false),
  ],
  news: [
    col("companyId", "Company id", "text"),
    col("companyName", "Company name", "text"),
    col("pageDate", "Published", "date"),
    col("title", "Title", "text"),
    col("url", "Link", "url"),
    col("domain", "Source", "text"),
    col("categories", "Categories", "text"),
    col("description", "Description", "text", false),
    col("imageUrl", "Image", "url", false),
  ],
};

export function signalColumnsFor(family: SignalSearchFamily, keys: readonly string[]): ColumnSpec[] {
  const wanted = new Set(keys);
  const chosen = SIGNAL_COLUMNS[family].filter((c) => wanted.has(c.key));
  return chosen.length > 0 ? chosen : SIGNAL_COLUMNS[family].filter((c) => c.byDefault);
}

export const defaultSignalColumnKeys = (family: SignalSearchFamily) => SIGNAL_COLUMNS[family].filter((c) => c.byDefault).map((c) => c.key);

interface Person {
  id: number;
  firstName?: string;
  lastName?: string;
  jobTitle?: string;
}
const person = (p: Person) => `${[p.firstName, p.lastName].filter(Boolean).join(" ")}${p.jobTitle ? ` (${p.jobTitle})` : ""}`;
const people = (list: readonly Person[] | undefined) => (list ?? []).map(person).join("; ");
const ids = (list: readonly { id: number }[] | undefined) => (list ?? []).map((p) => String(p.id)).join(", ");

/** One flat record of a signal: every column's value by its key. */
export function flattenSignal(family: SignalSearchFamily, item: SignalSearchItem): { id: string; attributes: Record<string, unknown> } {
  if (family === "intent") {
    const a = (item as IntentItem).attributes;
    return {
      id: item.id,
      attributes: {
        ...a,
        companyId: a.company?.id,
        companyName: a.company?.name,
        companyWebsite: a.company?.website,
        hasOtherTopicConsumption: a.company?.hasOtherTopicConsumption,
        recommendedContacts: people(a.recommendedContacts),
        recommendedContactIds: ids(a.recommendedContacts),
      },
    };
  }
  if (family === "scoops") {
    const a = (item as ScoopItem).attributes;
    return {
      id: item.id,
      attributes: {
        ...a,
        scoopId: a.id,
        companyId: a.company?.id,
        companyName: a.company?.name,
        types: (a.types ?? []).join(", "),
        topics: (a.topics ?? []).join(", "),
        contacts: people(a.contacts),
        contactIds: ids(a.contacts),
      },
    };
  }
  const a = (item as NewsItem).attributes;
  return {
    id: item.id,
    attributes: {
      ...a,
      companyId: ids(a.company),
      companyName: (a.company ?? []).map((c) => c.name ?? "").join("; "),
      categories: (a.categories ?? []).join(", "),
    },
  };
}

/** Sheet rows of signal items in the chosen columns. */
export function signalRows(family: SignalSearchFamily, items: readonly SignalSearchItem[], columns: readonly ColumnSpec[]): CellValue[][] {
  return itemsToRows(
    items.map((i) => flattenSignal(family, i)),
    columns,
  );
}
