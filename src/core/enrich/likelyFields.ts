// Which fields to ask along with a request beyond the ones its cells need. Credits are per record,
// not per field, so a field that rides along costs nothing and saves a later request for the
// same records: "all" asks every output field of the kind (requests stay at the floor in any
// calculation order, bench/cells.ts), "recent" the fields recently asked for that kind, "none" nothing.
import type { RecordKind } from "../contract/index.js";
import { fieldNames } from "./fields.js";

/** How long a field asked for a kind counts as likely for that kind's next requests. */
const RECENT_MS = 10 * 60 * 1000;

export class LikelyFields {
  private readonly recent: Record<RecordKind, Map<string, number>> = { company: new Map(), contact: new Map() };

  constructor(
    private readonly mode: "recent" | "all" | "none",
    private readonly now: () => number,
  ) {}

  asked(kind: RecordKind, fields: readonly string[]): void {
    const at = this.now();
    for (const field of fields) this.recent[kind].set(field, at);
  }

  /** Fields to ask along with `fields` for records of `kind`. */
  along(kind: RecordKind, fields: ReadonlySet<string>): string[] {
    if (this.mode === "none") return [];
    if (this.mode === "all") return fieldNames(kind).filter((field) => !fields.has(field));
    const since = this.now() - RECENT_MS;
    return [...this.recent[kind]].filter(([field, at]) => at >= since && !fields.has(field)).map(([field]) => field);
  }
}
