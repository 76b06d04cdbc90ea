// Companions: fields likely asked next, which ride along with a request for free.
import type { EnrichmentKinds, KindName } from "./enrichKinds.js";

// Credits are per record, not per field, so a field that rides along costs nothing and saves a
// later request for the same records: "all" asks every output field of the kind (requests stay
// at the floor in any calculation order, bench/cells.ts), "recent" the fields recently asked for
// that kind, "none" nothing.

/** How long a field asked for a kind counts as likely for that kind's next requests. */
const RECENT_MS = 10 * 60 * 1000;

export class LikelyFields {
  private readonly recent = new Map<KindName, Map<string, number>>();

  constructor(
    private readonly mode: "recent" | "all" | "none",
    private readonly now: () => number,
    private readonly kinds: EnrichmentKinds,
  ) {}

  asked(kind: KindName, fields: readonly string[]): void {
    const at = this.now();
    const recent = this.recent.get(kind) ?? new Map<string, number>();
    this.recent.set(kind, recent);
    for (const field of fields) recent.set(field, at);
  }

  /** Fields to ask along with `fields` for records of `kind`. */
  along(kind: KindName, fields: ReadonlySet<string>): string[] {
    // A signal's request costs by what it asks (more topics, more pages): nothing rides along.
    if (this.mode === "none" || !this.kinds.of(kind).companions) return [];
    if (this.mode === "all") return this.kinds.fieldNames(kind).filter((field) => !fields.has(field));
    const since = this.now() - RECENT_MS;
    return [...(this.recent.get(kind) ?? [])].filter(([field, at]) => at >= since && !fields.has(field)).map(([field]) => field);
  }
}
