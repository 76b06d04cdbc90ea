// The account's usage as the gauge shows it: read once, read again on Refresh, and read again
// after the runtime says requests changed it (searches, imports, enrichment, job polls), so the
// gauge follows every request without a click. Many requests in a row cost one read per
// interval, never one read per request. The first read and each Refresh also read the plan
// again (its one request set: core/plan), and show the figures once both are in; a read after
// spending does not, since spending does not change the plan. A store for useSyncExternalStore.
import { systemClock, type Clock } from "../../core/api/index.js";
import type { UsageEntry } from "../../core/contract/index.js";
import { errorText } from "../errorText.js";

/** The usage entry of the account's credits (for new records and signals): the one figure the pane calls credits. */
export const CREDITS_LIMIT_TYPE = "record";

/** The account's credits in a usage answer, if it has them. */
export function creditsOf(entries: readonly UsageEntry[]): UsageEntry | undefined {
  return entries.find((e) => e.limitType === CREDITS_LIMIT_TYPE);
}

export interface UsageState {
  entries?: UsageEntry[];
  problem?: string;
}

export interface UsageSource {
  usage(): Promise<{ entries: UsageEntry[] }>;
  /** Calls the listener after a request that spends; returns the unsubscribe. */
  onUsageChanged?(listener: () => void): () => void;
  /** Reads the account's plan again (runtime.plan.refresh); it never fails. */
  refreshPlan?(): Promise<unknown>;
}

export interface UsageFeed {
  subscribe(listener: () => void): () => void;
  getSnapshot(): UsageState;
  refresh(): Promise<void>;
}

export interface UsageFeedOptions {
  /** The wait between a change and the read that shows it (default the system clock; tests pass a fake). */
  clock?: Pick<Clock, "sleep">;
  /** At most one read per this many ms while requests keep coming (default 1,500). */
  intervalMs?: number;
}

export function createUsageFeed(source: UsageSource, options: UsageFeedOptions = {}): UsageFeed {
  const clock = options.clock ?? systemClock;
  const intervalMs = options.intervalMs ?? 1500;
  let state: UsageState = {};
  const listeners = new Set<() => void>();
  let stopFollowing: (() => void) | undefined;
  // Only the newest read counts: an older answer arriving late does not show.
  let latest = 0;
  const set = (next: UsageState) => {
    state = next;
    listeners.forEach((l) => l());
  };
  /** Reads the usage; `alongside` (the plan's read) is awaited first, so the figures show with the plan's limits. */
  const read = async (alongside?: Promise<unknown>) => {
    const mine = ++latest;
    try {
      const { entries } = await source.usage();
      await alongside;
      if (mine === latest) set({ entries });
    } catch (error) {
      if (mine === latest) set({ ...(state.entries ? { entries: state.entries } : {}), problem: errorText(error) });
    }
  };
  const refresh = () => read(source.refreshPlan?.().catch(() => undefined));
  // A change while a read is already due joins it: the read after the wait sees both.
  let due = false;
  const changed = () => {
    if (due) return;
    due = true;
    void clock.sleep(intervalMs).then(() => {
      due = false;
      if (listeners.size > 0) return read();
    });
  };
  return {
    subscribe(listener) {
      listeners.add(listener);
      if (listeners.size === 1) {
        stopFollowing = source.onUsageChanged?.(changed);
        void refresh();
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) {
          stopFollowing?.();
          stopFollowing = undefined;
        }
      };
    },
    getSnapshot: () => state,
    refresh,
  };
}

/** The share of a limit to draw: at least a visible sliver once anything is used. */
export function barFraction(used: number, limit: number): number {
  if (limit <= 0 || used <= 0) return 0;
  return Math.min(1, Math.max(0.03, used / limit));
}
