// A request hook that tells listeners the account's usage may have changed: once a burst of
// spending requests (enrichment, audience jobs) has settled, whether they succeeded or not (a
// failed request may still have been charged). Listeners such as the usage gauge then ask the
// usage operation again; one notification per burst, not one per request.
import type { RequestHooks } from "./hooks.js";

export type UsageListener = () => void;

export interface UsageChanges {
  onUsageChanged(listener: UsageListener): () => void;
}

export function usageChangesAfterSpending(hooks: RequestHooks): UsageChanges {
  const listeners = new Set<UsageListener>();
  let spending = 0;
  hooks.wrap(async (send, spec) => {
    if (!spec.spends) return send(spec);
    spending += 1;
    try {
      return await send(spec);
    } finally {
      spending -= 1;
      if (spending === 0) {
        for (const listener of [...listeners]) {
          try {
            listener();
          } catch {
            // A listener's failure is its own; the request's outcome stands.
          }
        }
      }
    }
  });
  return {
    onUsageChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
