// The operations the relay forwards: the method and path of each operation the add-in's client
// calls, on either profile, and nothing else. A request for any other operation is refused by
// the relay itself (404), before it costs the service anything and before its answer could be
// read as the service's acceptance of a token (trust.ts: only a 2xx of a known operation proves
// one). The list is made from the contract's operation table (core/contract/operations.ts), so
// the client and the relay cannot drift (test/broker/relayOperations.test.ts checks it).
import { OPERATIONS, type Operation, type OperationMethod } from "../core/contract/index.js";

export type RelayMethod = OperationMethod;

export interface RelayOperation {
  method: RelayMethod;
  /** The path as the contract declares it, with `{id}` where a path parameter goes. */
  path: string;
}

/**
 * The paths a relay serves an operation at: production's, and the specification's data paths
 * (its audience paths are on another base, which no relay fronts).
 */
function relayedPaths(op: Operation): string[] {
  const paths = [op.production?.path, op.specification?.path.startsWith("/data/") ? op.specification.path : undefined];
  return [...new Set(paths.filter((path): path is string => path !== undefined))];
}

/** The allow-list, with `{id}` for path parameters (for docs and tests). */
export const RELAY_OPERATIONS: readonly RelayOperation[] = OPERATIONS.filter((op) => op.client).flatMap((op) =>
  relayedPaths(op).map((path) => ({ method: op.method, path: path.replace(/\{[^}/]+\}/g, "{id}") })),
);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const MATCHERS: readonly { method: string; pattern: RegExp }[] = RELAY_OPERATIONS.map(({ method, path }) => ({
  method,
  // A parameter is one whole segment, percent-encoded as the client writes it (never empty, never a "/").
  pattern: new RegExp(`^${path.split("{id}").map(escapeRegExp).join("[^/]+")}$`),
}));

/** Whether `method` on `path` (the request's path, without its query) is an operation the relay forwards. */
export function isRelayedOperation(method: string, path: string): boolean {
  return MATCHERS.some((m) => m.method === method && m.pattern.test(path));
}
