// Builds a client on the fake clock and a scripted transport.
import { createServiceClient, type LogEntry, type ServiceClientOptions } from "../../../src/core/api/index.js";
import { FakeClock, scriptedTransport, tokenSource, type Handler } from "./scripted.js";

export const BASE = "https://api.test";

export function harness(handler: Handler, options: Partial<ServiceClientOptions> = {}) {
  const clock = new FakeClock();
  const transport = scriptedTransport(clock, handler);
  const tokens = tokenSource();
  const logs: LogEntry[] = [];
  const client = createServiceClient({
    baseUrl: BASE,
    getAccessToken: tokens.getAccessToken,
    fetch: transport,
    clock,
    random: () => 0.5,
    retry: { baseDelayMs: 100, maxDelayMs: 1000, patienceMs: 10000 },
    log: (entry) => logs.push(entry),
    ...options,
  });
  return { clock, transport, requests: transport.requests, tokens, logs, client };
}

/** Awaits a promise that should reject and returns the rejection. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}
