// What of an upstream token endpoint's answer reaches the browser: of a token answer, the
// fields of RFC 6749 5.1 (and OpenID Connect's id_token); of an error answer, the OAuth error
// fields (RFC 6749 5.2) and a plain challenge. Nothing else, and never a form of the client's secret.

const ERROR_TEXT = /^[\x20-\x21\x23-\x5B\x5D-\x7E]+$/;
const CHALLENGE = /^(Basic|Bearer)( [\x20-\x7E]{0,200})?$/;

export interface OAuthErrorAnswer {
  status: number;
  body: { error: string; error_description?: string; error_uri?: string };
  challenge?: string;
}

/** Every way the client's secret or its Basic credentials could be written back. */
export function secretForms(clientId: string, clientSecret: string, basic: string): string[] {
  const credentials = basic.replace(/^Basic /, "");
  return [
    clientSecret,
    encodeURIComponent(clientSecret),
    new URLSearchParams([["", clientSecret]]).toString().slice(1),
    credentials,
    Buffer.from(credentials, "base64").toString("base64url"),
    Buffer.from(`${clientId}:${clientSecret}`).toString("base64"),
    Buffer.from(clientSecret).toString("base64"),
    Buffer.from(clientSecret).toString("base64url"),
    Buffer.from(clientSecret).toString("hex"),
    Buffer.from(clientSecret).toString("hex").toUpperCase(),
  ].filter((form) => form.length >= 4);
}

const mentionsSecret = (text: string, secrets: readonly string[]) => secrets.some((s) => text.includes(s));

function field(value: unknown, secrets: readonly string[], max: number): string | undefined {
  return typeof value === "string" && value.length <= max && ERROR_TEXT.test(value) && !mentionsSecret(value, secrets) ? value : undefined;
}

/** The error to pass on for an upstream answer that is not a success. */
export function oauthErrorAnswer(answer: { status: number; headers: Headers; body: Buffer }, secrets: readonly string[]): OAuthErrorAnswer {
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.body.toString("utf8"));
  } catch {
    parsed = undefined;
  }
  const doc = parsed !== null && typeof parsed === "object" ? (parsed as Record<string, unknown>) : {};
  const error = field(doc.error, secrets, 100);
  const clientError = answer.status >= 400 && answer.status < 500;
  if (!error || !clientError) {
    return {
      status: 502,
      body: {
        error: "temporarily_unavailable",
        error_description: `The sign-in service answered ${answer.status} without a usable OAuth error. Try again in a moment.`,
      },
    };
  }
  const description = field(doc.error_description, secrets, 500);
  const uri = field(doc.error_uri, secrets, 500);
  const challenge = answer.headers.get("www-authenticate") ?? undefined;
  return {
    status: answer.status,
    body: {
      error,
      ...(description !== undefined ? { error_description: description } : {}),
      ...(uri !== undefined && /^https:\/\//.test(uri) ? { error_uri: uri } : {}),
    },
    ...(challenge && CHALLENGE.test(challenge) && !mentionsSecret(challenge, secrets) ? { challenge } : {}),
  };
}

/** RFC 6749 5.1's token answer fields (and OpenID Connect's id_token), with the type each must have. */
const TOKEN_FIELDS: Record<string, "string" | "number"> = {
  access_token: "string",
  token_type: "string",
  expires_in: "number",
  refresh_token: "string",
  scope: "string",
  id_token: "string",
};

/**
 * The token answer to pass on for an upstream success: only its RFC 6749 5.1 fields, each of its
 * type and free of the client's secret; undefined when it is not a usable token answer.
 */
export function tokenSuccessAnswer(body: Buffer, secrets: readonly string[]): Record<string, string | number> | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString("utf8"));
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return undefined;
  const doc = parsed as Record<string, unknown>;
  const out: Record<string, string | number> = {};
  for (const [name, type] of Object.entries(TOKEN_FIELDS)) {
    const value = doc[name];
    if (typeof value !== type || (typeof value === "string" && mentionsSecret(value, secrets))) continue;
    out[name] = value as string | number;
  }
  return typeof out.access_token === "string" && typeof out.token_type === "string" ? out : undefined;
}
