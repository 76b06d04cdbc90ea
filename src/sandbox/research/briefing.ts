// Briefings and answers written from the sandbox's own data, deterministic (no model): a
// company's firmographics and its signals (intent, scoops, news, technologies) as markdown with
// headings, lists and http(s) links only; a contact's role and company; an answer to a question
// by the keywords it contains, or what is known when none matches. Text from the data is
// escaped, so a name can never become markup.
import type { CompanyFacts, ContactFacts } from "./facts.js";

export interface CompanySignals {
  intents: { topic: string; score: number; strength: string; date: string }[];
  scoops: { title: string; link: string; date: string }[];
  news: { title: string; url: string; domain: string; date: string }[];
  technologies: { product: string; vendor: string }[];
}

export interface CompanyDossier {
  company: CompanyFacts;
  competitors: string[];
  signals: CompanySignals;
}

/** Markdown's special characters escaped (text from the data is never markup). */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()<>#+!|~]/g, (c) => `\\${c}`).replace(/\s+/g, " ");
}

/** A link only for an http(s) address; otherwise the text alone. */
function link(text: string, url: string): string {
  return /^https?:\/\/[^\s()<>]+$/i.test(url) ? `[${escapeMarkdown(text)}](${url})` : escapeMarkdown(text);
}

const thousands = (n: number) => n.toLocaleString("en-US");

/** Revenue in thousands of dollars, as a person says it. */
export function money(thousandsOfDollars: number): string {
  if (thousandsOfDollars >= 1_000_000) return `$${(thousandsOfDollars / 1_000_000).toFixed(1)}B`;
  if (thousandsOfDollars >= 1_000) return `$${(thousandsOfDollars / 1_000).toFixed(1)}M`;
  return `$${thousands(thousandsOfDollars)}K`;
}

const place = (c: { city: string | null; state?: string | null; country: string | null }) =>
  [c.city, c.state, c.country].filter((p): p is string => typeof p === "string" && p !== "").join(", ");

function website(c: CompanyFacts): string | undefined {
  if (!c.website) return undefined;
  // An address without a scheme is a web address; one with another scheme is never a link.
  const url = /^[a-z][a-z0-9+.-]*:/i.test(c.website) ? c.website : `https://${c.website}`;
  return link(c.domain ?? c.website, url);
}

function firmographics(c: CompanyFacts): string[] {
  const lines = [
    `- **Industry:** ${escapeMarkdown(c.industry || "not known")}${c.industries.length > 1 ? ` (also ${escapeMarkdown(c.industries.filter((i) => i !== c.industry).join(", "))})` : ""}`,
    `- **Headquarters:** ${escapeMarkdown(place(c) || "not known")}`,
    `- **Employees:** about ${thousands(c.employees)}${c.employeeRange ? ` (${escapeMarkdown(c.employeeRange)})` : ""}`,
    `- **Revenue:** about ${money(c.revenue)}${c.revenueRange ? ` (${escapeMarkdown(c.revenueRange)})` : ""}`,
  ];
  if (c.foundedYear) lines.push(`- **Founded:** ${c.foundedYear}`);
  if (c.ticker) lines.push(`- **Ticker:** ${escapeMarkdown(c.ticker)}`);
  if (c.totalFunding > 0) lines.push(`- **Funding raised:** ${money(c.totalFunding)}`);
  const site = website(c);
  if (site) lines.push(`- **Website:** ${site}`);
  return lines;
}

function signalSections(s: CompanySignals): string[] {
  const out: string[] = ["## Signals", "", "### Buyer intent", ""];
  out.push(
    ...(s.intents.length > 0
      ? s.intents.map((i) => `- ${escapeMarkdown(i.topic)}: score ${i.score}, audience strength ${escapeMarkdown(i.strength)} (${i.date})`)
      : ["- No intent signals in the last 12 weeks."]),
  );
  out.push("", "### Scoops", "");
  out.push(...(s.scoops.length > 0 ? s.scoops.map((x) => `- ${link(x.title, x.link)} (${x.date})`) : ["- No scoops in the last year."]));
  out.push("", "### News", "");
  out.push(
    ...(s.news.length > 0 ? s.news.map((n) => `- ${link(n.title, n.url)}, ${escapeMarkdown(n.domain)} (${n.date})`) : ["- No news in the last six months."]),
  );
  return out;
}

export function accountBriefingMarkdown(d: CompanyDossier): string {
  const c = d.company;
  const lines = [`# ${escapeMarkdown(c.name)}`, ""];
  if (c.description) lines.push(escapeMarkdown(c.description), "");
  lines.push("## Firmographics", "", ...firmographics(c), "", ...signalSections(d.signals), "");
  lines.push("## Technologies", "");
  lines.push(
    ...(d.signals.technologies.length > 0
      ? d.signals.technologies.map((t) => `- ${escapeMarkdown(t.product)} (${escapeMarkdown(t.vendor)})`)
      : ["- None known."]),
  );
  lines.push("", "## Competitors", "");
  lines.push(...(d.competitors.length > 0 ? d.competitors.map((n) => `- ${escapeMarkdown(n)}`) : ["- None known."]));
  return `${lines.join("\n")}\n`;
}

/** Each topic a question may ask about: the words that name it, and the answer from the data. */
const TOPICS: { words: RegExp; answer: (d: CompanyDossier) => string }[] = [
  {
    words: /revenue|sales|turnover|earn|income/,
    answer: ({ company: c }) => `${c.name}'s revenue is about ${money(c.revenue)}${c.revenueRange ? ` (${c.revenueRange})` : ""}.`,
  },
  {
    words: /employee|headcount|staff|people work|workforce|how (big|large)|size/,
    answer: ({ company: c }) => `${c.name} has about ${thousands(c.employees)} employees${c.employeeRange ? ` (${c.employeeRange})` : ""}.`,
  },
  {
    words: /industr|sector|market|what do(es)? .* do/,
    answer: ({ company: c }) =>
      `${c.name} is in ${c.industry || "an industry the data does not name"}${c.industries.length > 1 ? `; also ${c.industries.filter((i) => i !== c.industry).join(", ")}` : ""}.`,
  },
  {
    words: /locat|where|headquarter|based|address|countr|city|office/,
    answer: ({ company: c }) => `${c.name} is based in ${place(c) || "a place the data does not name"}.`,
  },
  {
    words: /news|press|headline|announce/,
    answer: ({ company: c, signals }) =>
      signals.news.length > 0
        ? `Latest news on ${c.name}: ${signals.news.map((n) => `"${n.title}" (${n.domain}, ${n.date})`).join("; ")}.`
        : `There is no news on ${c.name} in the last six months.`,
  },
  {
    words: /intent|interest|research|topic|buying|in.market/,
    answer: ({ company: c, signals }) =>
      signals.intents.length > 0
        ? `${c.name} shows buyer intent on ${signals.intents.map((i) => `${i.topic} (score ${i.score})`).join(", ")}.`
        : `${c.name} shows no buyer intent in the last 12 weeks.`,
  },
  {
    words: /scoop|event|hire|hiring|funding round|acquisi|layoff|expan/,
    answer: ({ company: c, signals }) =>
      signals.scoops.length > 0
        ? `Recent scoops on ${c.name}: ${signals.scoops.map((s) => `${s.title} (${s.date})`).join("; ")}.`
        : `There are no scoops on ${c.name} in the last year.`,
  },
  {
    words: /technolog|tech stack|software|tool|platform|uses|install/,
    answer: ({ company: c, signals }) =>
      signals.technologies.length > 0
        ? `${c.name} uses ${signals.technologies.map((t) => `${t.product} (${t.vendor})`).join(", ")}.`
        : `No technologies are known at ${c.name}.`,
  },
  {
    words: /competitor|rival|compete|alternative|peer/,
    answer: ({ company: c, competitors }) =>
      competitors.length > 0 ? `${c.name}'s competitors include ${competitors.join(", ")}.` : `No competitors of ${c.name} are known.`,
  },
  {
    words: /found|founded|age|old|since/,
    answer: ({ company: c }) => (c.foundedYear ? `${c.name} was founded in ${c.foundedYear}.` : `The year ${c.name} was founded is not known.`),
  },
  {
    words: /fund|raised|invest|capital/,
    answer: ({ company: c }) => (c.totalFunding > 0 ? `${c.name} has raised about ${money(c.totalFunding)} in funding.` : `No funding of ${c.name} is known.`),
  },
];

/** The answer to a question, drawn from the company's data; plain text. */
export function answerQuestion(d: CompanyDossier, question: string): string {
  const asked = question.toLowerCase();
  const said = TOPICS.filter((t) => t.words.test(asked)).map((t) => t.answer(d));
  if (said.length > 0) return said.join(" ");
  const c = d.company;
  return (
    `The data on ${c.name} does not answer that question directly. What is known: ${c.name} is in ${c.industry || "an unnamed industry"}, ` +
    `based in ${place(c) || "an unnamed place"}, with about ${thousands(c.employees)} employees and revenue of about ${money(c.revenue)}; ` +
    `${d.signals.intents.length} intent signals, ${d.signals.scoops.length} scoops and ${d.signals.news.length} news articles are on record. ` +
    "Ask about revenue, employees, industry, location, news, intent, scoops, technologies, competitors or funding."
  );
}

export function contactBriefingMarkdown(contact: ContactFacts, company: CompanyDossier | undefined): string {
  const name = `${contact.firstName} ${contact.lastName}`;
  const lines = [`# ${escapeMarkdown(name)}`, "", "## Role", ""];
  lines.push(`- **Title:** ${escapeMarkdown(contact.jobTitle || "not known")}`);
  lines.push(`- **Management level:** ${escapeMarkdown(contact.managementLevel || "not known")}`);
  lines.push(`- **Department:** ${escapeMarkdown(contact.department || "not known")}${contact.jobFunction ? ` (${escapeMarkdown(contact.jobFunction)})` : ""}`);
  lines.push(`- **Company:** ${escapeMarkdown(contact.companyName)}`);
  const where = place(contact);
  if (where) lines.push(`- **Location:** ${escapeMarkdown(where)}`);
  lines.push(`- **Contact accuracy score:** ${contact.accuracy}`);
  if (company) {
    const c = company.company;
    lines.push("", `## About ${escapeMarkdown(c.name)}`, "", ...firmographics(c), "", ...signalSections(company.signals));
  }
  return `${lines.join("\n")}\n`;
}
