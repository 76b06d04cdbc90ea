// What a cell or an Enrich selection column shows from a company's signals: pure functions of
// the answers, so the same answers always give the same values.
import type { IntentItem, NewsItem, ScoopItem, TechnologiesItem } from "../contract/index.js";

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
const DAY_MS = 86_400_000;

/** The company's score on the topic; 0 when it is not signalling on it. */
export function intentScore(items: readonly IntentItem[], topic: string): number {
  return items.filter((i) => same(i.attributes.topic, topic)).reduce((best, i) => Math.max(best, i.attributes.signalScore), 0);
}

/** The strongest topics, highest score first, as "Topic (score)" joined by commas. */
export function strongestTopics(items: readonly IntentItem[], count = 3): string {
  return [...items]
    .sort((a, b) => b.attributes.signalScore - a.attributes.signalScore || a.attributes.topic.localeCompare(b.attributes.topic))
    .slice(0, count)
    .map((i) => `${i.attributes.topic} (${i.attributes.signalScore})`)
    .join(", ");
}

/** Scoops of a type (by name or id, any of the scoop's types), all when no type is given. */
export function scoopsOfType(items: readonly ScoopItem[], type?: string): ScoopItem[] {
  if (!type || type.trim() === "") return [...items];
  const t = type.trim().toLowerCase();
  return items.filter((s) =>
    (s.attributes.types ?? []).some((x) => x.toLowerCase() === t || x.toLowerCase().replace(/[^a-z0-9]+/g, "-") === t || x.toLowerCase().includes(t)),
  );
}

/** How many scoops (of a type) were published in the last `days` days before `now`. */
export function scoopCount(items: readonly ScoopItem[], options: { type?: string; days?: number; now: number }): number {
  const since = options.days === undefined ? "" : new Date(options.now - options.days * DAY_MS).toISOString().slice(0, 10);
  return scoopsOfType(items, options.type).filter((s) => s.attributes.publishedDate >= since).length;
}

/** The newest scoop (of a type), or undefined. */
export function latestScoop(items: readonly ScoopItem[], type?: string): { headline: string; date: string } | undefined {
  const newest = scoopsOfType(items, type).sort((a, b) => b.attributes.publishedDate.localeCompare(a.attributes.publishedDate))[0];
  return newest ? { headline: newest.attributes.linkText ?? newest.attributes.description ?? "", date: newest.attributes.publishedDate } : undefined;
}

/** The newest article (of a category), or undefined. */
export function latestNews(items: readonly NewsItem[], category?: string): { headline: string; date: string; url: string } | undefined {
  const wanted = category?.trim().toLowerCase();
  const newest = items
    .filter((n) => !wanted || (n.attributes.categories ?? []).some((c) => c.toLowerCase() === wanted))
    .sort((a, b) => b.attributes.pageDate.localeCompare(a.attributes.pageDate))[0];
  return newest ? { headline: newest.attributes.title, date: newest.attributes.pageDate, url: newest.attributes.url } : undefined;
}

/** Whether the company runs a product (by product name, or vendor and product). */
export function usesTechnology(items: readonly TechnologiesItem[], product: string): boolean {
  return items.some((t) => same(t.attributes.product, product) || same(`${t.attributes.vendor ?? ""} ${t.attributes.product}`, product));
}

/** The company's products in a category (or its parent category), joined by commas. */
export function technologiesInCategory(items: readonly TechnologiesItem[], category: string): string {
  return items
    .filter((t) => same(t.attributes.category, category) || same(t.attributes.categoryParent ?? "", category))
    .map((t) => t.attributes.product)
    .sort()
    .join(", ");
}
