// A document posted to a data API path (documentOperations.ts): the operation of a kind declared
// in core/enrich that has none of its own here (hashtags).
import type { Static, TSchema } from "@sinclair/typebox";
import type { RequestPriority } from "./requestSpec.js";

export interface DocumentOperations {
  /** Posts `body` to `path`; the answer is checked against `document`. */
  postDocument<T extends TSchema>(
    request: { path: string; body: unknown; document: T },
    options?: { signal?: AbortSignal; priority?: RequestPriority },
  ): Promise<Static<T>>;
}
