// Signal answers as the service sends them (its published schemas: ids as strings, scoop types
// and topics as {id, type} / {id, topic} objects, job functions as {name, department}, dates as
// date-times, a company that may be missing) read into the plain shape the rest of the add-in
// uses: numeric ids, names as text, dates as YYYY-MM-DD. Unreadable parts are left out, never
// guessed: a company id that is not a whole number drops the company, not the signal.
import { definedOnly } from "./definedOnly.js";
import type {
  IntentItem,
  IntentWireItem,
  NewsItem,
  NewsWireItem,
  ScoopItem,
  ScoopWireItem,
  TechnologiesItem,
  TechnologiesWireItem,
} from "../contract/index.js";

/** A whole-number id from "344589814" or 344589814; undefined otherwise. */
export function idNumber(value: unknown): number | undefined {
  const n = typeof value === "number" ? value : typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** The date part of a date or date-time as the service wrote it ("2024-05-20T14:00:00Z" -> "2024-05-20"). */
export function dateOnly(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  return /^\d{4}-\d{2}-\d{2}/.exec(value)?.[0] ?? value;
}

/** The name of a named thing: text as it is, or an object's name, type or topic. */
export function nameOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (!value || typeof value !== "object") return undefined;
  const o = value as Record<string, unknown>;
  const name = [o.name, o.type, o.topic, o.department].find((v) => typeof v === "string" && v !== "");
  return typeof name === "string" ? name : undefined;
}

const names = (list: readonly unknown[] | undefined) => (list ? list.map(nameOf).filter((n): n is string => n !== undefined) : undefined);

interface WirePerson {
  id?: string | number;
  firstName?: string;
  lastName?: string;
  jobTitle?: string;
  companyName?: string;
  jobFunctions?: unknown[];
  jobFunction?: unknown[];
}

function people(list: readonly WirePerson[] | undefined) {
  if (!list) return undefined;
  return list.flatMap((p) => {
    const id = idNumber(p.id);
    if (id === undefined) return [];
    return [
      definedOnly({
        id,
        firstName: p.firstName,
        lastName: p.lastName,
        jobTitle: p.jobTitle,
        companyName: p.companyName,
        jobFunctions: names(p.jobFunctions ?? p.jobFunction),
      }) as { id: number },
    ];
  });
}

function company<C extends { id?: string | number; name?: string }>(c: C | undefined): (Omit<C, "id"> & { id: number }) | undefined {
  const id = idNumber(c?.id);
  return c && id !== undefined ? ({ ...definedOnly(c), id } as Omit<C, "id"> & { id: number }) : undefined;
}

export function readIntent(item: IntentWireItem): IntentItem {
  const a = item.attributes;
  const attributes = definedOnly({
    category: a.category ?? "",
    topic: a.topic,
    signalScore: a.signalScore,
    audienceStrength: a.audienceStrength ?? "",
    signalDate: dateOnly(a.signalDate) ?? "",
    spikesInDateRange: a.spikesInDateRange,
    company: company(a.company),
    recommendedContacts: people(a.recommendedContacts),
    topSignalLocations: a.topSignalLocations?.map((l) => definedOnly({ city: l.city, state: l.state, country: l.country })),
  }) as IntentItem["attributes"];
  return { id: item.id, type: item.type, attributes };
}

export function readScoop(item: ScoopWireItem): ScoopItem {
  const a = item.attributes;
  const attributes = definedOnly({
    id: a.id === undefined ? item.id : String(a.id),
    publishedDate: dateOnly(a.publishedDate ?? a.originalPublishedDate) ?? "",
    originalPublishedDate: dateOnly(a.originalPublishedDate),
    linkText: a.linkText,
    link: a.link,
    description: a.description,
    topics: names(a.topics),
    types: names(a.types),
    updateText: a.updateText,
    company: company(a.company),
    contacts: people(a.contacts),
  }) as ScoopItem["attributes"];
  return { id: item.id, type: item.type, attributes };
}

export function readNews(item: NewsWireItem): NewsItem {
  const a = item.attributes;
  const companies = a.company?.flatMap((c) => company(c) ?? []);
  const attributes = definedOnly({
    domain: a.domain,
    title: a.title ?? "",
    url: a.url ?? "",
    imageUrl: a.imageUrl,
    pageDate: dateOnly(a.pageDate) ?? "",
    categories: a.categories,
    description: a.description,
    company: companies,
  }) as NewsItem["attributes"];
  return { id: item.id, type: item.type, attributes };
}

export function readTechnology(item: TechnologiesWireItem): TechnologiesItem {
  const a = item.attributes;
  const attributes = definedOnly({
    ...a,
    category: a.category ?? "",
    createdDate: dateOnly(a.createdDate),
    modifiedDate: dateOnly(a.modifiedDate),
  }) as TechnologiesItem["attributes"];
  return { id: item.id, type: item.type, attributes };
}
