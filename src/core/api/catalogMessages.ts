// The service's error catalog (core/contract/production.ts: PFAPI0001-0011, ZI0001-0004, ZI9998)
// in a sales-ops user's words: each code becomes one sentence that says what happened and what
// to do. The compiler checks that every code of the catalog has its sentence.
import { disallowedFieldsOf, isProductionErrorCode, summarizeIssues, type ProductionErrorCode, type ValidationIssue } from "../contract/index.js";
import { NO_AI_CREDITS_MESSAGE, NO_CREDITS_MESSAGE } from "../errors/failure.js";
import type { ServiceErrorObject } from "./types.js";

export interface CatalogFacts {
  /** The answer's error objects (either shape, already read). */
  errors: readonly ServiceErrorObject[];
  /** "GET /studio/v1/audiences" and the like. */
  operation?: string;
  issues?: readonly ValidationIssue[];
  retryAfterMs?: number;
}

interface Said {
  /** The service's own text (its message or detail), trimmed and cut. */
  text?: string;
  what: string;
  fields: string[];
  issues: string;
  retry: string;
}

const SENTENCES: Record<ProductionErrorCode, (s: Said) => string> = {
  PFAPI0001: (s) =>
    `Your plan does not include the field${s.fields.length === 1 ? "" : "s"} ${s.fields.join(", ") || "asked for"}. Remove ${s.fields.length === 1 ? "it" : "them"}, or ask your administrator to add ${s.fields.length === 1 ? "it" : "them"} to your plan.`,
  PFAPI0002: (s) =>
    /page number/i.test(s.text ?? "")
      ? "The service shows at most 100 pages of results. Add filters to narrow the search, then try again."
      : `${s.issues || `The service did not accept the request${s.text ? `: ${s.text}` : ""}.`} Correct it and try again.`,
  PFAPI0003: (s) =>
    `The service could not read the request${s.text ? ` (${s.text})` : ""}. This is a fault in the add-in, not in your data: tell your administrator.`,
  PFAPI0004: (s) => `The service needs more to go on${s.text ? ` (${s.text})` : ""}. Fill in at least one more of the fields it names, then try again.`,
  PFAPI0005: (s) => `${s.issues || `The request named a field the service does not know${s.text ? ` (${s.text})` : ""}.`} Check the field names and try again.`,
  PFAPI0006: (s) =>
    `${s.issues || `A value in the request is not valid${s.text ? ` (${s.text})` : ""}.`} Correct the value (a "from" must not be above its "to") and try again.`,
  PFAPI0007: () => "The service had a problem. Try again in a moment; if it keeps happening, tell your administrator.",
  PFAPI0008: (s) => `${s.issues || `A value in the request has the wrong type${s.text ? ` (${s.text})` : ""}.`} Check the value and try again.`,
  PFAPI0009: (s) =>
    `Some fields asked for are not valid or not in your plan${s.fields.length > 0 ? `: ${s.fields.join(", ")}` : s.text ? ` (${s.text})` : ""}. Remove them, or ask your administrator to add them to your plan.`,
  PFAPI0010: () => "The service took too long to answer. Try again, with fewer records or a narrower search.",
  PFAPI0011: (s) => (/\bAI action\b/i.test(s.text ?? "") ? NO_AI_CREDITS_MESSAGE : NO_CREDITS_MESSAGE),
  ZI0001: () => "The service did not accept your sign-in (it is missing or has expired). Sign in again.",
  ZI0002: (s) =>
    `Your organization's app registration is not allowed to use this part of the service${s.text ? `: ${s.text.replace(/\.$/, "")}` : s.what}. Ask your administrator to add it to the app.`,
  ZI0003: (s) => `Your subscription has no access to this part of the service${s.what}. Ask your administrator for access.`,
  ZI0004: (s) => `Your organization has used up its request allowance at the service (every user of it shares one). ${s.retry}`,
  ZI9998: (s) =>
    `The add-in sent a request the service does not offer${s.what}. This is a fault in the add-in or its settings, not in your data; tell your administrator.`,
};

/** The service's text of an error object, cut so a long answer cannot flood the pane. */
function textOf(error: ServiceErrorObject | undefined): string | undefined {
  const text = [error?.detail, error?.title].find((t): t is string => typeof t === "string" && t.trim() !== "");
  return text?.trim().slice(0, 200);
}

/** The sentence for the first catalog code among the error objects, or undefined when there is none. */
export function catalogUserMessage(facts: CatalogFacts): string | undefined {
  const first = facts.errors.find((e) => isProductionErrorCode(e.code));
  if (!first || !isProductionErrorCode(first.code)) return undefined;
  const text = textOf(first);
  const fieldIssues = (facts.issues ?? []).filter((issue) => issue.pointer !== undefined && issue.pointer !== "");
  const said: Said = {
    what: facts.operation ? ` (${facts.operation})` : "",
    fields: disallowedFieldsOf(facts.errors),
    // Issues placed on a field name it; the service's other words are quoted as its own.
    issues: fieldIssues.length > 0 ? summarizeIssues(fieldIssues).replace(/\.?$/, ".") : "",
    retry: facts.retryAfterMs !== undefined ? `Try again in ${Math.max(1, Math.ceil(facts.retryAfterMs / 1000))} seconds.` : "Wait a moment and try again.",
    ...(text !== undefined ? { text } : {}),
  };
  return SENTENCES[first.code](said);
}
