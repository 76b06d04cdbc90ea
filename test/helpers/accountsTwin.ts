// The twin's corporate-hierarchy and org-chart operations over real HTTP: a test sandbox (either
// profile) with an account of `credits`, and what a service client needs to speak to it (its
// base URL, a token of that account, the transport; production's paging edge on that profile).
// Requests are counted at the sandbox by the data API's route: production's /gtm route forwards
// each request it takes to that route once.
import { fetchTransport, type Transport } from "../../src/core/api/index.js";
import { productionTransport } from "../../src/core/api/production/index.js";
import type { TestSandbox } from "./sandbox.js";

export interface AccountsTwinOptions {
  credits?: number;
  account?: string;
  profile?: "specification" | "production";
}

export interface AccountsTwin {
  sandbox: TestSandbox;
  account: string;
  profile: "specification" | "production";
  /** The client's options for the twin: spread them into createServiceClient's. */
  clientOptions: { baseUrl: string; getAccessToken: () => Promise<string>; fetch: Transport; profile: "specification" | "production" };
  /** Requests the sandbox received for a path of the data API (as the specification names it). */
  count(path: string): number;
}

/** The twin on a running test sandbox (useSandbox, sandboxForTest or startTestSandbox; its profile given here too). */
export async function accountsTwinOn(sandbox: TestSandbox, options: AccountsTwinOptions = {}): Promise<AccountsTwin> {
  const account = options.account ?? "twin";
  const profile = options.profile ?? "specification";
  await sandbox.setAccount(account, options.credits ?? 1_000_000);
  const token = await sandbox.token({ account });
  const base = profile === "production" ? "/gtm" : "";
  return {
    sandbox,
    account,
    profile,
    clientOptions: {
      baseUrl: `${sandbox.url}${base}`,
      getAccessToken: async () => token,
      fetch: profile === "production" ? productionTransport(fetchTransport()) : fetchTransport(),
      profile,
    },
    count: (path) => sandbox.requests(`POST ${path}`),
  };
}
