// The manifest for a deployment: the committed manifest.xml points at the dev server
// (https://localhost:3000) and the sandbox (https://localhost:4010); a production build points
// it at the add-in's public URL and the service's domain instead.

/** The add-in origin written in the committed manifest. */
export const DEV_ADDIN_URL = "https://localhost:3000";
/** The sandbox origin listed in the committed manifest's AppDomains. */
export const DEV_SERVICE_URL = "https://localhost:4010";

export interface ManifestTarget {
  /** Public HTTPS URL the built add-in is served from, e.g. https://addin.example.com/excel. */
  addinUrl?: string;
  /** Origins the add-in reaches (the service's API and sign-in, the token broker), replacing the sandbox. */
  serviceUrls?: string[];
}

/**
 * Reads the deployment target from the environment: ADDIN_PUBLIC_URL, and optionally
 * SERVICE_API_URL, SERVICE_SIGNIN_URL, BROKER_URL and SERVICE_RELAY_URL for AppDomains. Throws an Error whose message says
 * what to fix when a value is not an HTTPS URL (Office loads add-ins over HTTPS only).
 */
export function manifestTargetFromEnv(env: Record<string, string | undefined>): ManifestTarget {
  const target: ManifestTarget = {};
  const addinUrl = env.ADDIN_PUBLIC_URL?.trim();
  if (addinUrl) target.addinUrl = httpsUrl(addinUrl, "ADDIN_PUBLIC_URL").replace(/\/+$/, "");
  const serviceUrls: string[] = [];
  for (const name of ["SERVICE_API_URL", "SERVICE_SIGNIN_URL", "BROKER_URL", "SERVICE_RELAY_URL"] as const) {
    const value = env[name]?.trim();
    if (value) serviceUrls.push(new URL(httpsUrl(value, name)).origin);
  }
  if (serviceUrls.length > 0) target.serviceUrls = [...new Set(serviceUrls)];
  return target;
}

/**
 * Rewrites the dev URLs of a manifest for a deployment: every https://localhost:3000 becomes
 * `addinUrl` (keeping the path after it) and the sandbox AppDomain becomes the service origins.
 * Without a target the manifest is returned unchanged.
 */
export function rewriteManifest(xml: string, target: ManifestTarget): string {
  let out = xml;
  if (target.addinUrl) out = out.split(DEV_ADDIN_URL).join(escapeXmlAttribute(target.addinUrl));
  if (target.serviceUrls && target.serviceUrls.length > 0) {
    const devDomain = `<AppDomain>${DEV_SERVICE_URL}</AppDomain>`;
    const at = out.indexOf(devDomain);
    if (at < 0) throw new Error(`manifest.xml has no <AppDomain>${DEV_SERVICE_URL}</AppDomain> to replace.`);
    const lineStart = out.lastIndexOf("\n", at) + 1;
    const indent = out.slice(lineStart, at);
    const domains = target.serviceUrls.map((url) => `<AppDomain>${escapeXmlAttribute(url)}</AppDomain>`).join(`\n${indent}`);
    out = out.slice(0, at) + domains + out.slice(at + devDomain.length);
  }
  return out;
}

/**
 * Points the add-in URLs inside functions.json (help links) at `addinUrl`. The URL is a parsed
 * HTTPS href, so it holds no quote or backslash that would need JSON escaping.
 */
export function rewriteFunctionsMetadata(json: string, target: ManifestTarget): string {
  return target.addinUrl ? json.split(DEV_ADDIN_URL).join(target.addinUrl) : json;
}

function httpsUrl(value: string, name: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} must be a full address such as https://addin.example.com (got "${value}").`);
  }
  if (url.protocol !== "https:") throw new Error(`${name} must start with https:// because Office loads add-ins over HTTPS only (got "${value}").`);
  if (url.search || url.hash) throw new Error(`${name} must not have a query or fragment (got "${value}").`);
  return url.href;
}

function escapeXmlAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
