// The presets of this build: the Sandbox ones follow what `npm start` serves (its sandbox and
// broker ports, handed to the dev server as SANDBOX_URL and SANDBOX_BROKER_URL; the defaults,
// localhost:4010 and :4020, otherwise), and the Production preset. A production build is given the deployment's addresses
// (webpack's DefinePlugin replaces each process.env.NAME below with its text, empty when unset);
// src/core stays free of process access and turns them into the preset, with placeholders for
// any address the build was not given.
import {
  productionEnvironment,
  sandboxEnvironment,
  sandboxProductionEnvironment,
  startEnvironment,
  type EnvironmentSettings,
} from "../core/settings/environment.js";

/** Reads one build-time address; outside a build (tests in Node) the variable may be absent. */
const built = (value: string | undefined): string => value ?? "";

export const DEPLOYED_PRODUCTION_ENVIRONMENT: EnvironmentSettings = productionEnvironment({
  serviceApiUrl: built(process.env.SERVICE_API_URL),
  signInUrl: built(process.env.SERVICE_SIGNIN_URL),
  brokerUrl: built(process.env.BROKER_URL),
  relayUrl: built(process.env.SERVICE_RELAY_URL),
  clientId: built(process.env.SERVICE_CLIENT_ID),
});

/** The sandbox `npm start` runs for this dev server (or the default address). */
export const DEPLOYED_SANDBOX_ENVIRONMENT: EnvironmentSettings = sandboxEnvironment(built(process.env.SANDBOX_URL) || undefined);

/** The sandbox's production profile and broker `npm start -- --profile production` runs (or the defaults). */
export const DEPLOYED_SANDBOX_PRODUCTION_ENVIRONMENT: EnvironmentSettings = sandboxProductionEnvironment(
  built(process.env.SANDBOX_URL) || undefined,
  built(process.env.SANDBOX_BROKER_URL) || undefined,
);

/**
 * What a fresh pane (nothing saved yet) talks to: the preset of what `npm start` runs, the
 * production profile's (behind the local broker) when it was started with `--profile production`
 * (SANDBOX_PROFILE), else the Sandbox.
 */
export const DEPLOYED_START_ENVIRONMENT: EnvironmentSettings = startEnvironment({
  profile: built(process.env.SANDBOX_PROFILE),
  sandboxUrl: built(process.env.SANDBOX_URL),
  brokerUrl: built(process.env.SANDBOX_BROKER_URL),
});
