// The signed-in user's plan, read at sign-in and at each usage refresh: one set of requests a
// refresh (the role types the add-in needs and the search lookup of both record kinds, in
// parallel on the client's queue), shared by everyone who asks while it runs. Kept per user in
// memory and in the user's settings store (the plan only: never a token), so the pane greys what
// the plan lacks from its first screen. A 403 on the entitlements (a token without the scope)
// means no plan: everything is allowed and the service's refusals teach, as before.
import type { KeyValueItems } from "../storage/keyValue.js";
import type { RecordKind, RoleType } from "../contract/index.js";
import type { EntitlementOperations, SearchFieldAccess } from "../api/entitlementTypes.js";
import { keyedSingleFlight } from "../api/singleFlight.js";
import type { Failure } from "../errors/failure.js";
import { kindCapability, type Capability, type FilterCapability } from "./capabilities.js";
import { allows, isPlan, planFromEntitlements, planRefusal, type Allowance, type Plan } from "./planModel.js";

/** The role types the capabilities are read from. */
export const PLAN_ROLE_TYPES: readonly RoleType[] = ["feature", "intent", "signal", "limit"];
const SEARCH_KINDS: readonly RecordKind[] = ["company", "contact"];

export interface PlanSourceOptions {
  client: EntitlementOperations;
  /** The user's settings store (default: memory only). */
  store?: KeyValueItems;
  /** The signed-in user's key (a hash of the account, never a token); undefined when signed out. */
  user: () => string | undefined;
}

export interface PlanSource {
  /** The signed-in user's plan; undefined when not known (not read yet, or no entitlement scope). */
  current(): Plan | undefined;
  allows(capability: Capability): Allowance;
  /** The error factory's refusal for a capability the plan lacks (cells and rows), else undefined. */
  refusal(capability: Exclude<Capability, FilterCapability>): Failure | undefined;
  /** The refusal for an enrichment kind (a cell's or a list's) the plan lacks, else undefined. */
  kindRefusal(kind: string): Failure | undefined;
  /** Reads the plan again (one request set however many ask at once); a failed read keeps the last plan. */
  refresh(): Promise<Plan | undefined>;
  /** Calls the listener when the plan changes; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
  /** After a sign-in change: the new user's plan from memory or the store, then read again when signed in. */
  userChanged(): Promise<void>;
}

const isForbidden = (error: unknown) => typeof error === "object" && error !== null && (error as { kind?: unknown }).kind === "forbidden";

/** A plan read: null when the token may not read entitlements (no plan: everything allowed). */
async function readPlan(client: EntitlementOperations): Promise<Plan | null> {
  // A kind whose lookup fails has no refused filters: the search's own refusals teach.
  const fields = Promise.all(SEARCH_KINDS.map((kind) => client.searchInputFields(kind).catch((): SearchFieldAccess[] => [])));
  try {
    const entitlements = await Promise.all(PLAN_ROLE_TYPES.map((type) => client.getEntitlements(type)));
    const byKind = await fields;
    return planFromEntitlements(entitlements.flat(), Object.fromEntries(SEARCH_KINDS.map((kind, i) => [kind, byKind[i] ?? []])));
  } catch (error) {
    await fields;
    if (isForbidden(error)) return null;
    throw error;
  }
}

const storeKey = (user: string) => `plan|${user}`;

export function createPlanSource(options: PlanSourceOptions): PlanSource {
  const known = new Map<string, Plan | null>();
  const listeners = new Set<() => void>();
  const tell = () => listeners.forEach((listener) => listener());
  const current = () => {
    const user = options.user();
    return user === undefined ? undefined : (known.get(user) ?? undefined);
  };
  const keep = async (user: string, plan: Plan | null) => {
    known.set(user, plan);
    if (user === options.user()) tell();
    await options.store?.setItem(storeKey(user), JSON.stringify({ plan }));
  };
  // One request set per user at a time: a user signing in during another's read gets their own.
  const readFor = keyedSingleFlight(async (user: string) => {
    try {
      await keep(user, await readPlan(options.client));
    } catch {
      // Not a plan (a lost connection, a server error): the last one stays, and the service still refuses what it must.
    }
  });
  const read = async () => {
    const user = options.user();
    if (user !== undefined) await readFor(user);
    return current();
  };
  const restore = async (user: string) => {
    const text = await options.store?.getItem(storeKey(user)).catch(() => null);
    if (!text || known.has(user)) return;
    try {
      const { plan } = JSON.parse(text) as { plan?: unknown };
      if (plan === null || isPlan(plan)) await keep(user, plan);
    } catch {
      // A damaged entry reads as none: the plan is read again.
    }
  };
  return {
    current,
    allows: (capability) => allows(current(), capability),
    refusal: (capability) => planRefusal(current(), capability),
    kindRefusal(kind) {
      const capability = kindCapability(kind);
      return capability ? planRefusal(current(), capability) : undefined;
    },
    refresh: read,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async userChanged() {
      tell();
      const user = options.user();
      if (user === undefined) return;
      await restore(user);
      await read();
    },
  };
}
