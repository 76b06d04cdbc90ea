// What the BIZ signal functions do (docs/signals.md), loaded with import() on first use. A
// company is given by id, website or name; the one pipeline matches it and asks its signal in
// one pass (gathered across cells, deduplicated, cached, the cheapest plan per request), so
// recalculating sends nothing.
import { systemClock } from "../core/api/index.js";
import { problems, type CellProblem, type KindName, type RecordsResult } from "../core/enrich/index.js";
import { signalCellValues, strongestTopics } from "../core/signals/index.js";
import type { IntentItem } from "../core/contract/index.js";
import { isPreview, type ConfigAccess } from "./config.js";
import { toExcelError } from "./excelError.js";
import { readCompanyArgument, withArgumentNote } from "./dataTypeArgument.js";

type Invocation = CustomFunctions.Invocation | undefined;

const fail = (problem: CellProblem): never => {
  throw toExcelError(problem);
};
const invalid = (message: string): never => fail({ kind: "invalidInput", code: "#VALUE!", message });

/**
 * A company's record of a kind keyed by company (a signal, its hashtags, any declared kind): its
 * fields (a list as its records); a website or name is matched in the same pipeline pass.
 */
export async function companyKindCell(access: ConfigAccess, kind: KindName, company: unknown, fields: string[], invocation: Invocation): Promise<unknown[]> {
  const argument = readCompanyArgument(company);
  if (!argument.ok) return fail(argument.problem);
  const config = await access.current();
  if (!config || !(await config.isSignedIn())) return fail(problems.signIn());
  const result: RecordsResult = await config.engine.getRecords(kind, argument.value, fields, { preview: isPreview(invocation) });
  if (!result.ok) return fail(withArgumentNote(result.problem, argument));
  return result.values;
}

/** Topics from text ("A, B"), a range or an array; 1 to 50. */
function topicList(raw: unknown): string[] {
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && v !== undefined && String(v).trim() !== "") for (const t of String(v).split(",")) if (t.trim()) out.push(t.trim());
  };
  walk(raw);
  if (out.length === 0) invalid('Name a topic, e.g. "Cloud Security" (the Signals tab\'s topic picker lists them)');
  if (out.length > 50) invalid("At most 50 topics");
  return [...new Set(out)];
}

const optionalText = (raw: unknown): string | undefined => (raw === null || raw === undefined || String(raw).trim() === "" ? undefined : String(raw).trim());

/** BIZ.INTENT: the company's intent score on a topic (60–100), 0 when it is not signalling. */
export async function intentCell(access: ConfigAccess, company: unknown, topic: unknown, invocation: Invocation): Promise<number> {
  const topics = topicList(topic);
  if (topics.length !== 1) invalid("Name one topic here; BIZ.INTENTTOPICS takes several");
  const [score] = await companyKindCell(access, "intent", company, topics, invocation);
  return Number(score) || 0;
}

/** BIZ.INTENTTOPICS: the strongest of the topics, "Topic (score), …", highest first. */
export async function intentTopicsCell(access: ConfigAccess, company: unknown, topics: unknown, count: unknown, invocation: Invocation): Promise<string> {
  const list = topicList(topics);
  const n = count === null || count === undefined || count === "" ? 3 : Number(count);
  if (!Number.isInteger(n) || n < 1) invalid("How many topics: a whole number of 1 or more");
  const scores = await companyKindCell(access, "intent", company, list, invocation);
  const items = list
    .map((topic, i) => ({ topic, score: Number(scores[i]) || 0 }))
    .filter((t) => t.score > 0)
    .map((t) => ({ attributes: { topic: t.topic, signalScore: t.score } }) as IntentItem);
  return strongestTopics(items, n);
}

/** BIZ.SCOOPS: how many scoops (of a type) the company had in the last `days` days (default 90). */
export async function scoopCountCell(access: ConfigAccess, company: unknown, type: unknown, days: unknown, invocation: Invocation): Promise<number> {
  const window = days === null || days === undefined || days === "" ? 90 : Number(days);
  if (!Number.isFinite(window) || window < 0) invalid("Days: a number of 0 or more");
  const [record] = await companyKindCell(access, "scoops", company, ["scoops"], invocation);
  const t = optionalText(type);
  const now = ((await access.current())?.clock ?? systemClock).now();
  return signalCellValues.scoopCount(record, { ...(t ? { type: t } : {}), days: window, now });
}

/** BIZ.LATESTSCOOP: the newest scoop (of a type): its headline and date, spilling to the right. */
export async function latestScoopCell(access: ConfigAccess, company: unknown, type: unknown, invocation: Invocation): Promise<string[][]> {
  const [record] = await companyKindCell(access, "scoops", company, ["scoops"], invocation);
  const latest = signalCellValues.latestScoop(record, optionalText(type));
  return [[latest?.headline ?? "", latest?.date ?? ""]];
}

/** BIZ.LATESTNEWS: the newest article (of a category): its title and date. */
export async function latestNewsCell(access: ConfigAccess, company: unknown, category: unknown, invocation: Invocation): Promise<string[][]> {
  const [record] = await companyKindCell(access, "news", company, ["news"], invocation);
  const latest = signalCellValues.latestNews(record, optionalText(category));
  return [[latest?.headline ?? "", latest?.date ?? ""]];
}

/** BIZ.USESTECH: whether the company runs a product (e.g. "Snowflake", "Microsoft Azure"). */
export async function usesTechCell(access: ConfigAccess, company: unknown, product: unknown, invocation: Invocation): Promise<boolean> {
  const name = optionalText(product) ?? invalid('Name a product, e.g. "Snowflake"');
  const [record] = await companyKindCell(access, "technologies", company, ["technologies"], invocation);
  return signalCellValues.usesTechnology(record, name);
}

/** BIZ.TECHIN: the company's products in a category (e.g. "CRM", "Business Intelligence"). */
export async function techInCell(access: ConfigAccess, company: unknown, category: unknown, invocation: Invocation): Promise<string> {
  const name = optionalText(category) ?? invalid('Name a category, e.g. "CRM"');
  const [record] = await companyKindCell(access, "technologies", company, ["technologies"], invocation);
  return signalCellValues.technologiesInCategory(record, name);
}

/** BIZ.HASHTAGS: the service's hashtags of the company, comma-separated (highest priority first). */
export async function hashtagsCell(access: ConfigAccess, company: unknown, invocation: Invocation): Promise<string> {
  const [labels] = await companyKindCell(access, "hashtags", company, ["hashtagLabels"], invocation);
  return String(labels ?? "");
}
