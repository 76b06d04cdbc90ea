// The relayed request bodies the broker holds in memory at once: a request reserves its body's
// size (its Content-Length, or the largest body when it does not say) after its token was looked
// at and its queue place taken, and before a byte of the body is read; the reservation ends with
// the request. Bounded in total and per organization, so neither many callers nor one
// organization's uploads can fill the broker's memory.
import { Transform, type TransformCallback } from "node:stream";
import type { Clock } from "../core/contract/index.js";

export type BudgetRefusal = "total" | "organization";

export class BodyBudget {
  private total = 0;
  private readonly byOrganization = new Map<string, number>();

  constructor(
    private readonly totalLimit: number,
    private readonly organizationLimit: number,
  ) {}

  /** Bytes reserved now (for tests and benches). */
  get reserved(): number {
    return this.total;
  }

  /** Reserves `bytes` for `organization`: a release, or which limit refused it. */
  reserve(organization: string, bytes: number): (() => void) | BudgetRefusal {
    const mine = this.byOrganization.get(organization) ?? 0;
    if (this.total + bytes > this.totalLimit) return "total";
    if (mine + bytes > this.organizationLimit) return "organization";
    this.total += bytes;
    this.byOrganization.set(organization, mine + bytes);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total -= bytes;
      const left = (this.byOrganization.get(organization) ?? bytes) - bytes;
      if (left > 0) this.byOrganization.set(organization, left);
      else this.byOrganization.delete(organization);
    };
  }
}

/** A body-read failure the error handler answers (413 over the reservation, 408 too slow). */
export class BodyReadError extends Error {
  constructor(
    readonly statusCode: 408 | 413,
    readonly code: "BROKER_BODY_TIMEOUT" | "FST_ERR_CTP_BODY_TOO_LARGE",
  ) {
    super(statusCode === 408 ? "The request body did not arrive in time." : "The request body is larger than it said.");
  }
}

/**
 * The body stream, passed through while it stays within `bytes` and arrives within `timeoutMs`
 * on the broker's clock (the time limit ends with the body).
 */
export function boundedBody(payload: NodeJS.ReadableStream, bytes: number, timeoutMs: number, clock: Pick<Clock, "sleep">): Transform {
  let seen = 0;
  const over = new AbortController();
  const bounded = new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      seen += chunk.length;
      if (seen > bytes) return done(new BodyReadError(413, "FST_ERR_CTP_BODY_TOO_LARGE"));
      done(null, chunk);
    },
  });
  clock.sleep(timeoutMs, over.signal).then(
    () => bounded.destroy(new BodyReadError(408, "BROKER_BODY_TIMEOUT")),
    () => undefined,
  );
  bounded.once("close", () => over.abort());
  payload.once("error", (error) => bounded.destroy(error));
  payload.pipe(bounded);
  return bounded;
}
