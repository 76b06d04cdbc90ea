// Who the recommended contacts are: the recommendation answer carries ids, scores and a brief
// but no name, so their names, job titles and companies come from a contact search by person id
// (searches are free; one request per page of ids, at most 100 and a filter's length).
import { LIMITS, type ContactItem, type ContactSearchFilters } from "../contract/index.js";
import type { AccountContact } from "./recommendations.js";

/** The contact search the names come from (the service client's searchContacts). */
export type ContactSearch = (
  filters: ContactSearchFilters,
  options: { size: number; page: number; priority: "bulk"; signal?: AbortSignal },
) => Promise<{ items: ContactItem[] }>;

/** Ids per search: at most one page of the largest size the service gives. */
export const NAMES_PER_SEARCH = LIMITS.maxPageSize;

/** The ids in comma-separated lists, each within a filter's length and one page. */
export function idBatches(ids: readonly string[], maxLength: number = LIMITS.maxStringLength): string[] {
  const batches: string[] = [];
  let current: string[] = [];
  for (const id of ids) {
    const next = [...current, id];
    if (current.length > 0 && (next.join(",").length > maxLength || next.length > NAMES_PER_SEARCH)) {
      batches.push(current.join(","));
      current = [id];
    } else current = next;
  }
  if (current.length > 0) batches.push(current.join(","));
  return batches;
}

const nameOf = (a: ContactItem["attributes"]) => [a.firstName, a.middleName, a.lastName].filter((p) => typeof p === "string" && p !== "").join(" ");

/** The contacts with their names, job titles and company names where the search found them. */
export async function withContactNames(contacts: readonly AccountContact[], search: ContactSearch, signal?: AbortSignal): Promise<AccountContact[]> {
  const ids = [...new Set(contacts.map((c) => c.contactId))];
  const found = new Map<string, ContactItem["attributes"]>();
  for (const batch of idBatches(ids)) {
    const page = await search({ personId: batch }, { size: NAMES_PER_SEARCH, page: 1, priority: "bulk", ...(signal ? { signal } : {}) });
    for (const item of page.items) found.set(String(item.id), item.attributes);
  }
  return contacts.map((c) => {
    const a = found.get(c.contactId);
    if (!a) return c;
    return { ...c, contactName: nameOf(a), jobTitle: a.jobTitle ?? "", companyName: a.company?.name ?? "" };
  });
}
