// The HTTP layer behind a small interface: the global fetch by default (Node 20 and browsers
// both have it), a scripted function in tests.
import type { Transport } from "./types.js";

type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** Wraps a fetch function (default: the global one) as a Transport. */
export function fetchTransport(fetchImpl?: FetchLike): Transport {
  return async (url, request) => {
    const f: FetchLike | undefined = fetchImpl ?? (globalThis.fetch as FetchLike | undefined);
    if (!f) throw new TypeError("No fetch function is available in this environment");
    const init: RequestInit = { method: request.method, headers: request.headers };
    if (request.body !== undefined) init.body = request.body;
    if (request.signal !== undefined) init.signal = request.signal;
    const response = await f(url, init);
    return {
      status: response.status,
      headers: { get: (name: string) => response.headers.get(name) },
      text: () => response.text(),
    };
  };
}
