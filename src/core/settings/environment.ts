// Where the add-in talks to: the sandbox (either profile), the production service, or custom
// endpoints. Stored per user (browser storage / OfficeRuntime.storage), never in the workbook.
// The stored shape is environmentSchema.ts (loaded on demand: it brings the contract's validator).
export type { EnvironmentSettings, SignInSettings } from "./environmentSchema.js";
import type { EnvironmentSettings } from "./environmentSchema.js";

export const DATA_SCOPES = ["api:data:company", "api:data:contact", "api:data:lookup"];

export const SANDBOX_URL = "https://localhost:4010";
/** Where `npm start -- --profile production` runs the token broker. */
export const SANDBOX_BROKER_URL = "https://localhost:4020";

export const SANDBOX_ENVIRONMENT: EnvironmentSettings = {
  kind: "sandbox",
  profile: "specification",
  label: "Sandbox",
  apiBaseUrl: SANDBOX_URL,
  audiencesBaseUrl: SANDBOX_URL,
  signIn: { flow: "oidc", authority: `${SANDBOX_URL}/oauth`, clientId: "excel-addin", scopes: DATA_SCOPES },
};

/** The addresses of the production service under one service base (https://host/gtm). */
export function productionAddresses(serviceBase: string): Pick<EnvironmentSettings, "apiBaseUrl" | "audiencesBaseUrl"> & {
  authorizeUrl: string;
  authority: string;
} {
  const base = serviceBase.replace(/\/+$/, "");
  return { apiBaseUrl: base, audiencesBaseUrl: `${base}/studio`, authorizeUrl: `${base}/oauth/v1/authorize`, authority: `${base}/oauth/v1` };
}

const sandboxProduction = productionAddresses(`${SANDBOX_URL}/gtm`);

/** The sandbox's production profile behind the local broker (`npm start -- --profile production`). */
export const SANDBOX_PRODUCTION_ENVIRONMENT: EnvironmentSettings = {
  kind: "sandboxProduction",
  profile: "production",
  label: "Sandbox (production profile)",
  apiBaseUrl: sandboxProduction.apiBaseUrl,
  audiencesBaseUrl: sandboxProduction.audiencesBaseUrl,
  signIn: {
    flow: "oauth",
    authority: sandboxProduction.authority,
    authorizeUrl: sandboxProduction.authorizeUrl,
    tokenEndpoint: `${SANDBOX_BROKER_URL}/token`,
    // The confidential client the sandbox's production profile and the local broker share.
    clientId: "bizdata-excel-addin",
    // No scope asked: the service grants every scope of the app (asking for one it lacks fails).
    scopes: [],
  },
};

/**
 * The production service. The addresses are placeholders (the reserved .example domain) that an
 * organization replaces with its own in Settings: the service base, the client id of its app
 * registration and its broker's token URL. Nothing is discovered.
 */
const production = productionAddresses("https://api.service.example/gtm");
export const PRODUCTION_ENVIRONMENT: EnvironmentSettings = {
  kind: "production",
  profile: "production",
  label: "Production",
  apiBaseUrl: production.apiBaseUrl,
  audiencesBaseUrl: production.audiencesBaseUrl,
  signIn: {
    flow: "oauth",
    authority: production.authority,
    authorizeUrl: production.authorizeUrl,
    tokenEndpoint: "https://broker.service.example/token",
    clientId: "",
    scopes: [],
  },
};

/** Where requests go: the relay when one is configured (same paths), else the service itself. */
export function requestAddresses(env: EnvironmentSettings): { data: string; audiences: string } {
  if (!env.relayUrl) return { data: env.apiBaseUrl, audiences: env.audiencesBaseUrl };
  const relay = env.relayUrl.replace(/\/+$/, "");
  return { data: relay, audiences: env.profile === "production" ? `${relay}/studio` : relay };
}

/** Checks a user-edited environment; returns messages in the user's terms (empty when fine). */
export function environmentProblems(env: EnvironmentSettings): string[] {
  const problems: string[] = [];
  const https = (value: string, what: string) => {
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      problems.push(`${what} must be a full address such as https://api.example.com.`);
      return;
    }
    if (url.protocol !== "https:") problems.push(`${what} must start with https://.`);
  };
  https(env.apiBaseUrl, env.profile === "production" ? "Service address" : "Data API address");
  if (env.profile !== "production") https(env.audiencesBaseUrl, "Audience API address");
  if (env.relayUrl) https(env.relayUrl, "API relay address");
  if (env.signIn.flow === "oauth") {
    if (env.signIn.authorizeUrl) https(env.signIn.authorizeUrl, "Sign-in (authorize) address");
    else problems.push("The sign-in (authorize) address is required.");
    if (env.signIn.tokenEndpoint) https(env.signIn.tokenEndpoint, "Token broker address");
    else problems.push("Your organization's token broker address is required to sign in to production.");
  } else {
    https(env.signIn.authority, "Sign-in authority");
    if (env.signIn.tokenEndpoint) https(env.signIn.tokenEndpoint, "Token endpoint");
  }
  if (!env.signIn.clientId.trim()) problems.push("Client id is required to sign in.");
  return problems;
}
