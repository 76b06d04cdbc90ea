// A company's dossier for research: its facts (facts.ts), its competitors' names, and its signals
// as the signal operations serve them (the same generated intent, scoops, news and technologies,
// with the same titles and links), newest first.
import type Database from "better-sqlite3";
import { dayString, newsAttributes, scoopAttributes } from "../signals/answers.js";
import { createSignalData } from "../signals/generate.js";
import type { CompanyDossier } from "./briefing.js";
import type { ResearchFacts } from "./facts.js";

const MAX_PER_KIND = 5;

export type DossierReader = (companyId: number, now: number) => CompanyDossier | undefined;

export function createDossierReader(db: Database.Database, seed: number, facts: ResearchFacts): DossierReader {
  const signals = createSignalData(db, seed);
  return (companyId, now) => {
    const company = facts.company(companyId);
    if (!company) return undefined;
    const info = signals.companies([companyId]).get(companyId);
    const competitors = [...facts.companies(company.competitorIds).values()].map((c) => c.name);
    const intents = signals
      .intentsOf(companyId)
      .slice()
      .sort((a, b) => b.score - a.score || a.age - b.age)
      .slice(0, MAX_PER_KIND)
      .map((r) => ({ topic: r.topic.name, score: r.score, strength: r.strength, date: dayString(now, r.age) }));
    const scoops = signals
      .scoopsOf(companyId)
      .slice(0, MAX_PER_KIND)
      .map((r) => {
        const a = scoopAttributes(r, signals, info, now);
        return { title: String(a.linkText), link: String(a.link), date: dayString(now, r.age) };
      });
    const news = signals
      .newsOf(companyId)
      .slice(0, MAX_PER_KIND)
      .map((r) => {
        const a = newsAttributes(r, info, now);
        return { title: String(a.title), url: String(a.url), domain: String(a.domain), date: dayString(now, r.age) };
      });
    const technologies = signals
      .technologiesOf(companyId)
      .slice(0, 10)
      .map((t) => ({ product: t.tech.product, vendor: t.tech.vendor }));
    return { company, competitors, signals: { intents, scoops, news, technologies } };
  };
}
