// The production edge: a Transport that wraps another and speaks production's dialect, so the
// client above it keeps the contract's names, paths and documents. It translates wire names
// (the contract's table, core/contract/production.ts), reads every page of the audience list,
// turns studio paging into the contract's (and an org chart's pages), ends paging at a 400 after page 1 (never on page 1),
// and fills a column's missing dataType. It decides nothing else: entitlements, retries and
// errors are the client's, like every request's.
import type { Transport, TransportRequest, TransportResponse } from "../types.js";
import { isPastLastPage, pageCount } from "./paging.js";
import { collectAudienceList, contractMeta, normalizeAudience } from "./studioAudiences.js";
import { enrichedFromWire, searchBodyToWire } from "./recordShapes.js";
import { translateJson, translateUrl } from "./wireNames.js";

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

/** The contract's meta with page.total from totalResults and the page size (capped at 100 pages, as the contract reads it). */
function fixSearchMeta(doc: unknown, size: number): unknown {
  if (doc === null || typeof doc !== "object") return doc;
  const d = doc as { meta?: { totalResults?: unknown; page?: Record<string, unknown> } };
  if (!d.meta || typeof d.meta.totalResults !== "number") return doc;
  return { ...d, meta: { ...d.meta, page: { ...d.meta.page, total: pageCount(d.meta.totalResults, size) } } };
}

/** An empty page after the last one: the end of the results, in the contract's terms. */
function endOfResults(number: number, size: number, like: TransportResponse): TransportResponse {
  const before = (number - 1) * size;
  return jsonResponse(200, { data: [], meta: { totalResults: before, page: { number, total: pageCount(before, size) } } }, like);
}

/** Sends a paged read; a 400 for a page after the first is the end, anything on page 1 passes through. */
async function pagedRead(
  inner: Transport,
  url: string,
  init: TransportRequest,
  page: { number: number; size: number },
  meta: (doc: unknown) => unknown,
): Promise<TransportResponse> {
  const response = await inner(url, init);
  if (isPastLastPage(response.status, page.number)) {
    await response.text();
    return endOfResults(page.number, page.size, response);
  }
  return translated(response, meta);
}

export function productionTransport(inner: Transport): Transport {
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
      if (isPastLastPage(response.status, number)) return null;
      failure = { ...response, text: async () => text };
      return null;
    });
    if (failure) return failure;
    return jsonResponse(200, { ...list, meta: { totalResults: list.data.length, page: { number: 1, total: 1 } } });
  }

  return async (rawUrl, init) => {
    const url = new URL(rawUrl);
    const path = url.pathname;
    const method = init.method.toUpperCase();
    const page = pageOf(url);
    const body = init.body === undefined ? undefined : JSON.stringify(translateJson(parse(init.body), "toWire"));
    const wireInit = { ...init, ...(body !== undefined ? { body } : {}) };
    if (method === "POST" && /\/data\/v1\/(companies|contacts)\/search$/.test(path)) {
      const searchInit = { ...wireInit, ...(body !== undefined ? { body: JSON.stringify(searchBodyToWire(JSON.parse(body))) } : {}) };
      return pagedRead(inner, translateUrl(url.href, "toWire"), searchInit, page, (doc) => fixSearchMeta(translateJson(doc, "fromWire"), page.size));
    }
    if (method === "POST" && /\/data\/v1\/companies\/org-chart\/enrich$/.test(path)) {
      return pagedRead(inner, url.href, wireInit, page, (doc) => fixSearchMeta(doc, page.size));
    }
    if (method === "POST" && /\/audiences\/[^/]+\/rows\/actions\/search$/.test(path)) {
      return pagedRead(inner, url.href, init, page, (doc) => ({ ...(doc as object), meta: contractMeta(doc, page.number, page.size) }));
    }
    if (method === "GET" && /\/v1\/audiences$/.test(path)) return audienceList(url, init);
    const response = await inner(translateUrl(url.href, "toWire"), wireInit);
    if (method === "POST" && /\/data\/v1\/(companies|contacts)\/enrich$/.test(path)) {
      return translated(response, (doc) => enrichedFromWire(translateJson(doc, "fromWire")));
    }
    if (method === "GET" && /\/v1\/audiences\/[^/]+$/.test(path)) {
      return translated(response, (doc) => ({ ...(doc as object), data: normalizeAudience((doc as { data?: unknown }).data) }));
    }
    return translated(response, (doc) => translateJson(doc, "fromWire"));
  };
}
