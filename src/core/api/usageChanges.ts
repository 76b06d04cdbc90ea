// A request hook that tells listeners the account's usage may have changed: after every request
// settles, whether it succeeded or not (each one counts against the request allowance, and a
// failed one may still have been charged). Reading the usage itself changes nothing shown, so it
// tells no one (otherwise a gauge would read forever). Listeners such as the usage gauge decide
// how often to read the usage again (the gauge reads at most once in a short interval).
import type { RequestHooks } from "./hooks.js";

export type UsageListener = () => void;

export interface UsageChanges {
  onUsageChanged(listener: UsageListener): () => void;
}

export function usageChangesAfterRequests(hooks: RequestHooks): UsageChanges {
  const listeners = new Set<UsageListener>();
  hooks.wrap(async (send, spec) => {
    if (spec.readsUsage) return send(spec);
    try {
      return await send(spec);
    } finally {
      for (const listener of [...listeners]) {
        try {
          listener();
        } catch {
          // A listener's failure is its own; the request's outcome stands.
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
