// Which output fields the signed-in account may use. The only sure signal is an enrichment
// answer: one refusing a field as unentitled (PFAPI0001/PFAPI0009) is remembered here for the
// account (enrichOperations.ts drops the field and sends the inputs again). The output-field
// lookup is a hint: a field it marks `accessGranted: false` is not asked; nothing else is read
// from it (the list is not cut to the account's entitlement). Forgotten when another user signs in.
import { COMPANY_OUTPUT_FIELD_NAMES, CONTACT_OUTPUT_FIELD_NAMES, type OutputFieldLookupDocument, type RecordKind } from "../contract/index.js";
import { keyedSingleFlight } from "./singleFlight.js";
import type { ClientEntitlements } from "./types.js";

export type OutputFieldLookup = (kind: RecordKind) => Promise<OutputFieldLookupDocument["data"]>;

export interface FieldEntitlementCache extends ClientEntitlements {
  /** The output fields (contract names) the account may use; undefined while none is known to be refused. */
  entitled(kind: RecordKind): Promise<ReadonlySet<string> | undefined>;
  /** Forget everything (another user signed in). */
  clear(): void;
}

/** `lookup` asks the service's output-field lookup (production); without it only answers teach. */
export function createFieldEntitlements(lookup?: OutputFieldLookup): FieldEntitlementCache {
  const load = () => keyedSingleFlight(async (kind: RecordKind) => (lookup ? lookup(kind) : []), { keepResult: true });
  let listed = load();
  const learned = { company: new Set<string>(), contact: new Set<string>() };
  /** What the lookup marked accessGranted: false, once it answered. */
  const hinted = { company: new Set<string>(), contact: new Set<string>() };
  const refusedOf = (kind: RecordKind): ReadonlySet<string> => new Set([...learned[kind], ...hinted[kind]]);

  return {
    async entitled(kind) {
      let items: OutputFieldLookupDocument["data"] = [];
      try {
        items = await listed(kind);
      } catch {
        // The lookup failed (it is asked again next time): only what answers taught counts.
      }
      for (const i of items) if (i.attributes.accessGranted === false) hinted[kind].add(i.attributes.fieldName);
      const refused = refusedOf(kind);
      if (refused.size === 0) return undefined;
      const all: readonly string[] = kind === "company" ? COMPANY_OUTPUT_FIELD_NAMES : CONTACT_OUTPUT_FIELD_NAMES;
      return new Set([...all, ...items.map((i) => i.attributes.fieldName)].filter((field) => !refused.has(field)));
    },
    refused: refusedOf,
    learn(kind, fields) {
      for (const field of fields) learned[kind].add(field);
    },
    clear() {
      listed = load();
      for (const set of [learned.company, learned.contact, hinted.company, hinted.contact]) set.clear();
    },
  };
}
