// The add-in's runtime signed in as the production profile's limited user (account
// "limited-fields", lacking some output fields), with the BIZ.* cell functions wired to it.
import type { TokenSource } from "../../src/auth/index.js";
import { SANDBOX_PRODUCTION_ENVIRONMENT, productionAddresses, type EnvironmentSettings } from "../../src/core/settings/environment.js";
import { cellFunctionsWiring, createRuntime, type Runtime } from "../../src/runtime.js";
import type { TestSandbox } from "../helpers/sandbox.js";

const ALL = ["api:data:company", "api:data:contact", "api:data:lookup", "api:audience:read", "api:audience:manage"];

/** A signed-in user holding a fixed development token. */
function fixedTokenSource(token: string): TokenSource {
  const account = { name: "Limited", username: "limited@example.com" };
  return {
    getAccessToken: async () => token,
    signIn: async () => account,
    signOut: async () => undefined,
    account: () => account,
    onChange: () => () => undefined,
  };
}

export async function limitedRuntime(
  sandbox: TestSandbox,
  configure: (functions: ReturnType<typeof cellFunctionsWiring>["functions"]) => void,
): Promise<Runtime> {
  const token = await sandbox.token({ scopes: ALL, account: "limited-fields" });
  const environment: EnvironmentSettings = { ...SANDBOX_PRODUCTION_ENVIRONMENT, ...productionAddresses(`${sandbox.url}/gtm`) };
  const runtime = createRuntime({ environment, tokenSource: () => fixedTokenSource(token) });
  configure(cellFunctionsWiring(runtime, { supportsEntityCards: () => false }).functions);
  return runtime;
}
