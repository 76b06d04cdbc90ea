// One POST of a document to a data API path, its answer checked against the contract's schema:
// the operation of a kind declared in core/enrich/builtInKinds.ts (hashtags) that has no
// operation of its own here, so a new kind needs no change to the client.
import type { Static, TSchema } from "@sinclair/typebox";
import { withSignal, type ClientContext } from "./clientContext.js";
import type { DocumentOperations } from "./documentTypes.js";
import type { SignalEnrichOptions } from "./types.js";

export function documentOperations(ctx: ClientContext): DocumentOperations {
  return {
    postDocument<T extends TSchema>(request: { path: string; body: unknown; document: T }, options: SignalEnrichOptions = {}) {
      return ctx.call(request.document, {
        method: "POST",
        url: `${ctx.baseUrl}${request.path}`,
        operation: `POST ${request.path}`,
        body: request.body,
        idempotent: true,
        ...withSignal(options.signal),
        ...(options.priority ? { priority: options.priority } : {}),
      }) as Promise<Static<T>>;
    },
  };
}
