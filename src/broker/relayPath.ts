// Which request paths the relay forwards: only those still under /data/v1/, /studio/v1/ or
// /copilot/v1/ (research and lookalikes, docs/research.md) however the service or a URL parser
// would decode and normalise them. URL parsers treat %2e%2e as "..", and a backslash as "/", so
// "/data/v1/%2e%2e/%2e%2e/admin" would otherwise leave the relayed tree on the service host with
// the caller's token. Servers that strip path parameters read "..;" as "..", and one that
// normalises Unicode reads a full-width dot as ".".

export const RELAYED_PREFIXES: readonly string[] = ["/data/v1/", "/studio/v1/", "/copilot/v1/"];

/** Percent-decoding rounds checked: a double-decoding server would see the second. */
const DECODING_ROUNDS = 3;

/**
 * Whether a servlet container, a URL parser or a Unicode-normalising server would read the
 * segment as "." or "..": with path parameters stripped ("..;x" is ".." to Tomcat, Jetty and
 * Spring) and compatibility forms folded (a full-width or small full stop is a dot).
 */
function isDotSegment(segment: string): boolean {
  const name = segment.split(";")[0]!.normalize("NFKC");
  return name === "." || name === "..";
}

/** The request's path and query to forward unchanged, or undefined when it must not be relayed. */
export function relayablePath(url: string): string | undefined {
  const queryAt = url.indexOf("?");
  let view = queryAt === -1 ? url : url.slice(0, queryAt);
  for (let round = 0; round < DECODING_ROUNDS; round += 1) {
    // Separators other than a plain "/" (a backslash, or "/" or "\\" encoded) change how the path splits.
    if (view.includes("\\") || /%2f|%5c/i.test(view) || /[\u0000-\u001f\u007f]/.test(view)) return undefined;
    if (view.split("/").some(isDotSegment)) return undefined;
    if (!RELAYED_PREFIXES.some((prefix) => view.startsWith(prefix))) return undefined;
    let decoded: string;
    try {
      decoded = decodeURIComponent(view);
    } catch {
      return undefined;
    }
    if (decoded === view) return url;
    view = decoded;
  }
  // Still changing after every round: nothing legitimate is encoded that deep.
  return undefined;
}

/**
 * The upstream URL for a relayable path; undefined if, once parsed, it would not be under the
 * relay base's own relayed prefixes (a last check on what the URL parser made of it).
 */
export function relayTarget(relayBase: string, path: string): string | undefined {
  const base = new URL(relayBase);
  const target = new URL(`${relayBase}${path}`);
  const basePath = base.pathname.replace(/\/+$/, "");
  if (target.origin !== base.origin) return undefined;
  if (!RELAYED_PREFIXES.some((prefix) => target.pathname.startsWith(`${basePath}${prefix}`))) return undefined;
  return target.href;
}
