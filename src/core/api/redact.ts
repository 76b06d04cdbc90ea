// Tokens never reach an error, a log line or a cell: every string the client produces from a
// request or a response passes through here first. A token can come back in any encoding the
// transport uses: raw (headers, JSON), percent-encoded (a URL or query string the service
// quotes), form-encoded (the token endpoint's bodies), as one base64url piece of a JWT, or
// base64/base64url-encoded inside a larger blob (a Basic credential, an echoed header, a state),
// also when the blob is wrapped into lines of 76 characters (MIME), hex-encoded, or written with
// every character as a JSON \u escape.

const REDACTED = "[redacted]";

/** A character of a token as it may appear raw or percent-encoded. */
const TOKEN_CHAR = String.raw`(?:[A-Za-z0-9\-._~+/]|%[0-9A-Fa-f]{2})`;
/** A JWT: three base64url pieces; the dots may be percent-encoded, a percent escape may precede it. */
const JWT = /(?:(?<=%[0-9A-Fa-f]{2})|(?<![A-Za-z0-9_-]))eyJ[A-Za-z0-9_-]{5,}(?:\.|%2[Ee])[A-Za-z0-9_-]+(?:\.|%2[Ee])[A-Za-z0-9_-]*/g;
/** Authorization: Bearer <token> (also Basic, the bare "Bearer <token>", and "Bearer+" or "Bearer%20"). */
const SCHEME = new RegExp(String.raw`\b(Bearer|Basic)(?:\s+|%20|\+)${TOKEN_CHAR}+=*(?:%3[Dd])*`, "gi");
/** A header line or JSON member named authorization, with any of its separators percent-encoded. */
const AUTHORIZATION = /((?:"|%22)?authorization(?:"|%22)?\s*(?::|=|%3[Aa]|%3[Dd])\s*(?:"|%22)?)(?:[^",\r\n}%&]|%(?!22)[0-9A-Fa-f]{2})+/gi;
/** Token members in JSON, query strings or form bodies, the same way. */
const TOKEN_MEMBER =
  /((?:"|%22)?(?:access_token|refresh_token|id_token|token)(?:"|%22)?\s*(?::|=|%3[Aa]|%3[Dd])\s*(?:"|%22)?)(?:[^",&\s}%]|%(?!22|26)[0-9A-Fa-f]{2})+/gi;
/** A JWT base64- or base64url-encoded ("eyJ" encodes to "ZXlK"), at the start of an encoded run. */
const ENCODED_JWT = /(?<![A-Za-z0-9+/_-])ZXlK[A-Za-z0-9+/_-]{20,}={0,2}/g;
/** A run of URL-safe text; one that holds an escape is looked at decoded as well. */
const URL_RUN = /[A-Za-z0-9\-._~+!*'()/:=&;,%]+/g;
const ESCAPE = /%[0-9A-Fa-f]{2}/;
/** Base64 wrapped into lines (raw line ends, or JSON's escaped ones): looked at joined. */
const WRAPPED_RUN = /[A-Za-z0-9+/=_-]{4,}(?:(?:\r?\n|\\r\\n|\\n)[A-Za-z0-9+/=_-]{4,})+/g;
const LINE_BREAKS = /\r?\n|\\r\\n|\\n/g;
/** Text with JSON \u escapes in it: looked at with the escapes decoded. */
const UNICODE_RUN = /(?:\\u[0-9A-Fa-f]{4}|[A-Za-z0-9\-._~+/=%:])*\\u[0-9A-Fa-f]{4}(?:\\u[0-9A-Fa-f]{4}|[A-Za-z0-9\-._~+/=%:])*/g;

/** Shortest secret worth looking for: shorter strings would mangle ordinary text. */
const MIN_SECRET = 8;
/** Shortest JWT piece looked for on its own (headers are short and alike; they are not secret). */
const MIN_PIECE = 16;

/** The forms in which `secret` can appear in text the transport carried. */
function secretForms(secret: string): string[] {
  const forms = new Set<string>([secret]);
  const encoded = encodeURIComponent(secret);
  forms.add(encoded);
  forms.add(encoded.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()));
  forms.add(new URLSearchParams({ s: secret }).toString().slice(2));
  for (const form of base64Forms(secret)) forms.add(form);
  const hex = [...new TextEncoder().encode(secret)].map((b) => b.toString(16).padStart(2, "0")).join("");
  forms.add(hex);
  forms.add(hex.toUpperCase());
  const pieces = secret.split(".");
  if (pieces.length === 3) {
    // The payload and the signature identify the token on their own.
    for (const piece of pieces.slice(1)) if (piece.length >= MIN_PIECE) forms.add(piece);
  }
  return [...forms].filter((f) => f.length >= MIN_SECRET).sort((a, b) => b.length - a.length);
}

const toBase64 = (bytes: Uint8Array): string => {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
};

/**
 * The secret base64- and base64url-encoded wherever it starts in a larger encoded blob: for each
 * of the three byte alignments, the characters that depend on the secret's bytes alone.
 */
function base64Forms(secret: string): string[] {
  const bytes = new TextEncoder().encode(secret);
  const forms: string[] = [];
  for (let shift = 0; shift < 3; shift++) {
    const padded = new Uint8Array(shift + bytes.length);
    padded.set(bytes, shift);
    const encoded = toBase64(padded);
    const stable = encoded.slice(shift > 0 ? 4 : 0, 4 * Math.floor(padded.length / 3));
    forms.push(stable, stable.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return forms;
}

function redactPatterns(text: string): string {
  return text
    .replace(SCHEME, (_m, scheme: string) => `${scheme} ${REDACTED}`)
    .replace(AUTHORIZATION, (_m, head: string) => `${head}${REDACTED}`)
    .replace(TOKEN_MEMBER, (_m, head: string) => `${head}${REDACTED}`)
    .replace(JWT, REDACTED)
    .replace(ENCODED_JWT, REDACTED);
}

/** Percent- and form-decoding that never throws (a broken escape stays as it is). */
function decodeLoosely(run: string): string {
  const spaced = run.replace(/\+/g, " ");
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced.replace(/(?:%[0-9A-Fa-f]{2})+/g, (seq) => {
      try {
        return decodeURIComponent(seq);
      } catch {
        return seq;
      }
    });
  }
}

function redactOnce(text: string, forms: readonly string[]): string {
  let out = text;
  for (const form of forms) out = out.split(form).join(REDACTED);
  return redactPatterns(out);
}

/** Each run `pattern` finds is looked at as `decode` makes it: if that holds a secret, the run becomes the redacted decoding. */
function redactDecodedRuns(text: string, pattern: RegExp, decode: (run: string) => string, forms: readonly string[]): string {
  return text.replace(pattern, (run) => {
    const decoded = decode(run);
    const redacted = redactOnce(decoded, forms);
    return redacted === decoded ? run : redacted;
  });
}

const unescapeUnicode = (run: string) => run.replace(/\\u([0-9A-Fa-f]{4})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/**
 * Removes bearer tokens, Authorization values, token members and JWT-shaped strings, and any
 * `secrets` given, in raw, percent-encoded and form-encoded text, as JWT pieces, in base64
 * (wrapped or not) and hex, and behind JSON \u escapes.
 */
export function redactText(text: string, secrets: Iterable<string> = []): string {
  const forms = [...new Set([...secrets].filter((s) => s.length >= MIN_SECRET).flatMap(secretForms))].sort((a, b) => b.length - a.length);
  let out = text.includes("\\u") ? redactDecodedRuns(text, UNICODE_RUN, unescapeUnicode, forms) : text;
  out = redactDecodedRuns(out, WRAPPED_RUN, (run) => run.replace(LINE_BREAKS, ""), forms);
  out = redactOnce(out, forms);
  // Encoded runs (twice, for a URL inside a URL): if the decoded text holds a secret, the run is
  // shown decoded and redacted; otherwise it stays as it was.
  for (let round = 0; round < 2; round++) {
    const next = out.replace(URL_RUN, (run) => {
      if (!ESCAPE.test(run)) return run;
      const decoded = decodeLoosely(run);
      const redacted = redactOnce(decoded, forms);
      return redacted === decoded ? run : redacted;
    });
    if (next === out) break;
    out = next;
  }
  return out;
}

/** A deep copy with every string redacted and every `authorization` or token member replaced. */
export function redactValue(value: unknown, secrets: Iterable<string> = [], depth = 0): unknown {
  const list = [...secrets];
  if (typeof value === "string") return redactText(value, list);
  if (value === null || typeof value !== "object" || depth > 8) return value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, list, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = /^(authorization|access_?token|refresh_?token|id_?token|token)$/i.test(key) ? REDACTED : redactValue(v, list, depth + 1);
  }
  return out;
}
