// A client on the test sandbox for the client's sandbox suites: fast retries, a rate limit far
// above what the tests send, and the suite's token.
import { createServiceClient, type ServiceClient, type ServiceClientOptions } from "../../../src/core/api/index.js";

export function sandboxClient(url: string, token: () => string, options: Partial<ServiceClientOptions> = {}): ServiceClient {
  return createServiceClient({
    baseUrl: url,
    getAccessToken: async () => token(),
    rateLimit: { perSecond: 2000 },
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    ...options,
  });
}
