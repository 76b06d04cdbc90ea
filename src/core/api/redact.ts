// Tokens never reach an error, a log line or a cell: every string the client produces from a
// request or a response passes through here first.

const REDACTED = "[redacted]";

const PATTERNS: readonly RegExp[] = [
  // Authorization: Bearer <token> (also Basic, and the bare "Bearer <token>")
  /\b(Bearer|Basic)\s+[A-Za-z0-9\-._~+/]+=*/gi,
  // A header line or JSON member named authorization
  /("?authorization"?\s*[:=]\s*"?)[^",\r\n}]+/gi,
  // Token members in JSON or query strings
  /("?(?:access_token|refresh_token|id_token|token)"?\s*[:=]\s*"?)[^",&\s}]+/gi,
  // Anything shaped like a JWT
  /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g,
];

/** Removes bearer tokens, Authorization values and JWT-shaped strings, and any `secrets` given. */
export function redactText(text: string, secrets: Iterable<string> = []): string {
  let out = text;
  for (const secret of secrets) {
    // Short strings would mangle ordinary text; tokens are long.
    if (secret.length >= 8) out = out.split(secret).join(REDACTED);
  }
  out = out.replace(PATTERNS[0]!, (_m, scheme: string) => `${scheme} ${REDACTED}`);
  out = out.replace(PATTERNS[1]!, (_m, head: string) => `${head}${REDACTED}`);
  out = out.replace(PATTERNS[2]!, (_m, head: string) => `${head}${REDACTED}`);
  out = out.replace(PATTERNS[3]!, REDACTED);
  return out;
}

/** A deep copy with every string redacted and every `authorization` member replaced. */
export function redactValue(value: unknown, secrets: Iterable<string> = [], depth = 0): unknown {
  const list = [...secrets];
  if (typeof value === "string") return redactText(value, list);
  if (value === null || typeof value !== "object" || depth > 8) return value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, list, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = /^(authorization|access_?token|refresh_?token|id_?token|token)$/i.test(key)
      ? REDACTED
      : redactValue(v, list, depth + 1);
  }
  return out;
}
