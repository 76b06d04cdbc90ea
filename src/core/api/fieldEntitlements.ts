// Which output fields the signed-in account may use. The only sure signal is an enrichment
// answer: one refusing a field as unentitled (PFAPI0001/PFAPI0009) is remembered here for the
// account (enrichOperations.ts drops the field and sends the inputs again). The output-field
// lookup is a hint: a field it marks `accessGranted: false` is not asked; nothing else is read
// from it (the list is not cut to the account's entitlement). Forgotten when another user signs in.
import { COMPANY_OUTPUT_FIELD_NAMES, CONTACT_OUTPUT_FIELD_NAMES, type OutputFieldLookupDocument, type RecordKind } from "../contract/index.js";
import { keyedSingleFlight } from "./singleFlight.js";

export type OutputFieldLookup = (kind: RecordKind) => Promise<OutputFieldLookupDocument["data"]>;

export interface FieldEntitlementCache {
  /** The output fields (contract names) the account may use; undefined while none is known to be refused. */
  entitled(kind: RecordKind): Promise<ReadonlySet<string> | undefined>;
  /** Fields an answer refused as unentitled: never asked again for this account. */
  learn(kind: RecordKind, fields: readonly string[]): void;
  /** Forget everything (another user signed in). */
  clear(): void;
}

/** `lookup` asks the service's output-field lookup (production); without it only answers teach. */
export function createFieldEntitlements(lookup?: OutputFieldLookup): FieldEntitlementCache {
  const load = () => keyedSingleFlight(async (kind: RecordKind) => (lookup ? lookup(kind) : []), { keepResult: true });
  let listed = load();
  const learned = { company: new Set<string>(), contact: new Set<string>() };

  return {
    async entitled(kind) {
      let items: OutputFieldLookupDocument["data"] = [];
      try {
        items = await listed(kind);
      } catch {
        // The lookup failed (it is asked again next time): only what answers taught counts.
      }
      const refused = new Set([...learned[kind], ...items.filter((i) => i.attributes.accessGranted === false).map((i) => i.attributes.fieldName)]);
      if (refused.size === 0) return undefined;
      const all: readonly string[] = kind === "company" ? COMPANY_OUTPUT_FIELD_NAMES : CONTACT_OUTPUT_FIELD_NAMES;
      return new Set([...all, ...items.map((i) => i.attributes.fieldName)].filter((field) => !refused.has(field)));
    },
    learn(kind, fields) {
      for (const field of fields) learned[kind].add(field);
    },
    clear() {
      listed = load();
      learned.company.clear();
      learned.contact.clear();
    },
  };
}
