// A small production-dialect service behind a Transport, for the edge's tests: it answers only
// production's names and paths, pages as production does, and records what it was sent.
import type { Transport, TransportResponse } from "../../../../src/core/api/types.js";

export interface Sent {
  method: string;
  url: URL;
  body: unknown;
  headers: Record<string, string>;
}

export type Handler = (sent: Sent) => { status: number; body: unknown } | undefined;

export function fakeService(handler: Handler): { transport: Transport; sent: Sent[] } {
  const sent: Sent[] = [];
  const transport: Transport = async (url, init) => {
    const s: Sent = { method: init.method, url: new URL(url), body: init.body ? (JSON.parse(init.body) as unknown) : undefined, headers: init.headers };
    sent.push(s);
    const answer = handler(s) ?? { status: 404, body: { error: { code: "ZI9998", message: "No route" } } };
    const text = JSON.stringify(answer.body);
    const response: TransportResponse = { status: answer.status, headers: { get: () => null }, text: async () => text };
    return response;
  };
  return { transport, sent };
}

export async function json(response: TransportResponse): Promise<unknown> {
  return JSON.parse(await response.text()) as unknown;
}
