// Where the add-in talks to: the sandbox, the production service, or custom endpoints.
// Stored per user (browser storage / OfficeRuntime.storage), never in the workbook.

export interface SignInSettings {
  /** OAuth authority (issuer base), HTTPS. */
  authority: string;
  clientId: string;
  /** Scopes asked for at sign-in (besides openid profile offline_access). */
  scopes: string[];
  /** Token endpoint, when it differs from the authority's (an organization's own token broker). */
  tokenEndpoint?: string;
}

export interface EnvironmentSettings {
  kind: "sandbox" | "production" | "custom";
  /** Display name shown next to the signed-in user. */
  label: string;
  /** Base URL of the data API (paths start with /data/v1). */
  apiBaseUrl: string;
  /** Base URL of the audience API (paths start with /v1). */
  audiencesBaseUrl: string;
  signIn: SignInSettings;
}

export const DATA_SCOPES = ["api:data:company", "api:data:contact", "api:data:lookup"];

export const SANDBOX_URL = "https://localhost:4010";

export const SANDBOX_ENVIRONMENT: EnvironmentSettings = {
  kind: "sandbox",
  label: "Sandbox",
  apiBaseUrl: SANDBOX_URL,
  audiencesBaseUrl: SANDBOX_URL,
  signIn: { authority: `${SANDBOX_URL}/oauth`, clientId: "excel-addin", scopes: DATA_SCOPES },
};

/**
 * The production service. The addresses are placeholders (the reserved .example domain) that an
 * organization replaces with its own in Settings; the client id comes from the service's app
 * registration. The audience operations live under /studio there, and the token endpoint is
 * often an organization's own broker: both are editable in Settings.
 */
export const PRODUCTION_ENVIRONMENT: EnvironmentSettings = {
  kind: "production",
  label: "Production",
  apiBaseUrl: "https://api.service.example",
  audiencesBaseUrl: "https://api.service.example/studio",
  signIn: { authority: "https://login.service.example", clientId: "", scopes: DATA_SCOPES },
};

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
  https(env.apiBaseUrl, "Data API address");
  https(env.audiencesBaseUrl, "Audience API address");
  https(env.signIn.authority, "Sign-in authority");
  if (env.signIn.tokenEndpoint) https(env.signIn.tokenEndpoint, "Token endpoint");
  if (!env.signIn.clientId.trim()) problems.push("Client id is required to sign in.");
  return problems;
}
