// The one error factory of the add-in: every refusal or failure (the service's error documents
// and codes, a lost connection, a cancel, and the add-in's own refusals: today's cap, a field not
// in the plan, no credits, no AI credits, today's AI limit) becomes one Failure value, and each
// place that shows it takes its words from that value:
//
//   paneMessage(f)   the task pane's message: what happened and what to do, then the service's
//                    reference id ("(Reference: …)") for support
//   cellError(f)     a cell's Excel error (#VALUE! or #N/A) and its short message
//   rowStatus(f)     a row's status on the sheet: the short message and the reference id
//
// So the same facts are said everywhere, and what a plan promises a row will say is rowStatus of
// the refusal it names. The service's errors are read structurally (the client's ServiceError,
// core/api/errors.ts, carries these fields), so this module imports only the contract: core/api's own
// sentences for no credits and for a missing permission take their words from here.
import { DATA_ROLES } from "../contract/index.js";

export type FailureReason =
  | "signIn" // not signed in, or the sign-in expired
  | "forbidden" // the account lacks a scope or a role
  | "noCredits" // the account has no credits left for new records
  | "aiCredits" // the account has no AI action credits left
  | "aiDailyLimit" // the user's own daily AI limit is used up
  | "dailyCap" // the user's own daily cap of new records is reached
  | "notInPlan" // fields the account is not entitled to
  | "invalidInput" // the service refused the request
  | "unavailable" // network or server failure after retries, or an unexpected answer
  | "cancelled"; // the user cancelled

export type CellErrorCode = "#VALUE!" | "#N/A";

export interface Failure {
  reason: FailureReason;
  /** The short sentence: a cell's message and a row's status (no reference). */
  short: string;
  /** The pane's sentence: what happened and what to do (no reference). */
  pane: string;
  /** The Excel error a cell shows. */
  code: CellErrorCode;
  /** The service's instance id of the failed request, which its support asks for. */
  reference?: string;
}

/** "No credits left" for new records, said once. */
const NO_CREDITS = "Your account has no credits left for new records";
const NO_CREDITS_ADVICE = "Ask your administrator for more credits.";
/** "No AI action credits left", said once. */
const NO_AI_CREDITS = "Your account has no AI action credits left for research (briefings and questions)";
const NO_AI_CREDITS_ADVICE = "Ask your administrator for more, or use briefings already fetched.";

/** The pane's sentence when the account has no credits left for new records (the service's 402 and its credit-limit code). */
export const NO_CREDITS_MESSAGE = `${NO_CREDITS}. ${NO_CREDITS_ADVICE}`;
/** The pane's sentence when the account has no AI action credits left. */
export const NO_AI_CREDITS_MESSAGE = `${NO_AI_CREDITS}. ${NO_AI_CREDITS_ADVICE}`;

function failure(reason: FailureReason, short: string, pane: string = short, code: CellErrorCode = "#N/A", reference?: string): Failure {
  return { reason, short, pane, code, ...(reference ? { reference } : {}) };
}

/** The add-in's own refusals, made before (or instead of) a request. */
export const refusals = {
  noCredits: (reference?: string) => failure("noCredits", NO_CREDITS, NO_CREDITS_MESSAGE, "#N/A", reference),
  aiCredits: (reference?: string) => failure("aiCredits", NO_AI_CREDITS, NO_AI_CREDITS_MESSAGE, "#N/A", reference),
  aiDailyLimit: (used: number, cap: number) => {
    const said = `Your daily AI limit is used up (${used} of ${cap} AI action credits today). Raise it in Research, or try again tomorrow.`;
    return failure("aiDailyLimit", said, said);
  },
  dailyCap: (cap: number) => {
    const said = `Daily limit of ${cap} new records reached. Raise "New records per day" in the task pane (Enrich tab), or try again tomorrow`;
    return failure("dailyCap", said, `${said}.`);
  },
  notInPlan: (fields: readonly string[]) => {
    const one = fields.length === 1;
    const said = `Your account is not entitled to the field${one ? "" : "s"} ${fields.join(", ")}. Ask your administrator, or remove ${one ? "it" : "them"}`;
    return failure("notInPlan", said, `${said}.`);
  },
  /** Something the account's plan does not include (read from its entitlements): refused before any request. */
  planLacks: (what: string, plural: boolean) => {
    const said = `${what} ${plural ? "are" : "is"} not in your account's plan`;
    const ask = `Ask your administrator to add ${plural ? "them" : "it"}`;
    return failure("notInPlan", `${said}. ${ask}`, `${said}. ${ask}.`);
  },
  signIn: () => failure("signIn", "Sign in from the task pane", "You are signed out or your sign-in has expired. Sign in again."),
  cancelled: () => failure("cancelled", "Cancelled", "Cancelled."),
  unavailable: (reason: string) => failure("unavailable", `Service unavailable: ${reason}`, reason),
};

/** What a person cannot do without each scope, in their words. */
const SCOPE_ACTIONS: Record<string, string> = {
  "api:data:company": "search or enrich companies",
  "api:data:contact": "search or enrich contacts",
  "api:data:lookup": "load the choices of the search pickers",
  "api:data:intent": "read intent signals",
  "api:data:news": "read company news",
  "api:data:scoops": "read scoops",
  "api:audience:read": "see audiences and their jobs",
  "api:audience:manage": "start audience enrichments",
  "api:account-summary:read": "research accounts (briefings and questions)",
  "api:recommendations:read": "find similar companies or contacts, or recommended contacts",
};

/** A 403 as what the user cannot do, who can fix it, then the permission or role by name (pane and cells). */
export function forbiddenMessage(scope: string | undefined, roleMissing: boolean): string {
  const roles = `one of the roles ${DATA_ROLES.map((r) => `"${r}"`).join(" or ")}`;
  if (scope !== undefined) {
    const what = SCOPE_ACTIONS[scope] ?? "do this";
    return roleMissing
      ? `You cannot ${what}: your account's access does not include it. Your administrator can grant it: the permission "${scope}" and ${roles}.`
      : `You cannot ${what}: your account's access does not include it. Your administrator can grant it: the permission "${scope}".`;
  }
  if (roleMissing) return `You cannot use the service's data: your account has no data role. Your administrator can give it ${roles}.`;
  return "You cannot do this: your account's access does not include it. Your administrator can grant it.";
}

/** The fields of an error this factory reads (the client's ServiceError has them all). */
interface ErrorFacts {
  kind?: unknown;
  userMessage?: unknown;
  message?: unknown;
  requestId?: unknown;
  missingScope?: unknown;
  missingRole?: unknown;
  errors?: ReadonlyArray<{ code?: unknown; title?: unknown; detail?: unknown }>;
  used?: unknown;
  cap?: unknown;
}

/** The kinds of the client's ServiceError (read structurally: this module imports nothing of core/api). */
export const SERVICE_KINDS: ReadonlySet<string> = new Set([
  "validation",
  "unauthorized",
  "paymentRequired",
  "forbidden",
  "notFound",
  "rateLimited",
  "server",
  "network",
  "timeout",
  "invalidResponse",
  "cancelled",
]);

const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);

/** The service's credit-limit code (PFAPI0011); its text says whether AI action credits ran out. */
function creditLimitOf(facts: ErrorFacts, reference: string | undefined): Failure | undefined {
  const limit = facts.errors?.find((e) => e.code === "PFAPI0011");
  if (!limit) return facts.kind === "paymentRequired" ? refusals.noCredits(reference) : undefined;
  const said = [limit.title, limit.detail].filter((t) => typeof t === "string").join(" ");
  return /\bAI action\b/i.test(said) ? refusals.aiCredits(reference) : refusals.noCredits(reference);
}

/** A service error (after the client's retries) as a Failure, keeping its reference id. */
function serviceFailure(facts: ErrorFacts, kind: string): Failure {
  const reference = text(facts.requestId);
  const said = text(facts.userMessage) ?? text(facts.message) ?? kind;
  const credits = creditLimitOf(facts, reference);
  if (credits) return credits;
  switch (kind) {
    case "unauthorized":
      return failure("signIn", refusals.signIn().short, said, "#N/A", reference);
    case "forbidden":
      if (text(facts.missingScope) || text(facts.missingRole))
        return failure("forbidden", forbiddenMessage(text(facts.missingScope), text(facts.missingRole) !== undefined), said, "#N/A", reference);
      return failure("forbidden", `Access denied: ${said}`, said, "#N/A", reference);
    case "validation":
      return failure("invalidInput", `The service refused the request: ${said}`, said, "#N/A", reference);
    case "cancelled":
      return failure("cancelled", refusals.cancelled().short, said);
    default:
      return failure("unavailable", `Service unavailable: ${said}`, said, "#N/A", reference);
  }
}

/** The one factory: any thrown error or refusal as a Failure. */
export function failureOf(error: unknown): Failure {
  if (isFailure(error)) return error;
  if (typeof error === "object" && error !== null) {
    const facts = error as ErrorFacts;
    if (facts.kind === "aiDailyLimit" && typeof facts.used === "number" && typeof facts.cap === "number") return refusals.aiDailyLimit(facts.used, facts.cap);
    if (typeof facts.kind === "string" && SERVICE_KINDS.has(facts.kind)) return serviceFailure(facts, facts.kind);
    const said = text(facts.userMessage) ?? text(facts.message);
    if (said) return failure("unavailable", `Service unavailable: ${said}`, said);
  }
  return refusals.unavailable(String(error));
}

/**
 * A row an audience job could not enrich, from the service's errorDetails: running out of credits
 * is the one sentence above (what the job's estimate promised), anything else the service's summary.
 */
export function jobRowFailure(details: { summary?: string | undefined; description?: string | undefined }): Failure | undefined {
  const said = [details.summary, details.description].filter((t) => typeof t === "string").join(" ");
  if (/\bcredit(s| limit)\b/i.test(said)) return /\bAI action\b/i.test(said) ? refusals.aiCredits() : refusals.noCredits();
  const summary = text(details.summary);
  return summary ? failure("invalidInput", summary) : undefined;
}

export function isFailure(value: unknown): value is Failure {
  if (typeof value !== "object" || value === null) return false;
  const f = value as Partial<Failure>;
  return typeof f.reason === "string" && typeof f.short === "string" && typeof f.pane === "string" && typeof f.code === "string";
}

const withReference = (said: string, reference: string | undefined) => (reference ? `${said} (Reference: ${reference})` : said);

/** The task pane's message (the same text errorText gives for the error it came from). */
export function paneMessage(f: Failure): string {
  return withReference(f.pane, f.reference);
}

/** A cell's Excel error code and its message. */
export function cellError(f: Failure): { code: CellErrorCode; message: string } {
  return { code: f.code, message: f.short };
}

/** A row's status on the sheet, with the reference id to copy for support. */
export function rowStatus(f: Pick<Failure, "short" | "reference">): string {
  return withReference(f.short, f.reference);
}
