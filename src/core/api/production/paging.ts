// Paging against production: how many pages exist is worked out from totalResults, the page
// size and the 100-page cap (meta.page.total is production's page count, uncapped). PFAPI0004
// is not an end-of-results code ("not enough input"): only an answer for a page after the first
// can mean the end, and an error on page 1 is always an error.
import { LIMITS } from "../../contract/index.js";

/** The pages one search can be read in. */
export function pageCount(totalResults: number, pageSize: number): number {
  if (totalResults <= 0 || pageSize <= 0) return 0;
  return Math.min(Math.ceil(totalResults / pageSize), LIMITS.maxPageNumber);
}

/**
 * Whether an answer says the page asked for lies past the last one: a 400 for a page number
 * above 1 (production publishes no code for it). Page 1 never ends anything.
 */
export function isPastLastPage(status: number, pageNumber: number): boolean {
  return status === 400 && pageNumber > 1;
}
