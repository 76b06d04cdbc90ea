// The operations the relay forwards: the method and path of each operation the add-in's client
// calls, on either profile, and nothing else. A request for any other operation is refused by
// the relay itself (404), before it costs the service anything and before its answer could be
// read as the service's acceptance of a token (trust.ts: only a 2xx of a known operation proves
// one). The paths come from the contract's own declarations, so the client and the relay
// cannot drift; the methods are the client's (test/broker/relayOperations.test.ts checks both).
import { AUDIENCE_WRITE_PATHS, HASHTAGS_PATH, PATHS, RESEARCH_PATHS, SIGNAL_PATHS } from "../core/contract/index.js";

export type RelayMethod = "GET" | "POST" | "PATCH" | "DELETE";

export interface RelayOperation {
  method: RelayMethod;
  /** The path as the contract declares it, with `{id}` where a path parameter goes. */
  path: string;
}

/** Stands for a path parameter while the contract's path functions are read. */
const PARAMETER = "\u0000";
const param = (path: (id: string, other: string) => string) => path(PARAMETER, PARAMETER);
/** Audience paths are relative to the audience base: /studio on the production profile (the only one a relay serves them for). */
const studio = (path: string) => `/studio${path}`;

const research = RESEARCH_PATHS;
const writes = AUDIENCE_WRITE_PATHS;

/** Every operation the add-in calls through a relay, by method and path. */
const DECLARED: readonly (readonly [RelayMethod, string])[] = [
  ["POST", PATHS.searchCompanies],
  ["POST", PATHS.searchContacts],
  ["POST", PATHS.enrichCompanies],
  ["POST", PATHS.enrichContacts],
  ["GET", param(PATHS.lookup)],
  ["GET", PATHS.usage],
  ...Object.values(SIGNAL_PATHS).map((path) => ["POST", path] as const),
  ["POST", HASHTAGS_PATH],
  ...(["specification", "production"] as const).flatMap((profile) => [
    ["GET", param(research[profile].accountBriefing)] as const,
    ["POST", param(research[profile].askAccount)] as const,
    ["GET", research[profile].companyLookalikes()] as const,
    ["GET", research[profile].contactLookalikes()] as const,
    ["GET", research[profile].contactRecommendations()] as const,
  ]),
  ["GET", param(research.specification.contactBriefing)],
  ["GET", studio(PATHS.audiences)],
  ["GET", studio(param(PATHS.audience))],
  ["POST", studio(param(PATHS.audienceRowsSearch))],
  ["POST", studio(param(PATHS.enrichAudience))],
  ["GET", studio(param(PATHS.job))],
  ["POST", studio(writes.audiences)],
  ["PATCH", studio(param(writes.audience))],
  ["DELETE", studio(param(writes.audience))],
  ["POST", studio(param(writes.addColumns))],
  ["POST", studio(param(writes.matchCriteria))],
  ["POST", studio(param(writes.bulkUpsertRows))],
  ["DELETE", studio(param(writes.deleteRows))],
  ["GET", studio(writes.folders)],
  ["POST", studio(writes.folders)],
];

/** The allow-list, with `{id}` for path parameters (for docs and tests). */
export const RELAY_OPERATIONS: readonly RelayOperation[] = DECLARED.map(([method, path]) => ({
  method,
  path: path.replaceAll(encodeURIComponent(PARAMETER), "{id}"),
}));

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
