// Small HTTP helpers for the sandbox suites (real requests over loopback).
import type { TestSandbox } from "../helpers/sandbox.js";

export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export async function call<T = any>(
  sandbox: TestSandbox,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; rawBody?: string; contentType?: string } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const hasBody = options.body !== undefined || options.rawBody !== undefined;
  if (hasBody) headers["content-type"] = options.contentType ?? "application/vnd.api+json";
  const res = await fetch(`${sandbox.url}${path}`, {
    method,
    headers,
    ...(hasBody ? { body: options.rawBody ?? JSON.stringify(options.body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as T };
}

export const companySearch = (attributes: object) => ({ data: { type: "CompanySearch", attributes } });
export const contactSearch = (attributes: object) => ({ data: { type: "ContactSearch", attributes } });

export function searchPath(kind: "companies" | "contacts", query: Record<string, string | number> = {}): string {
  const q = Object.entries(query)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join("&");
  return `/data/v1/${kind}/search${q ? `?${q}` : ""}`;
}

/** Every id a search returns (all pages of 100; the filter must match at most 10,000). */
export async function allIds(sandbox: TestSandbox, token: string, kind: "companies" | "contacts", attributes: object): Promise<number[]> {
  const body = kind === "companies" ? companySearch(attributes) : contactSearch(attributes);
  const ids: number[] = [];
  for (let page = 1; page <= 100; page++) {
    const res = await call(sandbox, "POST", searchPath(kind, { "page[number]": page, "page[size]": 100 }), { token, body });
    if (res.status !== 200) throw new Error(`search answered ${res.status}: ${JSON.stringify(res.body)}`);
    for (const item of res.body.data) ids.push(Number(item.id));
    if (page >= res.body.meta.page.total) break;
  }
  return ids;
}
