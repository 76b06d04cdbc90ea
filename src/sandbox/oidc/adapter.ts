// Where oidc-provider keeps sessions, grants, codes and tokens: one in-memory store per sandbox
// (the library's default is a process-wide, size-capped cache). Nothing is written to disk, so
// restarting the sandbox signs everyone out.
import type { Adapter, AdapterPayload } from "oidc-provider";

interface Entry {
  payload: AdapterPayload;
  /** Epoch ms; undefined: no expiry. */
  expiresAt: number | undefined;
}

export interface OidcStore {
  entries: Map<string, Entry>;
  /** grantId -> keys of the tokens issued under it (revocation removes them all). */
  grants: Map<string, Set<string>>;
  /** Secondary indexes: session uid and device user code -> id. */
  byUid: Map<string, string>;
  byUserCode: Map<string, string>;
  writes: number;
}

export function createOidcStore(): OidcStore {
  return { entries: new Map(), grants: new Map(), byUid: new Map(), byUserCode: new Map(), writes: 0 };
}

function prune(store: OidcStore, now: number): void {
  for (const [key, entry] of store.entries) {
    if (entry.expiresAt !== undefined && entry.expiresAt <= now) store.entries.delete(key);
  }
}

export function adapterFactory(store: OidcStore): (model: string) => Adapter {
  return (model) => {
    const key = (id: string) => `${model}:${id}`;
    const live = (id: string | undefined): AdapterPayload | undefined => {
      if (id === undefined) return undefined;
      const entry = store.entries.get(key(id));
      if (!entry) return undefined;
      if (entry.expiresAt !== undefined && entry.expiresAt <= Date.now()) {
        store.entries.delete(key(id));
        return undefined;
      }
      return entry.payload;
    };
    return {
      async upsert(id, payload, expiresIn) {
        const now = Date.now();
        store.entries.set(key(id), { payload, expiresAt: expiresIn !== undefined && expiresIn > 0 ? now + expiresIn * 1000 : undefined });
        if (payload.grantId) {
          const members = store.grants.get(payload.grantId) ?? new Set<string>();
          members.add(key(id));
          store.grants.set(payload.grantId, members);
        }
        if (payload.uid) store.byUid.set(payload.uid, id);
        if (payload.userCode) store.byUserCode.set(payload.userCode, id);
        if (++store.writes % 500 === 0) prune(store, now);
      },
      async find(id) {
        return live(id);
      },
      async findByUid(uid) {
        return live(store.byUid.get(uid));
      },
      async findByUserCode(userCode) {
        return live(store.byUserCode.get(userCode));
      },
      async consume(id) {
        const payload = live(id);
        if (payload) payload.consumed = Math.floor(Date.now() / 1000);
      },
      async destroy(id) {
        const payload = live(id);
        store.entries.delete(key(id));
        if (payload?.uid) store.byUid.delete(payload.uid);
        if (payload?.userCode) store.byUserCode.delete(payload.userCode);
      },
      async revokeByGrantId(grantId) {
        for (const member of store.grants.get(grantId) ?? []) store.entries.delete(member);
        store.grants.delete(grantId);
      },
    };
  };
}
