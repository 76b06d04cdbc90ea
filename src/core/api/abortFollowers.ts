// One abort listener per caller signal, however many requests follow it. An enrichment of
// 10,000 ids or a long import shares one signal among hundreds of requests; a listener each
// would pass Node's limit of ten per signal (MaxListenersExceededWarning) and keep every
// settled request's closure alive until the signal is collected.
interface Follower {
  /** Aborted when the caller's signal aborts. */
  signal: AbortSignal;
  /** Stops following (the request settled). */
  release(): void;
}

const followers = new WeakMap<AbortSignal, Set<AbortController>>();

export function followSignal(caller: AbortSignal | undefined): Follower {
  const own = new AbortController();
  if (!caller) return { signal: own.signal, release: () => undefined };
  if (caller.aborted) {
    own.abort(caller.reason);
    return { signal: own.signal, release: () => undefined };
  }
  let group = followers.get(caller);
  if (!group) {
    const members = new Set<AbortController>();
    group = members;
    followers.set(caller, members);
    caller.addEventListener(
      "abort",
      () => {
        followers.delete(caller);
        for (const member of members) member.abort(caller.reason);
        members.clear();
      },
      { once: true },
    );
  }
  group.add(own);
  const members = group;
  return { signal: own.signal, release: () => members.delete(own) };
}
