// The one message the sign-in dialog sends to the task pane through messageParent (a string).
// The task pane trusts nothing in it: parseDialogMessage checks every field.
import type { AccountInfo } from "./types.js";

const SOURCE = "bizdata-signin";
const VERSION = 1;

export type DialogErrorCode =
  /** The user pressed Deny, or the server refused access. */
  | "access_denied"
  /** prompt=none found no session: the user has to sign in. */
  | "login_required"
  /** The user pressed Cancel on the login form. */
  | "cancelled"
  /** Anything else (network, configuration). */
  | "failed";

export type DialogResult =
  | {
      type: "signedIn";
      accessToken: string;
      expiresAt: number;
      account: AccountInfo;
      /** Explicit-endpoint flow only: kept in the task pane's memory for renewal through the broker. */
      refreshToken?: string;
    }
  | { type: "error"; code: DialogErrorCode; description: string };

export function encodeDialogMessage(result: DialogResult): string {
  return JSON.stringify({ source: SOURCE, v: VERSION, ...result });
}

export class MalformedDialogMessage extends Error {
  constructor(reason: string) {
    super(`The sign-in window sent an unexpected message (${reason}).`);
    this.name = "MalformedDialogMessage";
  }
}

const ERROR_CODES: readonly DialogErrorCode[] = ["access_denied", "login_required", "cancelled", "failed"];

/** Reads a message from the dialog; throws MalformedDialogMessage (never quoting the message). */
export function parseDialogMessage(raw: unknown): DialogResult {
  if (typeof raw !== "string") throw new MalformedDialogMessage("not text");
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new MalformedDialogMessage("not JSON");
  }
  if (typeof value !== "object" || value === null) throw new MalformedDialogMessage("not an object");
  const m = value as Record<string, unknown>;
  if (m.source !== SOURCE || m.v !== VERSION) throw new MalformedDialogMessage("unknown sender or version");
  if (m.type === "signedIn") {
    const account = m.account as Record<string, unknown> | undefined;
    if (
      typeof m.accessToken !== "string" ||
      m.accessToken.length === 0 ||
      typeof m.expiresAt !== "number" ||
      !Number.isFinite(m.expiresAt) ||
      typeof account !== "object" ||
      account === null ||
      typeof account.username !== "string" ||
      typeof account.name !== "string" ||
      (m.refreshToken !== undefined && (typeof m.refreshToken !== "string" || m.refreshToken.length === 0))
    ) {
      throw new MalformedDialogMessage("incomplete sign-in result");
    }
    return {
      type: "signedIn",
      accessToken: m.accessToken,
      expiresAt: m.expiresAt,
      account: { name: account.name, username: account.username },
      ...(typeof m.refreshToken === "string" ? { refreshToken: m.refreshToken } : {}),
    };
  }
  if (m.type === "error") {
    const code = ERROR_CODES.includes(m.code as DialogErrorCode) ? (m.code as DialogErrorCode) : "failed";
    const description = typeof m.description === "string" ? m.description.slice(0, 500) : "";
    return { type: "error", code, description };
  }
  throw new MalformedDialogMessage("unknown type");
}
