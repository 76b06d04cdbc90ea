// The shape of an entry of the operation table (operations.ts) and the helpers its entries are
// written with: places per profile, paths from the contract's path functions, shared scopes.
import { SCOPES } from "./scopes.js";
import type { TSchema } from "@sinclair/typebox";

export type OperationMethod = "GET" | "POST" | "PATCH" | "DELETE";
export type OperationProfileName = "specification" | "production";

/**
 * What a call spends: nothing, a bulk credit per new record (12-month management), a bulk credit
 * per company new to a signal kind, or one AI action credit per successful call.
 */
export type OperationCredit = "none" | "bulkRecord" | "bulkSignal" | "aiAction";

/** An operation on one profile: where it is and which scopes open it (any one; none: the data role alone). */
export interface OperationPlace {
  /** Relative to the profile's base (production's is /gtm), `{name}` for a path parameter. */
  path: string;
  scopes: readonly string[];
}

export interface Operation {
  id: string;
  method: OperationMethod;
  specification?: OperationPlace;
  production?: OperationPlace;
  /** The request's body or query schema, where the contract has one. */
  body?: TSchema;
  query?: TSchema;
  /** The answer's schema (the specification's names), where the contract has one. */
  answer?: TSchema;
  credit: OperationCredit;
  /**
   * The roles of which the user needs one (the service's x-api-roles), where they are not the data
   * API's own (fea:api or fea:zia, which every data operation asks).
   */
  roles?: readonly string[];
  /** Whether sending it twice leaves the service as sending it once (safe to retry blindly). */
  idempotent: boolean;
  /** Whether the add-in's client calls it (the relay forwards exactly these). */
  client: boolean;
  /**
   * Served by the audience API (studio): the client sends it to its audience address, which in
   * production already ends in STUDIO_PREFIX (so the production path's prefix is not sent twice).
   */
  audiences?: boolean;
}

/** Where production keeps the audience operations, below its base. */
export const STUDIO_PREFIX = "/studio";

/** Writes a contract path function's path with `{name}` for each parameter. */
export function template(path: (...ids: string[]) => string, ...names: string[]): string {
  const marks = names.map((_, i) => `\u0001${i}\u0001`);
  let out = path(...marks);
  names.forEach((name, i) => (out = out.replaceAll(encodeURIComponent(marks[i]!), `{${name}}`)));
  return out;
}

export const AUDIENCE_READ = "api:audience:read";
export const AUDIENCE_MANAGE = "api:audience:manage";
/** Any data scope: production's lookups and usage. */
export const ANY_DATA_SCOPE: readonly string[] = Object.values(SCOPES);
/** The specification's audiences: the data scope of the audience's records (checked per audience) or either audience scope. */
export const AUDIENCE_DATA: readonly string[] = [SCOPES.company, SCOPES.contact, AUDIENCE_READ, AUDIENCE_MANAGE];

export const at = (path: string, scopes: readonly string[]): OperationPlace => ({ path, scopes });
/** An operation at the same path on both profiles. */
export const both = (path: string, scopes: readonly string[], production: readonly string[] = scopes) => ({
  specification: at(path, scopes),
  production: at(path, production),
});
/** An audience operation: our /v1 path, production's under /studio. */
export const studio = (path: string, production: string, client = true) => ({
  specification: at(path, AUDIENCE_DATA),
  production: at(`${STUDIO_PREFIX}${path}`, [production]),
  client,
  audiences: true,
});
