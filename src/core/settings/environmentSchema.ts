// The stored shape of an environment, as a TypeBox schema checked with the contract's validator.
// Kept apart from the presets so the first screen does not load the validator.
import { Type, type Static } from "@sinclair/typebox";
import { compiledCheck } from "../contract/index.js";

const Url = Type.String({ minLength: 1 });

export const SignInSettingsSchema = Type.Object(
  {
    /**
     * "oidc" (default): an OpenID provider whose discovery document names the endpoints (the
     * sandbox). "oauth": the authorize and token endpoints as configured, nothing discovered,
     * no id token expected (production, whose token endpoint is the organization's broker).
     */
    flow: Type.Optional(Type.Union([Type.Literal("oidc"), Type.Literal("oauth")])),
    /** oidc: the issuer base, HTTPS. oauth: the authorization server's base (shown only). */
    authority: Url,
    /** oauth: the authorization endpoint. */
    authorizeUrl: Type.Optional(Url),
    clientId: Type.String(),
    /** Scopes asked for at sign-in (besides OpenID's own in oidc); none: every scope of the app. */
    scopes: Type.Array(Type.String()),
    /** The token endpoint: oauth always (the broker's /token); oidc when it differs from the discovered one. */
    tokenEndpoint: Type.Optional(Url),
  },
  { additionalProperties: false },
);
export type SignInSettings = Static<typeof SignInSettingsSchema>;

export const EnvironmentSettingsSchema = Type.Object(
  {
    kind: Type.Union([Type.Literal("sandbox"), Type.Literal("sandboxProduction"), Type.Literal("production"), Type.Literal("custom")]),
    /** Which dialect the service speaks: the specification's, or production's (names, studio, paging). */
    profile: Type.Optional(Type.Union([Type.Literal("specification"), Type.Literal("production")])),
    /** Display name shown next to the signed-in user. */
    label: Type.String(),
    /** Base URL of the data API (paths start with /data/v1). */
    apiBaseUrl: Url,
    /** Base URL of the audience API (paths start with /v1). */
    audiencesBaseUrl: Url,
    /** The organization's API relay (the broker's --relay), when the service does not answer browsers. */
    relayUrl: Type.Optional(Url),
    signIn: SignInSettingsSchema,
  },
  { additionalProperties: false },
);
export type EnvironmentSettings = Static<typeof EnvironmentSettingsSchema>;

/** Whether a stored value has the environment's shape (the contract's compiled validator). */
export function isEnvironmentSettings(value: unknown): value is EnvironmentSettings {
  return compiledCheck(EnvironmentSettingsSchema).Check(value);
}
