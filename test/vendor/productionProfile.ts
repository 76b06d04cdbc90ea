// Calls the sandbox's production profile by the vendor's operationId, over real HTTP: the
// published method and path (under /gtm), path parameters filled in, the body as JSON:API.
import type { TestSandbox } from "../helpers/sandbox.js";
import { vendorOperation, type VendorApi } from "./oracle.js";

/** Every scope the profile knows: data, lookup and audience operations. */
export const ALL_SCOPES = ["api:data:company", "api:data:contact", "api:data:lookup", "api:audience:read", "api:audience:manage"];
export const JSONAPI = "application/vnd.api+json";

export interface VendorCall {
  /** Values of the path's `{name}` parameters. */
  params?: Record<string, string>;
  /** Query parameters, sent as given (`page[size]` and the like unencoded brackets are fine). */
  query?: Record<string, string | number>;
  /** The body: JSON-encoded unless a string. None when undefined. */
  body?: unknown;
  contentType?: string;
}

export interface VendorAnswer {
  status: number;
  /** The parsed JSON answer ("" for an empty one). */
  doc: unknown;
  url: string;
}

/** The operation's path under the profile's /gtm base, with its parameters filled in. */
export function profilePath(api: VendorApi, operationId: string, call: VendorCall = {}): string {
  let path = vendorOperation(api, operationId).path;
  for (const [name, value] of Object.entries(call.params ?? {})) path = path.replace(`{${name}}`, encodeURIComponent(value));
  if (/\{[^}]+\}/.test(path)) throw new Error(`${operationId}: no value for a parameter of ${path}`);
  const query = Object.entries(call.query ?? {}).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`);
  return `/gtm${path}${query.length > 0 ? `?${query.join("&")}` : ""}`;
}

/** One request of the operation to the profile, with a bearer token. */
export async function callProfile(sandbox: TestSandbox, token: string, api: VendorApi, operationId: string, call: VendorCall = {}): Promise<VendorAnswer> {
  const url = profilePath(api, operationId, call);
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  let body: string | undefined;
  if (call.body !== undefined) {
    headers["content-type"] = call.contentType ?? JSONAPI;
    body = typeof call.body === "string" ? call.body : JSON.stringify(call.body);
  }
  const res = await fetch(`${sandbox.url}${url}`, { method: vendorOperation(api, operationId).method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  return { status: res.status, doc: text === "" ? "" : (JSON.parse(text) as unknown), url };
}
