// Seeded audiences, deterministic from the sandbox seed: the same seed always gives the same
// audiences, columns, rows and ids. Includes a 500-row company audience and one whose rows hold
// bad references (ids that match nothing and text that is no id at all).
import type { RecordStore } from "../context.js";
import { columnTemplates } from "./columns.js";
import type { AudienceKind, AudienceStore, NewAudience } from "./store.js";

/** mulberry32: small and fast; good enough for picking sample data. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A version-4 UUID drawn from `random`, so seeded ids repeat from run to run. */
function seededUuid(random: () => number): string {
  const bytes = Array.from({ length: 16 }, () => Math.floor(random() * 256));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface AudienceBlueprint {
  name: string;
  description: string;
  type: AudienceKind;
  /** Record ids the rows reference. */
  recordIds: number[];
  /** Rows with bad references, spread among the good ones. */
  badRows: number;
}

/** Bad references alternate between an id that matches nothing and text that is no id. */
function badReference(index: number, recordCount: number): string {
  return index % 2 === 0 ? String(recordCount + 1_000_000 + index) : `N/A-${index}`;
}

/** Builds the audience (ids from `makeId`), with bad rows spread evenly among the good ones. */
export function buildAudience(blueprint: AudienceBlueprint, makeId: () => string, recordCount: number): NewAudience {
  const columns = columnTemplates(blueprint.type).map((c) => ({ id: makeId(), ...c }));
  const total = blueprint.recordIds.length + blueprint.badRows;
  const refs: string[] = [];
  let good = 0;
  let bad = 0;
  for (let i = 0; i < total; i++) {
    // Place bad row k at about position (k + 0.5) * total / badRows.
    const wantBad = bad < blueprint.badRows && (good >= blueprint.recordIds.length || i >= Math.floor(((bad + 0.5) * total) / blueprint.badRows));
    if (wantBad) refs.push(badReference(bad++, recordCount));
    else refs.push(String(blueprint.recordIds[good++]));
  }
  return {
    id: makeId(),
    name: blueprint.name,
    description: blueprint.description,
    type: blueprint.type,
    columns,
    rows: refs.map((recordRef) => ({ id: makeId(), recordRef })),
  };
}

function sampleIds(random: () => number, count: number, max: number): number[] {
  return Array.from({ length: count }, () => 1 + Math.floor(random() * Math.max(1, max)));
}

/** Seeds the audiences once, on a database that has none. */
export function seedAudiences(store: AudienceStore, records: RecordStore, seed: number): void {
  if (store.audienceCount() > 0) return;
  const random = prng(seed ^ 0x5eed_a0d1);
  const makeId = () => seededUuid(random);
  const companies = records.companyCount();
  const contacts = records.contactCount();
  const blueprints: AudienceBlueprint[] = [
    {
      name: "Target accounts Q3",
      description: "500 companies for the quarter's outbound campaign.",
      type: "COMPANY",
      recordIds: sampleIds(random, 500, companies),
      badRows: 0,
    },
    {
      name: "Trade show leads (needs cleanup)",
      description: "Companies typed in at the booth; some rows hold ids that match nothing.",
      type: "COMPANY",
      recordIds: sampleIds(random, 48, companies),
      badRows: 12,
    },
    {
      name: "Sales leaders",
      description: "50 contacts in sales leadership.",
      type: "CONTACT",
      recordIds: sampleIds(random, 50, contacts),
      badRows: 0,
    },
    {
      name: "Webinar attendees",
      description: "Contacts who registered for the spring webinar.",
      type: "CONTACT",
      recordIds: sampleIds(random, 2000, contacts),
      badRows: 0,
    },
    {
      // Every company up to 20,000 (the default data set); small test data sets seed faster.
      name: "Total addressable market",
      description: "Companies in the core segments.",
      type: "COMPANY",
      recordIds: Array.from({ length: Math.max(50, Math.min(20_000, companies)) }, (_, i) => (i % Math.max(1, companies)) + 1),
      badRows: 0,
    },
  ];
  store.transaction(() => {
    for (const blueprint of blueprints) store.createAudience(buildAudience(blueprint, makeId, blueprint.type === "COMPANY" ? companies : contacts));
  });
}
