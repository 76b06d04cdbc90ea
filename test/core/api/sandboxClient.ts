// A client on the test sandbox for the client's sandbox suites: fast retries, a rate limit far
// above what the tests send, and the suite's token (or a signed-in user's).
import { createServiceClient, type ServiceClient, type ServiceClientOptions } from "../../../src/core/api/index.js";
import { DATA_SCOPES } from "../../../src/core/settings/environment.js";
import { signIn } from "../../auth/helpers/oidcFlow.js";

export function sandboxClient(url: string, token: () => string, options: Partial<ServiceClientOptions> = {}): ServiceClient {
  return createServiceClient({
    baseUrl: url,
    getAccessToken: async () => token(),
    rateLimit: { perSecond: 2000 },
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    ...options,
  });
}

/** A client with the token of a user signed in through the sandbox's sign-in flow, asking the scopes the add-in asks. */
export async function signedInClient(url: string): Promise<ServiceClient> {
  const tokens = await signIn({
    baseUrl: url,
    origin: "https://localhost:3000",
    email: "analyst@example.com",
    password: "analyst-pass",
    scope: `openid profile offline_access ${DATA_SCOPES.join(" ")}`,
  });
  return sandboxClient(url, () => tokens.access_token);
}
