// The account's usage as the gauge shows it: read once, read again on Refresh, and read again
// whenever the runtime says spending calls changed it (searches, inserts, enrichment), so the
// gauge follows spending without a click. A store for useSyncExternalStore.
import type { UsageEntry } from "../../core/contract/index.js";
import { errorText } from "../errorText.js";

export interface UsageState {
  entries?: UsageEntry[];
  problem?: string;
}

export interface UsageSource {
  usage(): Promise<{ entries: UsageEntry[] }>;
  /** Calls the listener after a request that spends; returns the unsubscribe. */
  onUsageChanged?(listener: () => void): () => void;
}

export interface UsageFeed {
  subscribe(listener: () => void): () => void;
  getSnapshot(): UsageState;
  refresh(): Promise<void>;
}

export function createUsageFeed(source: UsageSource): UsageFeed {
  let state: UsageState = {};
  const listeners = new Set<() => void>();
  let stopFollowing: (() => void) | undefined;
  // Only the newest read counts: an older answer arriving late does not show.
  let latest = 0;
  const set = (next: UsageState) => {
    state = next;
    listeners.forEach((l) => l());
  };
  const refresh = async () => {
    const mine = ++latest;
    try {
      const { entries } = await source.usage();
      if (mine === latest) set({ entries });
    } catch (error) {
      if (mine === latest) set({ ...(state.entries ? { entries: state.entries } : {}), problem: errorText(error) });
    }
  };
  return {
    subscribe(listener) {
      listeners.add(listener);
      if (listeners.size === 1) {
        stopFollowing = source.onUsageChanged?.(() => void refresh());
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
