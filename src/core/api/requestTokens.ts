// The access tokens of the request runner: one taken for each attempt after its wait for a slot
// (a long queue never sends an expired token), one shared renewal after a 401, and the last few
// tokens sent, which everything the client says is redacted of.
import { isServiceError, serviceError } from "./errors.js";
import type { RequestSpec } from "./requestSpec.js";
import type { GetAccessToken } from "./types.js";

export class RequestTokens {
  /** Tokens sent so far (the last few). */
  readonly sent: string[] = [];
  private refreshing: Promise<string> | undefined;
  private lastRefresh: { from: string | undefined; token: Promise<string> } | undefined;

  constructor(private readonly getAccessToken: GetAccessToken) {}

  /** The token an attempt sends: the renewed one after a 401, one being renewed, or the current one. */
  async take(after401: Promise<string> | undefined, spec: RequestSpec): Promise<string> {
    let token: string;
    try {
      token = await (after401 ?? this.refreshing ?? this.getAccessToken());
    } catch (caught) {
      if (isServiceError(caught)) throw caught;
      throw serviceError("unauthorized", {
        message: `Could not get an access token for ${spec.operation}`,
        operation: spec.operation,
        cause: caught,
        secrets: this.sent,
      });
    }
    if (spec.signal?.aborted) throw serviceError("cancelled", { message: `${spec.operation} was cancelled`, operation: spec.operation });
    if (!this.sent.includes(token)) {
      this.sent.push(token);
      if (this.sent.length > 4) this.sent.shift();
    }
    return token;
  }

  /**
   * The refreshed token after a 401 with token `from`. The refresh starts at once, so requests
   * still queued wait for it instead of going out with the refused token; requests refused with
   * the same token share one refresh and its result (refresh tokens rotate, so parallel
   * refreshes would invalidate each other). A failed refresh is forgotten, so a later 401 tries again.
   */
  refreshed(from: string | undefined): Promise<string> {
    if (this.lastRefresh && this.lastRefresh.from === from) return this.lastRefresh.token;
    const token = this.getAccessToken({ forceRefresh: true });
    const entry = { from, token };
    this.lastRefresh = entry;
    this.refreshing = token;
    const settle = (failed: boolean) => {
      if (this.refreshing === token) this.refreshing = undefined;
      if (failed && this.lastRefresh === entry) this.lastRefresh = undefined;
    };
    token.then(
      () => settle(false),
      () => settle(true), // the request that asked reports the failure when it awaits the same promise
    );
    return token;
  }
}
