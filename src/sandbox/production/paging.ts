// Production's paging on the wire, for every paged operation of the profile (company, contact and
// signal searches and enrich): the page asked, the 100-page cap (a 400 above it), and the core's
// answer in production's terms (meta.page.total = the number of pages, links under /gtm).
import { ERROR_CODES, LIMITS } from "../../core/contract/index.js";
import { ApiError } from "../errors.js";

const GTM = "/gtm";

/** The query of a request URL, with its "?" ("" when none). */
export const queryOf = (url: string) => {
  const q = url.indexOf("?");
  return q === -1 ? "" : url.slice(q);
};

/** The page number and size a request asks for (defaults where absent or unreadable). */
export function pageOf(url: string): { number: number; size: number } {
  const params = new URLSearchParams(queryOf(url).slice(1));
  const number = Number(params.get("page[number]") ?? 1);
  const size = Number(params.get("page[size]") ?? LIMITS.defaultPageSize);
  return { number: Number.isFinite(number) ? number : 1, size: Number.isFinite(size) && size > 0 ? size : LIMITS.defaultPageSize };
}

/** Production refuses a page above 100 with its own 400, before the core is asked. */
export function refuseBeyondPageCap(number: number): void {
  if (number > LIMITS.maxPageNumber) {
    throw new ApiError(400, ERROR_CODES.validation, `Page number cannot be greater than max value ${LIMITS.maxPageNumber}`, { parameter: "page[number]" });
  }
}

type Paged = { meta?: Record<string, unknown>; links?: Record<string, unknown> };

/** The core's paged answer in production's terms: page.total is the number of pages of the whole result set (not capped at 100). */
export function pagedToWire<D extends Paged>(doc: D, number: number, size: number): D {
  const totalResults = typeof doc.meta?.totalResults === "number" ? doc.meta.totalResults : 0;
  const page = { ...((doc.meta?.page as Record<string, unknown> | undefined) ?? {}), number, total: Math.ceil(totalResults / size) };
  return { ...doc, meta: { ...doc.meta, page }, links: linksToWire(doc.links) };
}

function linksToWire(links: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!links) return links;
  return Object.fromEntries(Object.entries(links).map(([k, v]) => [k, typeof v === "string" && v.startsWith("/data/") ? `${GTM}${v}` : v]));
}
