// The organization's hour and day buckets as the service last told them (X-RateLimit-Limit-*,
// X-RateLimit-Remaining-*, X-RateLimit-Reset-*), so a plan can say when a team has drawn them
// down too far for an import or an Enrich selection, and the usage view can show them.
import type { Clock } from "./types.js";

export type { BudgetReading, TenantBudgets } from "./pacing.js";
import type { BudgetReading, TenantBudgets } from "./pacing.js";

type Headers = { get(name: string): string | null };

/** A count header: undefined when absent, unreadable or -1 (the service's "unknown"). */
export function readCount(value: string | null): number | undefined {
  if (value === null) return undefined;
  const n = Number(value.trim());
  if (value.trim() === "" || !Number.isFinite(n) || n < 0) return undefined;
  return n;
}

function reading(headers: Headers, suffix: "Hour" | "Day", now: number): BudgetReading | undefined {
  const limit = readCount(headers.get(`x-ratelimit-limit-${suffix}`));
  const remaining = readCount(headers.get(`x-ratelimit-remaining-${suffix}`));
  if (limit === undefined || remaining === undefined) return undefined;
  const reset = readCount(headers.get(`x-ratelimit-reset-${suffix}`));
  return { limit, remaining, readAt: now, ...(reset !== undefined ? { resetsAt: reset * 1000 } : {}) };
}

/** Keeps the latest reading of each bucket. */
export class BudgetTracker {
  private current: TenantBudgets = {};

  constructor(private readonly clock: Pick<Clock, "now">) {}

  /** Reads an answer's headers; true when a budget changed. */
  observe(headers: Headers): boolean {
    const now = this.clock.now();
    const hour = reading(headers, "Hour", now);
    const day = reading(headers, "Day", now);
    const changed = hour?.remaining !== this.current.hour?.remaining || day?.remaining !== this.current.day?.remaining;
    if (hour) this.current.hour = hour;
    if (day) this.current.day = day;
    return changed && (hour !== undefined || day !== undefined);
  }

  get budgets(): TenantBudgets {
    const now = this.clock.now();
    // A reading past its reset says nothing about the new window.
    const fresh = (b: BudgetReading | undefined) => (b && (b.resetsAt === undefined || b.resetsAt > now) ? { ...b } : undefined);
    const hour = fresh(this.current.hour);
    const day = fresh(this.current.day);
    return { ...(hour ? { hour } : {}), ...(day ? { day } : {}) };
  }
}

/**
 * What a plan of `requests` requests should say about the organization's budgets: undefined
 * when they cover it (or were never read), otherwise a sentence in the user's terms.
 */
export function budgetShortfall(requests: number, budgets: TenantBudgets): string | undefined {
  const short = (["hour", "day"] as const).find((b) => budgets[b] !== undefined && budgets[b].remaining < requests);
  if (!short) return undefined;
  const b = budgets[short]!;
  const when = b.resetsAt !== undefined ? ` It fills again at ${new Date(b.resetsAt).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}.` : "";
  return `This needs about ${requests.toLocaleString("en-US")} requests, but your organization has ${b.remaining.toLocaleString("en-US")} left this ${short} (shared by everyone in it): part of it will wait or fail.${when}`;
}
