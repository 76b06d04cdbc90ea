/* global CustomFunctions */
// The BIZ cell functions. Each is a thin wrapper around an implementation loaded on first use, which asks the enrichment
// engine (src/core/enrich) and maps a problem to an Excel error with a message. The runtime (src/runtime.ts) injects the
// engine once with configureFunctions; that reference (and its startup gate) is the only state here.
// JSDoc below becomes functions.json (custom-functions-metadata): it is the help text Excel shows.
import type { ConfigAccess, FunctionsConfig, JobStatusConfig } from "./config.js";

export type { FunctionsConfig, JobStatusConfig } from "./config.js";
import type { Clock } from "../core/api/types.js";

/** What the functions do loads with import() on first use (a small first load); a failed load is retried by the next cell. */
function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
const loadImplementation = loadOnce(() => import("./cellFunctionsImpl.js"));
const loadJobStatusImplementation = loadOnce(() => import("./jobStatusImpl.js"));
const loadSignals = loadOnce(() => import("./signalCellsImpl.js"));
const loadResearch = loadOnce(() => import("./researchCellsImpl.js"));
const loadAccounts = loadOnce(() => import("./accountCellsImpl.js"));
const loadInsights = loadOnce(() => import("./insightCellsImpl.js"));

/** How long a cell calculated as the workbook opens waits for the runtime to configure these functions. */
const STARTUP_WAIT_MS = 5000;

const timerSleep: Clock["sleep"] = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), reject(new Error("aborted"))), { once: true });
  });
let startupSleep: Clock["sleep"] = timerSleep;

/** The clock of the startup wait (tests pass a fake one; `undefined` restores the system timer). */
export function setStartupClock(clock: Pick<Clock, "sleep"> | undefined): void {
  startupSleep = clock ? (ms, signal) => clock.sleep(ms, signal) : timerSleep;
}

/** Waits until `settled()` holds (a configure call wakes `waiters`) or the startup wait ends. */
async function startupGate(settled: () => boolean, waiters: Set<() => void>): Promise<void> {
  if (settled()) return;
  const stop = new AbortController();
  await new Promise<void>((resolve) => {
    const done = () => {
      stop.abort();
      waiters.delete(done);
      resolve();
    };
    waiters.add(done);
    startupSleep(STARTUP_WAIT_MS, stop.signal).then(done, () => undefined);
  });
}

/** The injected configuration: absent until the runtime configures it ("starting"), or detached. */
type Injected<C> = { config: C | undefined; detached: boolean; waiters: Set<() => void> };
const notYetInjected = <C>(): Injected<C> => ({ config: undefined, detached: false, waiters: new Set() });
const injected = notYetInjected<FunctionsConfig>();

/** Called once by the runtime with the shared engine; `undefined` detaches it (sign-out, tests). */
export function configureFunctions(config: FunctionsConfig | undefined): void {
  injected.config = config;
  injected.detached = config === undefined;
  if (config) for (const wake of [...injected.waiters]) wake();
}

/** The configuration, waiting briefly if Excel calculates before the runtime has started. */
async function currentConfig(): Promise<FunctionsConfig | undefined> {
  await startupGate(() => injected.config !== undefined || injected.detached, injected.waiters);
  return injected.config;
}

const configAccess: ConfigAccess = { current: currentConfig, now: () => injected.config };

/**
 * One field of a company, by company id, website or name, e.g. =BIZ.COMPANY(A2, "revenue") or =BIZ.COMPANY("acme.com", "revenue").
 * @customfunction COMPANY
 * @param companyId The company's id, its website (any spelling: acme.com, https://www.acme.com/about), its name, or a company card.
 * @param field The output field, e.g. "name", "website", "revenue", "employeeRange", "country".
 * @param invocation Invocation details from Excel.
 * @returns The field's value: numbers as numbers, yes/no as TRUE/FALSE, lists as text.
 */
export async function company(
  companyId: any, // eslint-disable-line @typescript-eslint/no-explicit-any -- a number or text from a cell; the engine checks it
  field: string,
  invocation: CustomFunctions.Invocation,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- text, number or boolean
): Promise<any> {
  return (await loadImplementation()).oneFieldCell(configAccess, "company", companyId, field, invocation);
}

/**
 * Several fields of a company as a row that spills to the right, e.g. =BIZ.COMPANYROW(A2, "name,revenue,country").
 * @customfunction COMPANYROW
 * @param companyId The company's id, its website (any spelling), its name, or a company card.
 * @param fields The output fields: a range of field names, an array such as {"name","revenue"}, or comma-separated text.
 * @param invocation Invocation details from Excel.
 * @returns One row with a value per field, in the order given.
 */
export async function companyRow(
  companyId: any, // eslint-disable-line @typescript-eslint/no-explicit-any -- a number or text from a cell
  fields: any[][], // eslint-disable-line @typescript-eslint/no-explicit-any -- names from a range, an array or text
  invocation: CustomFunctions.Invocation,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- text, numbers and booleans
): Promise<any[][]> {
  return (await loadImplementation()).companyRowCell(configAccess, companyId, fields, invocation);
}

/**
 * One field of a contact, by person id or email address, e.g. =BIZ.CONTACT(A2, "jobTitle") or =BIZ.CONTACT("jane@acme.com", "jobTitle").
 * @customfunction CONTACT
 * @param personId The contact's person id or email address.
 * @param field The output field, e.g. "firstName", "lastName", "jobTitle", "email", "companyName".
 * @param invocation Invocation details from Excel.
 * @returns The field's value: numbers as numbers, yes/no as TRUE/FALSE, lists as text.
 */
export async function contact(
  personId: any, // eslint-disable-line @typescript-eslint/no-explicit-any -- a number or text from a cell
  field: string,
  invocation: CustomFunctions.Invocation,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- text, number or boolean
): Promise<any> {
  return (await loadImplementation()).oneFieldCell(configAccess, "contact", personId, field, invocation);
}

/**
 * A company as a data-type card (name, website, location, size, revenue...), e.g. =BIZ.COMPANYCARD(A2). Where Excel has no data types, the company name.
 * @customfunction COMPANYCARD
 * @param companyId The company's id, its website (any spelling) or its name.
 * @param invocation Invocation details from Excel.
 * @returns The company card, or its name as text.
 */
export async function companyCardValue(
  companyId: any, // eslint-disable-line @typescript-eslint/no-explicit-any -- a number or text from a cell
  invocation: CustomFunctions.Invocation,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- an entity value or text
): Promise<any> {
  return (await loadImplementation()).companyCardCell(configAccess, companyId, invocation);
}

/**
 * The id of the company with this website or name; a country and city decide between companies sharing a name, e.g. =BIZ.MATCHCOMPANY(A2, B2, C2).
 * @customfunction MATCHCOMPANY
 * @param nameOrWebsite The company's website (any spelling: acme.com, https://www.acme.com/about) or its name (case, punctuation and Inc, LLC, GmbH do not matter).
 * @param [country] Optional country (name or two-letter code) when several companies share the name.
 * @param [city] Optional city when several companies share the name in one country.
 * @param invocation Invocation details from Excel.
 * @returns The company id, or #N/A saying why there is none: no match, ambiguous input or invalid input.
 */
export async function matchCompany(
  nameOrWebsite: any, // eslint-disable-line @typescript-eslint/no-explicit-any -- text from a cell
  country: any, // eslint-disable-line @typescript-eslint/no-explicit-any -- optional text from a cell
  city: any, // eslint-disable-line @typescript-eslint/no-explicit-any -- optional text from a cell
  invocation: CustomFunctions.Invocation,
): Promise<number> {
  return (await loadImplementation()).matchCompanyCell(configAccess, nameOrWebsite, country, city, invocation);
}

/**
 * The person id of a contact by email address, or by name together with the company, e.g. =BIZ.MATCHCONTACT(A2) or =BIZ.MATCHCONTACT("Jane Doe", "Acme").
 * @customfunction MATCHCONTACT
 * @param nameOrEmail The contact's email address (case does not matter), or full name.
 * @param [company] With a name: the company's name or id.
 * @param invocation Invocation details from Excel.
 * @returns The person id, or #N/A saying why there is none: no match, ambiguous input or invalid input.
 */
export async function matchContact(
  nameOrEmail: any, // eslint-disable-line @typescript-eslint/no-explicit-any -- text from a cell
  company: any, // eslint-disable-line @typescript-eslint/no-explicit-any -- optional text or id from a cell
  invocation: CustomFunctions.Invocation,
): Promise<number> {
  return (await loadImplementation()).matchContactCell(configAccess, nameOrEmail, company, invocation);
}

// ---------- Signals (docs/signals.md): a company by id, website or name ----------
/* eslint-disable @typescript-eslint/no-explicit-any -- cell arguments: numbers or text from cells, checked in signalCellsImpl.ts */

/**
 * The company's buyer-intent score on a topic (60 to 100; 0 when it is not researching it), e.g. =BIZ.INTENT(A2, "Cloud Security").
 * @customfunction INTENT
 * @param company The company's id, website or name.
 * @param topic An intent topic, e.g. "Cloud Security" (the Signals tab lists them).
 * @param invocation Invocation details from Excel.
 * @returns The score, or 0.
 */
export async function intent(company: any, topic: any, invocation: CustomFunctions.Invocation): Promise<number> {
  return (await loadSignals()).intentCell(configAccess, company, topic, invocation);
}

/**
 * The company's strongest intent topics among those given, highest first, e.g. =BIZ.INTENTTOPICS(A2, "Cloud Security,CRM Software,Machine Learning", 2).
 * @customfunction INTENTTOPICS
 * @param company The company's id, website or name.
 * @param topics Up to 50 topics: comma-separated text, a range or an array.
 * @param [count] How many to show (default 3).
 * @param invocation Invocation details from Excel.
 * @returns "Topic (score), Topic (score)", or empty when none.
 */
export async function intentTopics(company: any, topics: any, count: any, invocation: CustomFunctions.Invocation): Promise<string> {
  return (await loadSignals()).intentTopicsCell(configAccess, company, topics, count, invocation);
}

/**
 * How many scoops (news events: funding, hires, new offices, ...) the company had lately, e.g. =BIZ.SCOOPS(A2, "funding", 180).
 * @customfunction SCOOPS
 * @param company The company's id, website or name.
 * @param [type] A scoop type, e.g. "Funding", "hire", "partnership"; all types when empty.
 * @param [days] The window in days (default 90).
 * @param invocation Invocation details from Excel.
 * @returns The count.
 */
export async function scoops(company: any, type: any, days: any, invocation: CustomFunctions.Invocation): Promise<number> {
  return (await loadSignals()).scoopCountCell(configAccess, company, type, days, invocation);
}

/**
 * The company's latest scoop (of a type): its headline and date, spilling into two cells, e.g. =BIZ.LATESTSCOOP(A2) or =BIZ.LATESTSCOOP(A2, "funding").
 * @customfunction LATESTSCOOP
 * @param company The company's id, website or name.
 * @param [type] A scoop type; all types when empty.
 * @param invocation Invocation details from Excel.
 * @returns The headline and the date (YYYY-MM-DD); empty when none.
 */
export async function latestScoop(company: any, type: any, invocation: CustomFunctions.Invocation): Promise<string[][]> {
  return (await loadSignals()).latestScoopCell(configAccess, company, type, invocation);
}

/**
 * The latest news article about the company: its title and date, spilling into two cells, e.g. =BIZ.LATESTNEWS(A2).
 * @customfunction LATESTNEWS
 * @param company The company's id, website or name.
 * @param [category] A news category, e.g. "Funding"; all when empty.
 * @param invocation Invocation details from Excel.
 * @returns The title and the date (YYYY-MM-DD); empty when none.
 */
export async function latestNews(company: any, category: any, invocation: CustomFunctions.Invocation): Promise<string[][]> {
  return (await loadSignals()).latestNewsCell(configAccess, company, category, invocation);
}

/**
 * Whether the company uses a technology, e.g. =BIZ.USESTECH(A2, "Snowflake").
 * @customfunction USESTECH
 * @param company The company's id, website or name.
 * @param product A product, e.g. "Snowflake" or "Microsoft Azure".
 * @param invocation Invocation details from Excel.
 * @returns TRUE or FALSE.
 */
export async function usesTech(company: any, product: any, invocation: CustomFunctions.Invocation): Promise<boolean> {
  return (await loadSignals()).usesTechCell(configAccess, company, product, invocation);
}

/**
 * The company's technologies in a category, e.g. =BIZ.TECHIN(A2, "CRM").
 * @customfunction TECHIN
 * @param company The company's id, website or name.
 * @param category A category or parent category, e.g. "CRM", "Business Intelligence".
 * @param invocation Invocation details from Excel.
 * @returns The products, comma-separated; empty when none.
 */
export async function techIn(company: any, category: any, invocation: CustomFunctions.Invocation): Promise<string> {
  return (await loadSignals()).techInCell(configAccess, company, category, invocation);
}

/**
 * The service's hashtags of a company, e.g. =BIZ.HASHTAGS(A2) -> "AI, Hiring". Free.
 * @customfunction HASHTAGS
 * @param company The company's id, website or name.
 * @param invocation Invocation details from Excel.
 * @returns The hashtags, comma-separated; empty when none.
 */
export async function hashtags(company: any, invocation: CustomFunctions.Invocation): Promise<string> {
  return (await loadSignals()).hashtagsCell(configAccess, company, invocation);
}

// ---------- Research (docs/research-addin.md): free only; no cell spends an AI action credit ----------

/**
 * The companies most like a company, ranked, spilling down: id, name and similarity score, e.g. =BIZ.LOOKALIKES(A2, 10). Free.
 * @customfunction LOOKALIKES
 * @param company The company's id, website or name.
 * @param [count] How many companies (1 to 100, default 10).
 * @param invocation Invocation details from Excel.
 * @returns One row per company: id, name, score (0 to 1, higher is closer).
 */
export async function lookalikes(company: any, count: any, invocation: CustomFunctions.Invocation): Promise<any[][]> {
  return (await loadResearch()).lookalikesCell(configAccess, company, count, invocation);
}

/**
 * The briefing on a company fetched earlier in the task pane (Research), as text, e.g. =BIZ.BRIEFING(A2). Never asks the service and never spends a credit.
 * @customfunction BRIEFING
 * @param company The company's id or website.
 * @returns The briefing, or "No briefing yet: open Research in the pane".
 */
export async function briefing(company: any): Promise<string> {
  return (await loadResearch()).briefingCell(configAccess, company);
}

/**
 * A field of the company's direct parent company, e.g. =BIZ.PARENT(A2) -> its name, =BIZ.PARENT(A2, "id"). Empty when the company is at the top of its family.
 * @customfunction PARENT
 * @param company The company's id, website or name.
 * @param [field] "name" (default), "id", "city", "state", or a company field such as "revenue".
 */
export async function parent(company: any, field: any, invocation: CustomFunctions.Invocation): Promise<any> {
  return (await loadAccounts()).parentOfCell(configAccess, company, field, invocation);
}

/**
 * A field of the company's ultimate parent, the top of its corporate family, e.g. =BIZ.ULTIMATEPARENT(A2, "id"). A company at the top is its own ultimate parent.
 * @customfunction ULTIMATEPARENT
 * @param company The company's id, website or name.
 * @param [field] "name" (default), "id", "city", "state", or a company field such as "revenue".
 */
export async function ultimateParent(company: any, field: any, invocation: CustomFunctions.Invocation): Promise<any> {
  return (await loadAccounts()).ultimateParentCell(configAccess, company, field, invocation);
}

/**
 * The company's corporate family from its ultimate parent down, spilling down, e.g. =BIZ.FAMILY(A2): id, company, parent, ultimate parent, relationship, level.
 * @customfunction FAMILY
 * @param company The company's id, website or name.
 */
export async function family(company: any, invocation: CustomFunctions.Invocation): Promise<any[][]> {
  return (await loadAccounts()).familyCell(configAccess, company, invocation);
}

/**
 * The top people of a department's buying committee by tier, fetched earlier in the task pane (Accounts), e.g. =BIZ.COMMITTEE(A2, "Finance", 5): name, title, tier, person id. Never asks the service and never spends a credit.
 * @customfunction COMMITTEE
 * @param company The company's id or website.
 * @param department A department, e.g. "Finance" or "Sales".
 * @param [count] How many people (1 to 100, default 5).
 */
export async function committee(company: any, department: any, count: any): Promise<any[][]> {
  return (await loadAccounts()).committeeCell(configAccess, company, department, count);
}

/**
 * The latest insight of a company as text, its summary and date, e.g. =BIZ.INSIGHT(A2) or =BIZ.INSIGHT(A2, "Funding"). Free; kept until the insight expires.
 * @customfunction INSIGHT
 * @param company The company's id, website or name.
 * @param [type] A type of insight, e.g. "Funding", "Leadership change" or "Intent spike" (default: any type).
 */
export async function insight(company: any, type: any, invocation: CustomFunctions.Invocation): Promise<string> {
  return (await loadInsights()).insightCell(configAccess, company, type, invocation);
}
/* eslint-enable @typescript-eslint/no-explicit-any */

// ---------- Audience-enrichment job status (streaming) ----------
// The polling lives in src/core/jobs: cells watching the same job share one poll, and a
// cancelled formula stops its share. The runtime connects the poller with configureJobStatus.
/** The injected job-status configuration; cells calculated while the workbook opens wait for it briefly. */
const jobStatusInjected = notYetInjected<JobStatusConfig>();

/** Called once by the runtime; `undefined` detaches it (sign-out, tests). */
export function configureJobStatus(config: JobStatusConfig | undefined): void {
  jobStatusInjected.config = config;
  jobStatusInjected.detached = config === undefined;
  if (config) for (const wake of [...jobStatusInjected.waiters]) wake();
}

async function jobStatusConfig(): Promise<JobStatusConfig | undefined> {
  await startupGate(() => jobStatusInjected.config !== undefined || jobStatusInjected.detached, jobStatusInjected.waiters);
  return jobStatusInjected.config;
}

/**
 * Streams an audience-enrichment job's state and progress into the cell, e.g. "RUNNING 40%", until the job ends, e.g. =BIZ.JOBSTATUS(A1, B1).
 * @customfunction JOBSTATUS
 * @param audienceId The audience's id (a UUID).
 * @param jobId The job id given when the enrichment started.
 * @param invocation Streaming invocation from Excel.
 * @streaming
 */
export function jobStatus(audienceId: string, jobId: string, invocation: CustomFunctions.StreamingInvocation<string>): void {
  let cancelled = false;
  let stop = (): void => undefined;
  invocation.onCanceled = () => {
    cancelled = true;
    stop();
  };
  const start = async () => {
    const [impl, config] = await Promise.all([loadJobStatusImplementation(), jobStatusConfig()]);
    if (cancelled) return;
    const streaming = await impl.startJobStatusCell(config, audienceId, jobId, invocation, () => cancelled);
    if (!streaming) return;
    // Cancelled while the poll was starting: stop it now.
    if (cancelled) streaming();
    else stop = streaming;
  };
  // Every failure reaches the cell as an error; none is left unhandled.
  start().catch((error: unknown) =>
    invocation.setResult(new CustomFunctions.Error(CustomFunctions.ErrorCode.notAvailable, error instanceof Error ? error.message : String(error))),
  );
}
