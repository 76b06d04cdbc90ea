// The Production preset of this build. A production build is given the deployment's addresses
// (webpack's DefinePlugin replaces each process.env.NAME below with its text, empty when unset);
// src/core stays free of process access and turns them into the preset, with placeholders for
// any address the build was not given.
import { productionEnvironment, type EnvironmentSettings } from "../core/settings/environment.js";

/** Reads one build-time address; outside a build (tests in Node) the variable may be absent. */
const built = (value: string | undefined): string => value ?? "";

export const DEPLOYED_PRODUCTION_ENVIRONMENT: EnvironmentSettings = productionEnvironment({
  serviceApiUrl: built(process.env.SERVICE_API_URL),
  signInUrl: built(process.env.SERVICE_SIGNIN_URL),
  brokerUrl: built(process.env.BROKER_URL),
  relayUrl: built(process.env.SERVICE_RELAY_URL),
  clientId: built(process.env.SERVICE_CLIENT_ID),
});
