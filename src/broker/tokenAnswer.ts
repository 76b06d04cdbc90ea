// What of an upstream token endpoint's answer reaches the browser: of a token answer, the
// fields of RFC 6749 5.1 (and OpenID Connect's id_token), never a form of the client's secret; of
// an error answer, its RFC 6749 5.2 error code only, with the broker's own sentence.

/** The error codes of RFC 6749 5.2, each with the broker's own sentence for it. */
const OAUTH_ERRORS: Record<string, string> = {
  invalid_request: "The sign-in service did not accept the request. Sign in again.",
  invalid_client: "The sign-in service does not accept this add-in's registration. Ask your administrator to check the broker's settings.",
  invalid_grant: "Your sign-in has expired or was already used. Sign in again.",
  unauthorized_client: "This add-in's registration may not sign in this way. Ask your administrator.",
  unsupported_grant_type: "The sign-in service does not support this way of signing in. Ask your administrator.",
  invalid_scope: "The sign-in asked for access your account does not have. Ask your administrator to check your permissions.",
};

export interface OAuthErrorAnswer {
  status: number;
  body: { error: string; error_description: string };
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

/**
 * The error to pass on for an upstream answer that is not a success: the RFC 6749 error code
 * only, with the broker's own sentence. Nothing else of the upstream's text (its description,
 * its error_uri, its challenge) is passed on, so no encoding of the client secret can be.
 */
export function oauthErrorAnswer(answer: { status: number; body: Buffer }): OAuthErrorAnswer {
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.body.toString("utf8"));
  } catch {
    parsed = undefined;
  }
  const code = parsed !== null && typeof parsed === "object" ? (parsed as Record<string, unknown>).error : undefined;
  const sentence = typeof code === "string" && Object.hasOwn(OAUTH_ERRORS, code) ? OAUTH_ERRORS[code] : undefined;
  if (sentence === undefined || answer.status < 400 || answer.status >= 500) {
    return {
      status: 502,
      body: {
        error: "temporarily_unavailable",
        error_description: `The sign-in service answered ${answer.status} without a usable OAuth error. Try again in a moment.`,
      },
    };
  }
  return {
    status: answer.status,
    body: { error: code as string, error_description: sentence },
    // RFC 6749 5.2: a failed HTTP Basic client authentication is answered with the scheme's challenge.
    ...(answer.status === 401 ? { challenge: 'Basic realm="token"' } : {}),
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
