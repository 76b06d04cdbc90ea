// The production edge: a Transport that wraps another and speaks production's dialect, so the
// client above it keeps the contract's names, paths and documents. It translates wire names,
// reads rows through the studio search operation, reads every page of the audience list, turns
// studio paging into the contract's, ends paging at PFAPI0004, drops output fields the account
// is not entitled to, and fills a column's missing dataType.
import type { Transport, TransportRequest, TransportResponse } from "../types.js";
import { createEntitlementCache, entitledFieldNames, entitlementLookupPath, type EntitlementCache, type EntityKind } from "./entitlements.js";
import { isEndOfPages, pageCount } from "./paging.js";
import { collectAudienceList, contractMeta, normalizeAudience, rowsSearchUrl } from "./studioAudiences.js";
import { translateJson, translateUrl } from "./wireNames.js";

export interface ProductionEdgeOptions {
  /** Check output fields against the account's entitlement before enriching (default true). */
  checkEntitlements?: boolean;
  /** Told which requested fields were dropped (the engine reports them per cell). */
  onRefusedFields?: (entity: EntityKind, fields: string[]) => void;
  /** Where the entitlement lookup goes before any enrichment lent it its address (pickers ask first). */
  lookup?: { baseUrl: string; authorization: () => Promise<string | undefined> };
}

const DEFAULT_PAGE_SIZE = 25;

function jsonResponse(status: number, body: unknown, like?: TransportResponse): TransportResponse {
  const text = JSON.stringify(body);
  return {
    status,
    headers: {
      get: (name) => (name.toLowerCase() === "content-type" ? "application/json" : (like?.headers.get(name) ?? null)),
    },
    text: async () => text,
  };
}

function parse(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const ok = (status: number) => status >= 200 && status < 300;

/** Reads an answer; a success is translated, anything else passes through unchanged. */
async function translated(response: TransportResponse, change: (doc: unknown) => unknown): Promise<TransportResponse> {
  if (!ok(response.status)) return response;
  const text = await response.text();
  const doc = parse(text);
  if (doc === undefined) return { ...response, text: async () => text };
  return jsonResponse(response.status, change(doc), response);
}

function pageOf(url: URL): { number: number; size: number } {
  const number = Number(url.searchParams.get("page[number]") ?? "1") || 1;
  const size = Number(url.searchParams.get("page[size]") ?? String(DEFAULT_PAGE_SIZE)) || DEFAULT_PAGE_SIZE;
  return { number, size };
}

/** The contract's meta with page.total from totalResults and the page size (never production's page.total). */
function fixSearchMeta(doc: unknown, size: number): unknown {
  if (doc === null || typeof doc !== "object") return doc;
  const d = doc as { meta?: { totalResults?: unknown; page?: Record<string, unknown> } };
  if (!d.meta || typeof d.meta.totalResults !== "number") return doc;
  return { ...d, meta: { ...d.meta, page: { ...d.meta.page, total: pageCount(d.meta.totalResults, size) } } };
}

export type ProductionTransport = Transport & {
  /** The entitlement cache (cleared when another user signs in). */
  readonly entitlements: EntitlementCache;
};

export function productionTransport(inner: Transport, options: ProductionEdgeOptions = {}): ProductionTransport {
  /** The request that needs the entitlement lookup lends it its address and its sign-in. */
  let lender: { url: URL; headers: Record<string, string> } | undefined;
  const entitlements = createEntitlementCache(async (entity) => {
    let base: string;
    let authorization: string | undefined;
    if (lender) {
      base = lender.url.href.slice(0, lender.url.href.indexOf("/data/v1/"));
      authorization = lowerCaseKeys(lender.headers).authorization;
    } else if (options.lookup) {
      base = options.lookup.baseUrl.replace(/\/+$/, "");
      authorization = await options.lookup.authorization();
      if (!authorization) return undefined;
    } else return undefined;
    const response = await inner(`${base}${entitlementLookupPath(entity)}`, {
      method: "GET",
      headers: { accept: "application/json", ...(authorization ? { authorization } : {}) },
    });
    if (!ok(response.status)) return undefined;
    return entitledFieldNames(translateJson(parse(await response.text()), "fromWire"));
  });
  const enrichEntity = (path: string): EntityKind | undefined =>
    path.endsWith("/data/v1/companies/enrich") ? "company" : path.endsWith("/data/v1/contacts/enrich") ? "contact" : undefined;

  async function search(url: URL, init: TransportRequest): Promise<TransportResponse> {
    const body = init.body === undefined ? undefined : JSON.stringify(translateJson(parse(init.body), "toWire"));
    const response = await inner(translateUrl(url.href, "toWire"), { ...init, ...(body !== undefined ? { body } : {}) });
    const { number, size } = pageOf(url);
    if (response.status === 400) {
      const text = await response.text();
      if (isEndOfPages(400, parse(text))) {
        // Past the last page: no records here, and none after.
        const before = (number - 1) * size;
        return jsonResponse(200, { data: [], meta: { totalResults: before, page: { number, total: pageCount(before, size) } } }, response);
      }
      return { ...response, text: async () => text };
    }
    return translated(response, (doc) => fixSearchMeta(translateJson(doc, "fromWire"), size));
  }

  async function enrich(url: URL, init: TransportRequest, entity: EntityKind): Promise<TransportResponse> {
    let doc = parse(init.body ?? "");
    let refused: string[] = [];
    const attributes = (doc as { data?: { attributes?: { outputFields?: unknown } } } | undefined)?.data?.attributes;
    if (options.checkEntitlements !== false && attributes && Array.isArray(attributes.outputFields)) {
      const fields = attributes.outputFields.filter((f): f is string => typeof f === "string");
      lender = { url, headers: init.headers };
      const split = await entitlements.partition(entity, fields);
      refused = split.refused;
      if (refused.length > 0) {
        options.onRefusedFields?.(entity, refused);
        if (split.allowed.length === 0) {
          return jsonResponse(403, {
            errors: [
              {
                id: "unentitled-fields",
                code: "UNENTITLED_FIELDS",
                status: "403",
                title: "Fields not in the account's entitlement",
                detail: `Your account is not entitled to ${refused.join(", ")}.`,
              },
            ],
          });
        }
        const data = (doc as { data: Record<string, unknown> }).data;
        doc = { ...(doc as object), data: { ...data, attributes: { ...attributes, outputFields: split.allowed } } };
      }
    }
    const body = JSON.stringify(translateJson(doc, "toWire"));
    const response = await inner(url.href, { ...init, body });
    return translated(response, (answer) => {
      const back = translateJson(answer, "fromWire");
      if (refused.length === 0 || back === null || typeof back !== "object") return back;
      const meta = (back as { meta?: Record<string, unknown> }).meta ?? {};
      return { ...(back as object), meta: { ...meta, unentitledFields: refused } };
    });
  }

  async function audienceList(url: URL, init: TransportRequest): Promise<TransportResponse> {
    let failure: TransportResponse | undefined;
    const list = await collectAudienceList(async (number, size) => {
      const pageUrl = new URL(url.href);
      pageUrl.searchParams.set("page[number]", String(number));
      pageUrl.searchParams.set("page[size]", String(size));
      const response = await inner(pageUrl.href, init);
      const text = await response.text();
      const doc = parse(text);
      if (ok(response.status)) return doc ?? null;
      if (number > 1 && isEndOfPages(response.status, doc)) return null;
      failure = { ...response, text: async () => text };
      return null;
    });
    if (failure) return failure;
    return jsonResponse(200, { ...list, meta: { totalResults: list.data.length, page: { number: 1, total: 1 } } });
  }

  async function rows(url: URL, searchUrl: string, init: TransportRequest): Promise<TransportResponse> {
    const { number, size } = pageOf(url);
    const response = await inner(searchUrl, {
      ...init,
      method: "POST",
      headers: { ...init.headers, "content-type": "application/json" },
      body: JSON.stringify({}),
    });
    if (response.status === 400) {
      const text = await response.text();
      if (isEndOfPages(400, parse(text))) {
        return jsonResponse(200, { data: [], meta: { totalResults: (number - 1) * size, page: { number, total: number - 1 } } }, response);
      }
      return { ...response, text: async () => text };
    }
    return translated(response, (doc) => ({ ...(doc as object), meta: contractMeta(doc, number, size) }));
  }

  const send: Transport = async (rawUrl, init) => {
    const url = new URL(rawUrl);
    const path = url.pathname;
    const method = init.method.toUpperCase();
    if (method === "POST" && /\/data\/v1\/(companies|contacts)\/search$/.test(path)) return search(url, init);
    const entity = method === "POST" ? enrichEntity(path) : undefined;
    if (entity) return enrich(url, init, entity);
    if (method === "GET" && /\/v1\/audiences$/.test(path)) return audienceList(url, init);
    const searchUrl = method === "GET" ? rowsSearchUrl(url.href) : undefined;
    if (searchUrl) return rows(url, searchUrl, init);
    const response = await inner(translateUrl(url.href, "toWire"), init);
    if (method === "GET" && /\/v1\/audiences\/[^/]+$/.test(path)) {
      return translated(response, (doc) => ({ ...(doc as object), data: normalizeAudience((doc as { data?: unknown }).data) }));
    }
    return translated(response, (doc) => translateJson(doc, "fromWire"));
  };
  return Object.assign(send, { entitlements });
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}
