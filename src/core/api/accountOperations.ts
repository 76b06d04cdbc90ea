// The account's own operations: lookup values of a filter field (kept for the client's life,
// one request per field however many callers ask), the output-field lookup and the usage summary.
import { AI_ACTION_LIMIT_TYPE, OutputFieldLookupDocument, PATHS, type LookupItem } from "../contract/index.js";
import type { ClientContext } from "./clientContext.js";
import { callOperation } from "./operationCall.js";
import { cancelledError } from "./request.js";
import { keyedSingleFlight } from "./singleFlight.js";
import type { ServiceClient, UsageSummary } from "./types.js";

/** Waits for a shared promise, but lets this caller stop waiting on its own signal. */
function awaitWithSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined, operation: string): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(cancelledError(operation));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelledError(operation));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

export function accountOperations(ctx: ClientContext): Pick<ServiceClient, "lookup" | "usage" | "outputFields"> {
  // Not tied to one caller's signal: other callers may be waiting for the same answer.
  const lookupOnce = keyedSingleFlight(
    async (fieldName: string): Promise<LookupItem[]> => (await callOperation(ctx, "lookup", { params: { fieldName } })).data,
    { keepResult: true },
  );
  return {
    lookup: (fieldName, options) => awaitWithSignal(lookupOnce(fieldName), options?.signal, `GET ${PATHS.lookup(fieldName)}`),

    // Through the request runner like every request (retry, rate limit, hooks, sign-in renewal).
    async outputFields(kind, options) {
      const doc = await callOperation(ctx, "lookupEnrich", {
        query: { "filter[entity]": kind, "filter[fieldType]": "output" },
        answer: OutputFieldLookupDocument,
        signal: options?.signal,
      });
      return doc.data;
    },

    async usage(options): Promise<UsageSummary> {
      const doc = await callOperation(ctx, "usage", { readsUsage: true, signal: options?.signal });
      const entries = doc.data.flatMap((d) => d.attributes.usage);
      const ai = entries.find((e) => e.limitType === AI_ACTION_LIMIT_TYPE);
      return { entries, ...(ai ? { aiActions: { limit: ai.totalLimit, used: ai.currentUsage, remaining: ai.usageRemaining } } : {}) };
    },
  };
}
