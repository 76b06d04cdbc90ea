// One call to the upstream (the token endpoint or the relayed service) with a time limit and a
// size cap on the answer. Failures come back as one error with a kind, which the routes turn
// into 502 (unreachable, cut off, stalled in the middle, too large) or 504 (no answer in time).

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

/** Where the time limit comes from: AbortSignal.timeout by default, a test's own signal in tests. */
export type TimeoutSignal = (ms: number) => AbortSignal;

export async function callUpstream(fetchUpstream: typeof fetch, url: string, init: RequestInit, options: { limit: number; signal: AbortSignal }): Promise<UpstreamAnswer> {
  let response: Response;
  try {
    response = await fetchUpstream(url, { ...init, redirect: "manual", signal: options.signal });
  } catch {
    throw new UpstreamFailure(options.signal.aborted ? "timeout" : "unreachable");
  }
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > options.limit) {
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
        if (size > options.limit) {
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
