// Which bearer tokens the relay has seen proven, so that only they take a tenant's paced slots.
// A token's claims choose the tenant's queue; the broker cannot check them itself unless it
// verifies signatures (trust.ts). So a token is proven when the service has answered one of its
// requests with anything but a refusal of the token (401), a refusal of the rate (429) or a
// failure of its own (5xx): the service read it as genuine, and its claims with it. The proof is
// kept under a hash of the token (never the token) until the token expires (at most a day),
// for a bounded number of tokens, the least recently used forgotten first.
import { createHash } from "node:crypto";
import type { Clock } from "../core/contract/index.js";

/** Tokens remembered at most (about 100 bytes each). */
export const PROOFS_KEPT = 20_000;
/** Longest a proof is kept; a token without exp is kept this long. */
const LONGEST_PROOF_MS = 24 * 3600 * 1000;
const UNDATED_PROOF_MS = 3600 * 1000;

export const tokenKey = (token: string): string => createHash("sha256").update(`token:${token}`).digest("base64url").slice(0, 22);

/** Whether a service answer proves that it took the token as genuine. */
export function proves(status: number): boolean {
  return status < 500 && status !== 401 && status !== 429 && status !== 407;
}

export class ProvenTokens {
  private readonly until = new Map<string, number>();

  constructor(
    private readonly clock: Pick<Clock, "now">,
    private readonly kept = PROOFS_KEPT,
  ) {}

  get size(): number {
    return this.until.size;
  }

  has(key: string): boolean {
    const until = this.until.get(key);
    if (until === undefined) return false;
    this.until.delete(key);
    if (until <= this.clock.now()) return false;
    this.until.set(key, until);
    return true;
  }

  /** Remembers the token's proof until `expiresAtSeconds` (its exp claim), at most a day. */
  add(key: string, expiresAtSeconds: number | undefined): void {
    const now = this.clock.now();
    const until = Math.min(now + LONGEST_PROOF_MS, expiresAtSeconds === undefined ? now + UNDATED_PROOF_MS : expiresAtSeconds * 1000);
    if (until <= now) return;
    this.until.delete(key);
    this.until.set(key, until);
    while (this.until.size > this.kept) this.until.delete(this.until.keys().next().value!);
  }

  /** The service refused the token after all (revoked, expired early): it must prove itself again. */
  forget(key: string): void {
    this.until.delete(key);
  }
}
