// What a signal search or insert costs, in words, and the question before an insert above one
// search's reach: the same behaviour as company search (the plan, then Import all or Not now),
// and, for news, which no filter splits, what one search reaches and how to narrow it.
import { LIMITS } from "../../core/contract/index.js";
import { describePlan, SEARCH_REACH, type PartitionPlan } from "../../core/search/index.js";
import { SPLITTABLE, type SignalSearchFamily } from "../../core/signals/index.js";
import type { ConfirmQuestion } from "../ConfirmDialog.js";
import { SIGNAL_NOUNS as NOUNS } from "./insertSignals.js";

const count = (n: number) => n.toLocaleString("en-US");
const NEWS_NARROWING = "choose News categories, or a Company name or Company ids";

/** The one line on the Signals tab about what searches, inserts and enrichment cost. */
export const SIGNAL_COSTS =
  "A search or an insert costs one request per page of 100 results against your organization's rate limits; signal searches spend no credits. " +
  "Intent, scoops and news in Enrich selection or BIZ cells spend one bulk-data credit per company new to the kind (free again for 12 months).";

const requests = (n: number) => `${count(n)} request${n === 1 ? "" : "s"}`;

/** Under a preview: what Insert would fetch, and, above one search's reach, what happens then. */
export function insertCostLine(family: SignalSearchFamily, total: number): string {
  const noun = NOUNS[family];
  if (total <= SEARCH_REACH) return `Insert: ${requests(Math.ceil(total / LIMITS.maxPageSize))} for ${count(total)} ${noun}, no credits.`;
  if (SPLITTABLE[family]) {
    return `One search reaches ${count(SEARCH_REACH)} results: Insert splits this one into parts to import all ${count(total)} (about ${requests(Math.ceil(total / LIMITS.maxPageSize))}, no credits) and shows you the plan first.`;
  }
  return `One news search reaches ${count(SEARCH_REACH)} of these ${count(total)} and cannot be split: Insert writes the first ${count(SEARCH_REACH)} (${requests(SEARCH_REACH / LIMITS.maxPageSize)}, no credits) and asks first. To reach the others, narrow the search: ${NEWS_NARROWING}.`;
}

/** Asked before an insert above one search's reach. */
export function signalImportQuestion(family: SignalSearchFamily, plan: PartitionPlan, rows: number, perSecond = 25): ConfirmQuestion {
  const noun = NOUNS[family];
  const credits = "Signal searches spend no credits. Cancel stops it at any time.";
  if (plan.parts.some((p) => p.unsplittable)) {
    const pages = Math.ceil(rows / LIMITS.maxPageSize);
    return {
      title: `Insert the first ${count(rows)} of ${count(plan.total)} ${noun}?`,
      text: `One news search reaches ${count(SEARCH_REACH)} results and no filter splits it into parts: Insert writes the first ${count(rows)}, about ${requests(pages)}, about ${count(Math.max(1, Math.ceil(pages / perSecond)))} s at your rate limit. ${credits} To reach the other ${count(plan.total - rows)}, narrow the search (${NEWS_NARROWING}) and insert each.`,
      no: "Not now",
      yes: `Insert ${count(rows)}`,
    };
  }
  return {
    title: `Import all ${count(plan.total)} ${noun}?`,
    text: `One search reaches ${count(SEARCH_REACH)} results, so Insert splits this one into parts and writes them all into one table: ${describePlan(plan, perSecond, LIMITS.maxPageSize, noun)}. ${credits}`,
    no: "Not now",
    yes: "Import all",
  };
}
