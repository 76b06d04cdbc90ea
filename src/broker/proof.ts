// Which bearer tokens the relay has seen proven, so that only they take a tenant's paced slots.
// A token's claims choose the tenant's queue; the broker cannot check them itself unless it
// verifies signatures (trust.ts). So, without a key set, a token is proven when the service has
// answered one of the operations the relay forwards (relayOperations.ts) with a success (2xx):
// only then has it certainly read the token as genuine, and its claims with it. A 404, 400 or
// 413 proves nothing (a gateway may answer them before it looks at the token). A 401 withdraws
// the proof for good: a withdrawn token is never proven again. Proofs and withdrawals are kept
// under a hash of the token (never the token) until the token expires (at most a day), for a
// bounded number of tokens, the least recently used forgotten first.
import { createHash } from "node:crypto";
import type { Clock } from "../core/contract/index.js";

/** Tokens remembered at most (about 100 bytes each). */
export const PROOFS_KEPT = 20_000;
/** Longest a proof is kept; a token without exp is kept this long. */
const LONGEST_PROOF_MS = 24 * 3600 * 1000;
const UNDATED_PROOF_MS = 3600 * 1000;

export const tokenKey = (token: string): string => createHash("sha256").update(`token:${token}`).digest("base64url").slice(0, 22);

/** Whether the service's answer to a forwarded operation proves that it took the token as genuine: a success only. */
export function proves(status: number): boolean {
  return status >= 200 && status < 300;
}

/** Hashes of tokens with a time each is kept until, the least recently used forgotten first beyond `kept`. */
class Remembered {
  private readonly until = new Map<string, number>();

  constructor(
    private readonly clock: Pick<Clock, "now">,
    private readonly kept: number,
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

  /** Remembers `key` until `expiresAtSeconds` (a token's exp), at most a day. */
  add(key: string, expiresAtSeconds: number | undefined): void {
    const now = this.clock.now();
    const until = Math.min(now + LONGEST_PROOF_MS, expiresAtSeconds === undefined ? now + UNDATED_PROOF_MS : expiresAtSeconds * 1000);
    if (until <= now) return;
    this.until.delete(key);
    this.until.set(key, until);
    while (this.until.size > this.kept) this.until.delete(this.until.keys().next().value!);
  }

  delete(key: string): void {
    this.until.delete(key);
  }
}

export class ProvenTokens {
  private readonly proofs: Remembered;
  private readonly withdrawn: Remembered;

  constructor(clock: Pick<Clock, "now">, kept = PROOFS_KEPT) {
    this.proofs = new Remembered(clock, kept);
    this.withdrawn = new Remembered(clock, kept);
  }

  get size(): number {
    return this.proofs.size;
  }

  has(key: string): boolean {
    return this.proofs.has(key);
  }

  /** Whether the service refused the token (401) since the broker saw it: it is never proven again. */
  isWithdrawn(key: string): boolean {
    return this.withdrawn.has(key);
  }

  /** Remembers the token's proof until `expiresAtSeconds` (its exp claim), at most a day; never for a withdrawn token. */
  add(key: string, expiresAtSeconds: number | undefined): void {
    if (this.withdrawn.has(key)) return;
    this.proofs.add(key, expiresAtSeconds);
  }

  /** The service refused the token (revoked, expired early, never genuine): withdrawn for good. */
  withdraw(key: string, expiresAtSeconds: number | undefined): void {
    this.proofs.delete(key);
    this.withdrawn.add(key, expiresAtSeconds ?? Number.POSITIVE_INFINITY);
  }
}
