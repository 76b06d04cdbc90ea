// Production's API gateway answers with codes of its own (ZI0001...) before a request reaches
// the service. Each gets a plain message; the service's own codes keep the client's messages.
import { errorCodesOf } from "./paging.js";

export interface GatewayFacts {
  status: number;
  /** The answer's body, parsed (either error shape). */
  body: unknown;
  /** "GET /studio/v1/audiences/{audienceId}/rows" and the like. */
  operation?: string;
}

/** The gateway's message (it names the resource the app may not use), when there is one. */
function gatewayText(body: unknown): string | undefined {
  if (body === null || typeof body !== "object") return undefined;
  const doc = body as { error?: { message?: unknown; detail?: unknown }; errors?: Array<{ detail?: unknown; title?: unknown }> };
  const candidates = [doc.error?.message, doc.error?.detail, doc.errors?.[0]?.detail, doc.errors?.[0]?.title];
  const text = candidates.find((c): c is string => typeof c === "string" && c.trim() !== "");
  // Shown as text only; cut so a long answer cannot flood the pane.
  return text?.trim().slice(0, 200);
}

/** What the user is told for a gateway code, or undefined when the answer carries none. */
export function gatewayUserMessage(facts: GatewayFacts): string | undefined {
  const codes = errorCodesOf(facts.body);
  const what = facts.operation ? ` (${facts.operation})` : "";
  const said = gatewayText(facts.body);
  if (codes.includes("ZI0001")) return "The service did not accept your sign-in. Sign in again.";
  if (codes.includes("ZI0002")) {
    return `Your organization's app registration is not allowed to use this part of the service${said ? `: ${said}` : what}. Ask your administrator to add it to the app.`;
  }
  if (codes.includes("ZI0003")) return `Your account has no access to this part of the service${what}. Ask your administrator for access.`;
  if (codes.includes("ZI0004")) return "Your organization has sent too many requests to the service. Wait a moment and try again.";
  if (codes.includes("ZI9998")) {
    return `The add-in sent a request the service does not offer${what}. This is a fault in the add-in or its settings, not in your data; tell your administrator.`;
  }
  if (codes.includes("PFAPI0007")) return "The service had a problem. Try again in a moment.";
  if (codes.includes("PFAPI0010")) return "The service took too long to answer. Try again in a moment.";
  return undefined;
}
