// What the client knows of its pacing, as plain shapes: the organization's hour and day buckets
// as last read (budgets.ts reads them) and the status the pane shows (rateLimiter.ts keeps it).
// Apart from both, so the client's types can name them without importing either.
export interface BudgetReading {
  limit: number;
  remaining: number;
  /** When the bucket fills again (clock ms), if the service said. */
  resetsAt?: number;
  /** When this was read (clock ms). */
  readAt: number;
}

export interface TenantBudgets {
  hour?: BudgetReading;
  day?: BudgetReading;
}

/** What the pane shows about pacing. */
export interface PacingStatus {
  /** Requests a second this client allows itself now, and its ceiling. */
  perSecond: number;
  maxPerSecond: number;
  /** Requests are queued behind the organization's rate limit (refused, or sharing it with others). */
  waitingForOrganization: boolean;
  /** The organization's hour and day buckets, as last read. */
  budgets: TenantBudgets;
}
