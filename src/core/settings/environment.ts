// Where the add-in talks to: the sandbox (either profile), the production service, or custom
// endpoints. Stored per user (browser storage / OfficeRuntime.storage), never in the workbook.
// The stored shape is environmentSchema.ts (loaded on demand: it brings the contract's validator).
export type { EnvironmentSettings, SignInSettings } from "./environmentSchema.js";
import type { EnvironmentSettings } from "./environmentSchema.js";
import { SCOPES } from "../contract/scopes.js";

/** What the add-in asks at sign-in to the sandbox: every data scope (records, lookups, signals, research: docs/research.md). */
export const DATA_SCOPES: string[] = Object.values(SCOPES);
/** What the sandbox's sign-in asks: the data scopes and reading the plan (ENTITLEMENT_SCOPES[0], docs/entitlements.md). */
export const SIGN_IN_SCOPES: string[] = [...DATA_SCOPES, "api:entitlement:read"];

/** Where `npm start` runs the sandbox unless told another port. */
export const DEFAULT_SANDBOX_URL = "https://localhost:4010";
/** Where `npm start -- --profile production` runs the token broker unless told another port. */
export const DEFAULT_SANDBOX_BROKER_URL = "https://localhost:4020";

const base = (url: string) => url.replace(/\/+$/, "");

/** The Sandbox preset for a sandbox at `url` (what the dev server was started with). */
export function sandboxEnvironment(url: string = DEFAULT_SANDBOX_URL): EnvironmentSettings {
  const at = base(url);
  return {
    kind: "sandbox",
    profile: "specification",
    label: "Sandbox",
    apiBaseUrl: at,
    audiencesBaseUrl: at,
    signIn: { flow: "oidc", authority: `${at}/oauth`, clientId: "excel-addin", scopes: SIGN_IN_SCOPES },
  };
}

export const SANDBOX_ENVIRONMENT: EnvironmentSettings = sandboxEnvironment();

/** The addresses of the production service under one service base (https://host/gtm). */
export function productionAddresses(serviceBase: string): Pick<EnvironmentSettings, "apiBaseUrl" | "audiencesBaseUrl"> & {
  authorizeUrl: string;
  authority: string;
} {
  const base = serviceBase.replace(/\/+$/, "");
  return { apiBaseUrl: base, audiencesBaseUrl: `${base}/studio`, authorizeUrl: `${base}/oauth/v1/authorize`, authority: `${base}/oauth/v1` };
}

/** The sandbox's production profile at `url` behind the local broker at `brokerUrl` (`npm start -- --profile production`). */
export function sandboxProductionEnvironment(url: string = DEFAULT_SANDBOX_URL, brokerUrl: string = DEFAULT_SANDBOX_BROKER_URL): EnvironmentSettings {
  const sandboxProduction = productionAddresses(`${base(url)}/gtm`);
  return {
    kind: "sandboxProduction",
    profile: "production",
    label: "Sandbox (production profile)",
    apiBaseUrl: sandboxProduction.apiBaseUrl,
    audiencesBaseUrl: sandboxProduction.audiencesBaseUrl,
    signIn: {
      flow: "oauth",
      authority: sandboxProduction.authority,
      authorizeUrl: sandboxProduction.authorizeUrl,
      tokenEndpoint: `${base(brokerUrl)}/token`,
      // The confidential client the sandbox's production profile and the local broker share.
      clientId: "bizdata-excel-addin",
      // No scope asked: the service grants every scope of the app (asking for one it lacks fails).
      scopes: [],
    },
  };
}

export const SANDBOX_PRODUCTION_ENVIRONMENT: EnvironmentSettings = sandboxProductionEnvironment();

/** What `npm start` runs locally: the sandbox's profile and the addresses of the sandbox and the broker. */
export interface LocalServices {
  /** "production" for `npm start -- --profile production`; anything else is the specification's profile. */
  profile?: string;
  sandboxUrl?: string;
  brokerUrl?: string;
}

/**
 * The environment a fresh pane starts with (nothing saved yet): the preset of what `npm start`
 * runs, so the first sign-in reaches it. The production profile's sandbox gets its own preset
 * (sign-in through the local broker); otherwise the Sandbox preset.
 */
export function startEnvironment(local: LocalServices = {}): EnvironmentSettings {
  const given = (value: string | undefined) => (value && value.trim() !== "" ? value.trim() : undefined);
  const sandboxUrl = given(local.sandboxUrl);
  if (local.profile?.trim() === "production") return sandboxProductionEnvironment(sandboxUrl, given(local.brokerUrl));
  return sandboxEnvironment(sandboxUrl);
}

/**
 * A deployment's addresses, as a production build carries them (README "Run in production"):
 * the service base (https://host/gtm), the authorize URL, the broker's base URL, the optional API
 * relay and the client id of the organization's app registration. Empty means not configured.
 */
export interface ProductionDeployment {
  serviceApiUrl?: string;
  signInUrl?: string;
  brokerUrl?: string;
  relayUrl?: string;
  clientId?: string;
}

/** Stand-ins (the reserved .example domain) for addresses a build was not given; Settings edits them. */
const PRODUCTION_PLACEHOLDERS = {
  serviceApiUrl: "https://api.service.example/gtm",
  brokerUrl: "https://broker.service.example",
} as const;

/**
 * The Production preset for a deployment. Nothing is discovered: the authorize URL defaults to
 * the service's own, the token endpoint is the broker's `/token`, and an address left empty
 * falls back to a placeholder (the client id to empty) for the user to fill in Settings.
 */
export function productionEnvironment(deployment: ProductionDeployment = {}): EnvironmentSettings {
  const given = (value: string | undefined) => (value && value.trim() !== "" ? value.trim() : undefined);
  const addresses = productionAddresses(given(deployment.serviceApiUrl) ?? PRODUCTION_PLACEHOLDERS.serviceApiUrl);
  const authorizeUrl = given(deployment.signInUrl) ?? addresses.authorizeUrl;
  const broker = (given(deployment.brokerUrl) ?? PRODUCTION_PLACEHOLDERS.brokerUrl).replace(/\/+$/, "");
  const relayUrl = given(deployment.relayUrl);
  return {
    kind: "production",
    profile: "production",
    label: "Production",
    apiBaseUrl: addresses.apiBaseUrl,
    audiencesBaseUrl: addresses.audiencesBaseUrl,
    ...(relayUrl ? { relayUrl } : {}),
    signIn: {
      flow: "oauth",
      authority: authorizeUrl.replace(/\/authorize\/?$/, ""),
      authorizeUrl,
      tokenEndpoint: `${broker}/token`,
      clientId: given(deployment.clientId) ?? "",
      scopes: [],
    },
  };
}

/** The Production preset with placeholders only (a build given no addresses). */
export const PRODUCTION_ENVIRONMENT: EnvironmentSettings = productionEnvironment();

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
