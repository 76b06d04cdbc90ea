// AI action credits: what a list of briefings or a question will cost, said before anything is
// sent, and the user's own daily cap on them. The cap is the enrichment's spend guard
// (core/enrich/spendReservations.ts) on a count of its own: a call reserves one credit before it
// leaves, a success keeps it, a refusal gives it back, and a call lost on its way keeps it (the
// service may have charged).
import { paneMessage, refusals } from "../errors/failure.js";
import { parseSpendState, type SpendState, type SpendStore } from "../enrich/spendReservations.js";
import type { KeyValueItems } from "../storage/keyValue.js";
import type { AiActionBalance } from "./port.js";

/** AI action credits a user may spend a day unless they choose otherwise. */
export const DEFAULT_DAILY_AI_CAP = 100;

export const AI_SPEND_KEY_PREFIX = "bizdata.research.aiDaily";

/** Today's AI count in the user's storage, per scope (profile and user). */
export function aiSpendStore(storage: KeyValueItems, scope: string): SpendStore {
  const key = `${AI_SPEND_KEY_PREFIX}|${scope}`;
  return {
    load: async () => parseSpendState(await storage.getItem(key)),
    save: (state) => storage.setItem(key, JSON.stringify(state)),
  };
}

export interface AiEstimate {
  /** Distinct companies asked. */
  companies: number;
  /** Of them, briefings already fetched: reused, free. */
  reused: number;
  /** Credits the run spends at most (one per briefing not fetched yet, or one per question). */
  credits: number;
  /** The account's balance, when the service tells it. */
  balance?: AiActionBalance;
  /** Today's count against the user's daily AI cap. */
  daily: SpendState;
  /** Why it cannot run as asked (over the balance or today's cap); undefined when it can. */
  blocked?: string;
  /** "10 briefings: 10 AI action credits; you have 240". */
  summary: string;
}

const count = (n: number) => n.toLocaleString("en-US");
const plural = (n: number, one: string, many = `${one}s`) => `${count(n)} ${n === 1 ? one : many}`;

/** The estimate's words and limits for `credits` AI credits of `what` ("10 briefings", "1 question"). */
export function aiEstimate(
  what: string,
  figures: { companies: number; reused: number; credits: number },
  daily: SpendState,
  balance?: AiActionBalance,
): AiEstimate {
  const { credits, reused } = figures;
  const cost = credits === 0 ? "no AI action credits" : plural(credits, "AI action credit");
  const have = balance ? `; you have ${count(balance.remaining)}` : "";
  const reuse = reused > 0 ? ` (${plural(reused, "briefing")} already fetched, reused free)` : "";
  const summary = `${what}: ${cost}${reuse}${have}.`;
  const leftToday = Math.max(0, daily.cap - daily.used);
  let blocked: string | undefined;
  if (balance && credits > 0 && balance.remaining === 0) blocked = paneMessage(refusals.aiCredits());
  else if (balance && credits > balance.remaining)
    blocked = `That needs ${plural(credits, "AI action credit")} and the account has ${count(balance.remaining)} left. Choose fewer companies.`;
  else if (credits > leftToday)
    blocked = `That needs ${plural(credits, "AI action credit")} and your daily AI limit has ${count(leftToday)} left today (${count(daily.used)} of ${count(daily.cap)} used). Choose fewer companies or raise the limit.`;
  return { ...figures, ...(balance ? { balance } : {}), daily, ...(blocked ? { blocked } : {}), summary };
}

export { plural as countOf };
