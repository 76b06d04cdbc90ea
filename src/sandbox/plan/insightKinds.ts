// The insight types the twin derives (docs/signals.md, "Insights"), each from the twin's own data:
// funding from the company's funding rounds and funding scoops, scoops from its scoops, a new CXO
// from its C-level contacts, a buying-committee change from its VP and director contacts, an
// intent spike from its intent topics. Each type has a lifetime (the service's enum descriptions:
// funding 90 days, leadership and buying-committee changes 30; the twin's own for scoops, 30, and
// intent spikes, 7, which the service does not state) and a chance per company and day of an
// event. Payloads carry the fields the service's schemas require (its *SignalPayload).
import type { InsightType } from "../../core/contract/index.js";

/** What one event of a company is built from: a row of the twin's data. */
export interface FundingMaterial {
  kind: "funding";
  roundType: string;
  /** Thousands of US dollars. */
  amount: number;
  investors: string[];
}
export interface TextMaterial {
  kind: "text";
  headline: string;
  text: string;
}
export interface PersonMaterial {
  kind: "person";
  contactId: number;
  name: string;
  title: string;
  level: string;
}
export interface IntentMaterial {
  kind: "intent";
  cluster: string;
  topic: string;
  strong: boolean;
}
export type Material = FundingMaterial | TextMaterial | PersonMaterial | IntentMaterial;

export interface InsightKind {
  type: InsightType;
  lifetimeDays: number;
  /** Chance of an event on one day for a company that has material for it. */
  perDay: number;
}

/** The derived types, in the order a company's materials are read. */
export const INSIGHT_KINDS: readonly InsightKind[] = [
  { type: "zi.funding", lifetimeDays: 90, perDay: 0.012 },
  { type: "zi.cxochange", lifetimeDays: 30, perDay: 0.03 },
  { type: "zi.scoop", lifetimeDays: 30, perDay: 0.04 },
  { type: "zi.buyingcommitteechange", lifetimeDays: 30, perDay: 0.03 },
  { type: "zi.account-level-intent.spike", lifetimeDays: 7, perDay: 0.08 },
];

/** A number in [0, 1) from whole numbers, the same every time (a 32-bit mix of each part). */
export function unit(...parts: number[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    h = Math.imul(h ^ (part >>> 0), 0x01000193) >>> 0;
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
    h = Math.imul(h ^ (h >>> 12), 0x297a2d39) >>> 0;
    h = (h ^ (h >>> 15)) >>> 0;
  }
  return h / 4294967296;
}

const money = (thousands: number) => (thousands >= 1000 ? `$${(thousands / 1000).toFixed(1)}M` : `$${thousands}K`);
const words = (code: string) => code.replace(/-/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());

export interface PayloadContext {
  companyId: number;
  companyName: string;
  /** The event's date-time (midnight UTC of its day). */
  date: string;
  /** A number in [0, 1) of this event, for its details. */
  pick: number;
}

const CHANGES = ["New hire", "Promotion", "New hire", "Departure"] as const;

function personPayload(m: PersonMaterial, c: PayloadContext, cLevel: boolean): Record<string, unknown> {
  const changeType = CHANGES[Math.floor(c.pick * CHANGES.length)]!;
  const verb = changeType === "Departure" ? "leaves" : changeType === "Promotion" ? "is promoted to" : "joins as";
  const role = changeType === "Departure" ? `${c.companyName} (${m.title})` : `${m.title} at ${c.companyName}`;
  return {
    displayText: `${m.name} ${verb} ${role}`,
    date: c.date,
    ziCompanyId: c.companyId,
    ziContactId: m.contactId,
    name: m.name,
    title: m.title,
    isCLevel: cLevel,
    inBuyingGroup: !cLevel,
    isPersonOfInterest: true,
    changeType,
  };
}

/** The payload of an event of this type from its material (the type decides which material it takes). */
export function payloadOf(type: InsightType, m: Material, c: PayloadContext): Record<string, unknown> {
  if (m.kind === "funding") {
    return {
      displayText: `${c.companyName} raises ${money(m.amount)} (${words(m.roundType)})`,
      date: c.date,
      type: words(m.roundType),
      amount: money(m.amount),
      investors: m.investors,
    };
  }
  if (m.kind === "text") return { displayText: m.headline, date: c.date, text: m.text };
  if (m.kind === "person") return personPayload(m, c, type === "zi.cxochange");
  const score = m.strong ? 3 : 2;
  return {
    displayText: `${c.companyName} shows a spike of interest in ${m.topic}`,
    date: c.date,
    clusterName: m.cluster,
    score,
    scoreChange: `from ${c.pick < 0.5 ? "NONE" : "LOW"} to ${score === 3 ? "HIGH" : "MODERATE"}`,
    topics: [m.topic],
  };
}
