// Paging against production: how many pages exist is worked out from totalResults, the page
// size and the 100-page cap, never from meta.page.total (production's own examples show it
// holding the number of records on the page). A page past the end answers 400 PFAPI0004.
import { LIMITS } from "../../contract/index.js";

const PAST_THE_END_CODE = "PFAPI0004";

/** The pages one search can be read in. */
export function pageCount(totalResults: number, pageSize: number): number {
  if (totalResults <= 0 || pageSize <= 0) return 0;
  return Math.min(Math.ceil(totalResults / pageSize), LIMITS.maxPageNumber);
}

/** Error codes found in an error document of either shape ({errors:[...]} or {error:{...}}). */
export function errorCodesOf(body: unknown): string[] {
  if (body === null || typeof body !== "object") return [];
  const doc = body as { errors?: unknown; error?: unknown };
  const objects = Array.isArray(doc.errors) ? doc.errors : doc.error !== undefined ? [doc.error] : [];
  return objects
    .map((e) => (e !== null && typeof e === "object" && "code" in e ? String((e as { code: unknown }).code) : ""))
    .filter((c) => c !== "");
}

/** Whether an answer says the page asked for lies past the last one: the end of the results. */
export function isEndOfPages(status: number, body: unknown): boolean {
  return status === 400 && errorCodesOf(body).includes(PAST_THE_END_CODE);
}
