// Which output fields the signed-in account may use. Production fails a whole enrichment when
// one requested output field is not in the account's entitlement, so the fields are checked
// before sending: an unentitled field is dropped from the request (and reported per cell by
// its caller) instead of sinking the batch for the others. One lookup per entity, cached.
import type { RecordKind } from "../../contract/index.js";

export type EntityKind = RecordKind;

/** The lookup that lists the output fields this account may use (contract names after translation). */
export function entitlementLookupPath(entity: EntityKind): string {
  return `/data/v1/lookup/enrich?filter[entity]=${entity}&filter[fieldType]=output`;
}

/** Field names from an entitlement lookup answer ({data: [{id, attributes: {fieldName | name}}]}). */
export function entitledFieldNames(doc: unknown): string[] {
  if (doc === null || typeof doc !== "object" || !Array.isArray((doc as { data?: unknown }).data)) return [];
  const names: string[] = [];
  for (const item of (doc as { data: unknown[] }).data) {
    if (item === null || typeof item !== "object") continue;
    const { id, attributes } = item as { id?: unknown; attributes?: { fieldName?: unknown; name?: unknown } };
    const name = attributes?.fieldName ?? attributes?.name ?? id;
    if (typeof name === "string" && name !== "") names.push(name);
  }
  return names;
}

export interface FieldPartition {
  allowed: string[];
  refused: string[];
}

export interface EntitlementCache {
  /** The fields this account may use; undefined when the lookup could not tell (send everything). */
  entitled(entity: EntityKind): Promise<ReadonlySet<string> | undefined>;
  /** Splits requested fields into those the account may use and those it may not. */
  partition(entity: EntityKind, fields: readonly string[]): Promise<FieldPartition>;
  /** Forget what was learnt (another user signed in). */
  clear(): void;
}

/**
 * `load` asks the service (and answers undefined when it cannot: the lookup is then tried again
 * next time, and the request goes out unchanged so the service decides).
 */
export function createEntitlementCache(load: (entity: EntityKind) => Promise<string[] | undefined>): EntitlementCache {
  const known = new Map<EntityKind, Promise<ReadonlySet<string> | undefined>>();
  const entitled = (entity: EntityKind) => {
    let found = known.get(entity);
    if (!found) {
      found = load(entity).then(
        (names) => (names && names.length > 0 ? new Set(names) : undefined),
        () => undefined,
      );
      // Only a usable answer is kept: a failed or empty lookup is asked again.
      void found.then((set) => {
        if (!set && known.get(entity) === found) known.delete(entity);
      });
      known.set(entity, found);
    }
    return found;
  };
  return {
    entitled,
    async partition(entity, fields) {
      const set = await entitled(entity);
      if (!set) return { allowed: [...fields], refused: [] };
      return { allowed: fields.filter((f) => set.has(f)), refused: fields.filter((f) => !set.has(f)) };
    },
    clear: () => known.clear(),
  };
}
