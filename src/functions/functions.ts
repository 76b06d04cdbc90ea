/* global CustomFunctions */
// The BIZ cell functions. Each is a thin wrapper: read the arguments, ask the enrichment
// engine (src/core/enrich), map a problem to an Excel error with a message. The runtime
// (src/runtime.ts) injects the engine once with configureFunctions; that reference (and its
// startup gate) is the only state here.
// JSDoc below becomes functions.json (custom-functions-metadata): it is the help text Excel shows.
import {
  COMPANY_CARD_FIELDS,
  companyCard,
  problems,
  type CellProblem,
  type CellsResult,
  type CellValue,
  type CompanyCard,
  type EnrichmentEngine,
  type EntityKind,
} from "../core/enrich/index.js";

export interface FunctionsConfig {
  engine: EnrichmentEngine;
  /** Whether a user is signed in (no request is made otherwise); may wait for a stored sign-in to be restored. */
  isSignedIn: () => boolean | Promise<boolean>;
  /** Whether the host shows entity values (data-type cards); the company name is returned elsewhere. */
  supportsEntityCards?: () => boolean;
}

/** How long a cell calculated as the workbook opens waits for the runtime to configure these functions. */
const STARTUP_WAIT_MS = 5000;

/** The injected configuration: absent until the runtime configures it ("starting"), or detached. */
const injected: { config: FunctionsConfig | undefined; detached: boolean; ready: Promise<void>; markReady: () => void } = (() => {
  let markReady = (): void => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  return { config: undefined, detached: false, ready, markReady };
})();

/** Called once by the runtime with the shared engine; `undefined` detaches it (sign-out, tests). */
export function configureFunctions(config: FunctionsConfig | undefined): void {
  injected.config = config;
  injected.detached = config === undefined;
  if (config) injected.markReady();
}

/** The configuration, waiting briefly if Excel calculates before the runtime has started. */
async function currentConfig(): Promise<FunctionsConfig | undefined> {
  if (injected.config || injected.detached) return injected.config;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, STARTUP_WAIT_MS)));
  await Promise.race([injected.ready, timeout]);
  clearTimeout(timer);
  return injected.config;
}

function toExcelError(problem: CellProblem): CustomFunctions.Error {
  const code = problem.code === "#VALUE!" ? CustomFunctions.ErrorCode.invalidValue : CustomFunctions.ErrorCode.notAvailable;
  return new CustomFunctions.Error(code, problem.message);
}

function isPreview(invocation: CustomFunctions.Invocation | undefined): boolean {
  // Typed as string in @types/custom-functions-runtime, a boolean at run time.
  const flag: unknown = invocation?.isInValuePreview;
  return flag === true || flag === "true";
}

async function cells(
  kind: EntityKind,
  id: unknown,
  fields: unknown,
  invocation: CustomFunctions.Invocation | undefined,
): Promise<CellsResult> {
  const config = await currentConfig();
  if (!config || !(await config.isSignedIn())) return { ok: false, problem: problems.signIn() };
  return config.engine.getCells(kind, id, fields, { preview: isPreview(invocation) });
}

/** The one-field functions refuse a list of fields rather than showing only the first. */
function oneField(kind: EntityKind, field: unknown): CellProblem | undefined {
  if (typeof field === "string" && field.includes(",")) {
    const several = kind === "company" ? "BIZ.COMPANYROW" : "one BIZ.CONTACT per field";
    return { kind: "unknownField", code: "#VALUE!", message: `Name one field here; for several use ${several}` };
  }
  return undefined;
}

function single(result: CellsResult): CellValue {
  if (!result.ok) throw toExcelError(result.problem);
  const value = result.values[0];
  return value === undefined ? "" : value;
}

/**
 * One field of a company, by company id, e.g. =BIZ.COMPANY(A2, "revenue").
 * @customfunction COMPANY
 * @param companyId The company's id: a whole number, or a cell holding one.
 * @param field The output field, e.g. "name", "website", "revenue", "employeeRange", "country".
 * @param invocation Invocation details from Excel.
 * @returns The field's value: numbers as numbers, yes/no as TRUE/FALSE, lists as text.
 */
export async function company(
  companyId: any, // eslint-disable-line @typescript-eslint/no-explicit-any -- a number or text from a cell; the engine checks it
  field: string,
  invocation: CustomFunctions.Invocation,
): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any -- text, number or boolean
  const problem = oneField("company", field);
  if (problem) throw toExcelError(problem);
  return single(await cells("company", companyId, field, invocation));
}

/**
 * Several fields of a company as a row that spills to the right, e.g. =BIZ.COMPANYROW(A2, "name,revenue,country").
 * @customfunction COMPANYROW
 * @param companyId The company's id: a whole number, or a cell holding one.
 * @param fields The output fields: a range of field names, an array such as {"name","revenue"}, or comma-separated text.
 * @param invocation Invocation details from Excel.
 * @returns One row with a value per field, in the order given.
 */
export async function companyRow(
  companyId: any, // eslint-disable-line @typescript-eslint/no-explicit-any -- a number or text from a cell
  fields: any[][], // eslint-disable-line @typescript-eslint/no-explicit-any -- names from a range, an array or text
  invocation: CustomFunctions.Invocation,
): Promise<any[][]> { // eslint-disable-line @typescript-eslint/no-explicit-any -- text, numbers and booleans
  const result = await cells("company", companyId, fields, invocation);
  if (!result.ok) throw toExcelError(result.problem);
  return [result.values];
}

/**
 * One field of a contact, by person id, e.g. =BIZ.CONTACT(A2, "jobTitle").
 * @customfunction CONTACT
 * @param personId The contact's person id: a whole number, or a cell holding one.
 * @param field The output field, e.g. "firstName", "lastName", "jobTitle", "email", "companyName".
 * @param invocation Invocation details from Excel.
 * @returns The field's value: numbers as numbers, yes/no as TRUE/FALSE, lists as text.
 */
export async function contact(
  personId: any, // eslint-disable-line @typescript-eslint/no-explicit-any -- a number or text from a cell
  field: string,
  invocation: CustomFunctions.Invocation,
): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any -- text, number or boolean
  const problem = oneField("contact", field);
  if (problem) throw toExcelError(problem);
  return single(await cells("contact", personId, field, invocation));
}

/**
 * A company as a data-type card (name, website, location, size, revenue...), e.g. =BIZ.COMPANYCARD(A2). Where Excel has no data types, the company name.
 * @customfunction COMPANYCARD
 * @param companyId The company's id: a whole number, or a cell holding one.
 * @param invocation Invocation details from Excel.
 * @returns The company card, or its name as text.
 */
export async function companyCardValue(
  companyId: any, // eslint-disable-line @typescript-eslint/no-explicit-any -- a number or text from a cell
  invocation: CustomFunctions.Invocation,
): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any -- an entity value or text
  const result = await cells("company", companyId, [...COMPANY_CARD_FIELDS], invocation);
  if (!result.ok) throw toExcelError(result.problem);
  const card: CompanyCard = companyCard(result.fields, result.values);
  return injected.config?.supportsEntityCards?.() ? card : card.text;
}

// ---------- Audience-enrichment job status (streaming) ----------
// The polling lives in src/core/jobs: cells watching the same job share one poll, and a
// cancelled formula stops its share. The runtime connects the poller with configureJobStatus.
import { streamJobStatus, type JobPoller } from "../core/jobs/index.js";

export interface JobStatusConfig {
  /** sharedJobPoller(runtime.client): the same poller as the task pane's job panel. */
  poller: JobPoller;
  isSignedIn: () => boolean | Promise<boolean>;
}

/** The injected job-status configuration; cells calculated while the workbook opens wait for it briefly. */
const jobStatusInjected: { config: JobStatusConfig | undefined; detached: boolean; waiters: Set<() => void> } = {
  config: undefined,
  detached: false,
  waiters: new Set(),
};

/** Called once by the runtime; `undefined` detaches it (sign-out, tests). */
export function configureJobStatus(config: JobStatusConfig | undefined): void {
  jobStatusInjected.config = config;
  jobStatusInjected.detached = config === undefined;
  if (config) for (const wake of [...jobStatusInjected.waiters]) wake();
}

async function jobStatusConfig(): Promise<JobStatusConfig | undefined> {
  if (jobStatusInjected.config || jobStatusInjected.detached) return jobStatusInjected.config;
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      jobStatusInjected.waiters.delete(done);
      resolve();
    };
    const timer = setTimeout(done, STARTUP_WAIT_MS);
    jobStatusInjected.waiters.add(done);
  });
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
  const signInError = () => invocation.setResult(toExcelError(problems.signIn()));
  const start = async () => {
    const config = await jobStatusConfig();
    if (cancelled) return;
    if (!config || !(await config.isSignedIn())) return signInError();
    if (cancelled) return;
    stop = streamJobStatus(config.poller, audienceId, jobId, {
      value: (text) => invocation.setResult(text),
      problem: (problem) =>
        invocation.setResult(
          new CustomFunctions.Error(
            problem.code === "#VALUE!" ? CustomFunctions.ErrorCode.invalidValue : CustomFunctions.ErrorCode.notAvailable,
            problem.message,
          ),
        ),
    });
  };
  // Every failure reaches the cell as an error; none is left unhandled.
  start().catch((error: unknown) =>
    invocation.setResult(new CustomFunctions.Error(CustomFunctions.ErrorCode.notAvailable, error instanceof Error ? error.message : String(error))),
  );
}
