// One call to the upstream (the token endpoint or the relayed service) with a time limit, kept
// on the broker's clock, and a size cap on the answer. Failures come back as one error with a kind, which the routes turn
// into 502 (unreachable, cut off, stalled in the middle, too large) or 504 (no answer in time).
import type { Clock } from "../core/contract/index.js";

export type UpstreamFailureKind = "unreachable" | "timeout" | "broken" | "too_large";

export class UpstreamFailure extends Error {
  constructor(readonly kind: UpstreamFailureKind) {
    super(`upstream call failed: ${kind}`);
    this.name = "UpstreamFailure";
  }
  /** 504 when the upstream said nothing in time, 502 for every other failure. */
  get status(): 502 | 504 {
    return this.kind === "timeout" ? 504 : 502;
  }
}

export interface UpstreamAnswer {
  status: number;
  headers: Headers;
  body: Buffer;
}

export interface UpstreamCallOptions {
  /** Largest answer body accepted (bytes). */
  limit: number;
  /** Time limit of the whole call, answer body included (ms on `clock`). */
  timeoutMs: number;
  clock: Pick<Clock, "sleep">;
  /** Ends the call early (the caller went away). */
  signal?: AbortSignal;
}

export async function callUpstream(fetchUpstream: typeof fetch, url: string, init: RequestInit, options: UpstreamCallOptions): Promise<UpstreamAnswer> {
  const timeUp = new AbortController();
  const callOver = new AbortController();
  options.clock.sleep(options.timeoutMs, callOver.signal).then(
    () => timeUp.abort(new DOMException("The upstream did not answer in time.", "TimeoutError")),
    () => undefined,
  );
  const signal = options.signal ? AbortSignal.any([timeUp.signal, options.signal]) : timeUp.signal;
  try {
    return await readAnswer(fetchUpstream, url, init, options.limit, signal);
  } finally {
    callOver.abort();
  }
}

async function readAnswer(fetchUpstream: typeof fetch, url: string, init: RequestInit, limit: number, signal: AbortSignal): Promise<UpstreamAnswer> {
  let response: Response;
  try {
    response = await fetchUpstream(url, { ...init, redirect: "manual", signal });
  } catch {
    throw new UpstreamFailure(signal.aborted ? "timeout" : "unreachable");
  }
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    throw new UpstreamFailure("too_large");
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (response.body) {
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > limit) {
          await reader.cancel().catch(() => undefined);
          throw new UpstreamFailure("too_large");
        }
        chunks.push(value);
      }
    } catch (error) {
      if (error instanceof UpstreamFailure) throw error;
      // Cut off or stalled past the time limit after the answer began: a bad answer, not a late one.
      throw new UpstreamFailure("broken");
    }
  }
  return { status: response.status, headers: response.headers, body: Buffer.concat(chunks) };
}
