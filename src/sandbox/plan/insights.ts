// The day's insights of companies (POST /copilot/v1/companies/insights; docs/signals.md,
// "Insights"), derived from the twin's own data and the sandbox clock's today. Each company has,
// for each type it has material for, events on some days (a fixed draw per company, type and
// day); an event is an insight from its day until it expires (its type's lifetime), so moving the
// clock a day brings new insights to some companies and retires others. Every requested company
// gets an entry, in the request's order: one the twin does not know, or without insights, has an
// empty list (the service's description says nothing of unknown ids; an entry per company asked
// keeps the answer's rows aligned with the request).
import type Database from "better-sqlite3";
import type { Insight, InsightsDocument, InsightType } from "../../core/contract/index.js";
import { scoopText } from "../signals/answers.js";
import { intentsFor, scoopsFor } from "../signals/generate.js";
import { INSIGHT_KINDS, payloadOf, unit, type InsightKind, type Material } from "./insightKinds.js";

const DAY_MS = 86_400_000;
const PEOPLE =
  "SELECT id, first_name, last_name, job_title, management_level FROM contacts WHERE company_id = ? AND management_level IN ('C-Level', 'VP-Level', 'Director') ORDER BY id LIMIT 200";

interface Person {
  id: number;
  first_name: string;
  last_name: string;
  job_title: string | null;
  management_level: string;
}

export interface InsightSource {
  /** The answer for these companies (distinct, in order) and types (none: every derived type) at `now`. */
  document(companyIds: readonly number[], types: readonly InsightType[], now: number): InsightsDocument;
}

export function createInsightSource(db: Database.Database, seed: number): InsightSource {
  const nameStatement = db.prepare("SELECT name FROM companies WHERE id = ?");
  const peopleStatement = db.prepare(PEOPLE);
  const roundsStatement = db.prepare("SELECT type, amount, investors FROM funding_rounds WHERE company_id = ? ORDER BY date DESC");

  const fundingOf = (companyId: number): Material[] => {
    const rounds = roundsStatement.all(companyId) as { type: string; amount: number; investors: string | null }[];
    const fromRounds = rounds.map((r) => ({
      kind: "funding" as const,
      roundType: r.type,
      amount: r.amount,
      investors: (r.investors ?? "").split(", ").filter(Boolean),
    }));
    const fromScoops = scoopsFor(seed, companyId)
      .filter((s) => s.types.includes("funding"))
      .map((s) => ({ kind: "funding" as const, roundType: "venture-round", amount: 1000 + (s.template % 50) * 500, investors: [] }));
    return [...fromRounds, ...fromScoops];
  };
  const peopleOf = (companyId: number, levels: readonly string[]): Material[] =>
    (peopleStatement.all(companyId) as Person[])
      .filter((p) => levels.includes(p.management_level))
      .map((p) => ({
        kind: "person",
        contactId: p.id,
        name: `${p.first_name} ${p.last_name}`,
        title: p.job_title ?? p.management_level,
        level: p.management_level,
      }));

  const materialsOf = (type: InsightType, companyId: number, companyName: string): Material[] => {
    if (type === "zi.funding") return fundingOf(companyId);
    if (type === "zi.cxochange") return peopleOf(companyId, ["C-Level"]);
    if (type === "zi.buyingcommitteechange") return peopleOf(companyId, ["VP-Level", "Director"]);
    if (type === "zi.scoop") {
      return scoopsFor(seed, companyId).map((row) => {
        const { linkText, description } = scoopText(row, companyName);
        return { kind: "text", headline: linkText, text: description };
      });
    }
    return intentsFor(seed, companyId).map((row) => ({ kind: "intent", cluster: row.topic.category, topic: row.topic.name, strong: row.score >= 80 }));
  };

  const insightsOf = (companyId: number, kinds: readonly InsightKind[], today: number): Insight[] => {
    const row = nameStatement.get(companyId) as { name: string } | undefined;
    if (!row) return [];
    return kinds.flatMap((kind) => {
      const slot = INSIGHT_KINDS.indexOf(kind);
      const materials = materialsOf(kind.type, companyId, row.name);
      if (materials.length === 0) return [];
      const days = Array.from({ length: kind.lifetimeDays }, (_, k) => today - k).filter((day) => unit(seed, companyId, slot, day) < kind.perDay);
      return days.map((day) => insightOn(kind, slot, { companyId, companyName: row.name, day, materials, seed }));
    });
  };

  return {
    document(companyIds, types, now) {
      const kinds = types.length === 0 ? INSIGHT_KINDS : INSIGHT_KINDS.filter((k) => types.includes(k.type));
      const today = Math.floor(now / DAY_MS);
      const ids = [...new Set(companyIds)];
      return {
        data: ids.map((id) => ({
          id: String(id),
          type: "CompanyInsights" as const,
          attributes: { insights: newestFirst(insightsOf(id, kinds, today)) },
        })),
      };
    },
  };
}

interface EventOf {
  companyId: number;
  companyName: string;
  day: number;
  materials: Material[];
  seed: number;
}

function insightOn(kind: InsightKind, slot: number, e: EventOf): Insight {
  const date = new Date(e.day * DAY_MS).toISOString();
  const material = e.materials[Math.floor(unit(e.seed, e.companyId, slot, e.day, 1) * e.materials.length)]!;
  const signalPayload = payloadOf(kind.type, material, {
    companyId: e.companyId,
    companyName: e.companyName,
    date,
    pick: unit(e.seed, e.companyId, slot, e.day, 2),
  });
  // A whole number per company, type and day (an int64 on the wire): the day and type below the company id.
  const id = (e.companyId * 100_000 + (e.day % 100_000)) * 8 + slot;
  return {
    ...(Number.isSafeInteger(id) ? { id } : {}),
    ziCompanyId: e.companyId,
    signalId: `${kind.type}:${e.companyId}:${date.slice(0, 10)}`,
    signalType: kind.type,
    signalPayload: signalPayload as Insight["signalPayload"],
    insightDate: date,
    expiresAt: new Date((e.day + kind.lifetimeDays) * DAY_MS).toISOString(),
    createdAt: date,
  };
}

const newestFirst = (insights: Insight[]) => insights.sort((a, b) => (b.insightDate ?? "").localeCompare(a.insightDate ?? ""));
