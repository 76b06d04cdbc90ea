// A fake MSAL client over a fake token server whose refresh tokens rotate: each works once,
// and reusing one revokes the session (as oidc-provider does). Overlapping refreshes fail.
import type { AccountInfo, AuthenticationResult } from "@azure/msal-browser";
import { InteractionRequiredAuthError } from "@azure/msal-browser";
import type { MsalClient } from "../../../src/auth/browserBackend.js";
import type { Clock } from "../../../src/core/api/types.js";

export class FakeMsal implements MsalClient {
  refreshCalls = 0;
  issued: string[] = [];
  private refreshToken: string | null = null;
  private revoked = false;
  private account: AccountInfo | null = null;
  private counter = 0;
  /** Lets a test hold a refresh open while others pile up. */
  gate: Promise<void> = Promise.resolve();
  private refreshWaiters: (() => void)[] = [];
  /** Resolves when the next refresh reaches this client (awaits the event, not time). */
  refreshStarted(): Promise<void> {
    return new Promise((resolve) => this.refreshWaiters.push(resolve));
  }
  storage = new Map<string, string>();

  constructor(
    private readonly clock: Pick<Clock, "now">,
    private readonly lifetimeMs = 60_000,
  ) {}

  async initialize(): Promise<void> {}

  active: AccountInfo | null = null;
  getActiveAccount(): AccountInfo | null {
    return this.active;
  }
  setActiveAccount(account: AccountInfo | null): void {
    this.active = account;
  }

  getAllAccounts(): AccountInfo[] {
    return this.account ? [this.account] : [];
  }

  private issue(): AuthenticationResult {
    const token = `access-token-${++this.counter}-${"x".repeat(20)}`;
    this.issued.push(token);
    this.refreshToken = `refresh-${this.counter}`;
    // What MSAL itself would keep (its own cache, which the leak test excludes).
    this.storage.set("msal.token.keys", JSON.stringify({ at: token, rt: this.refreshToken }));
    return {
      accessToken: token,
      expiresOn: new Date(this.clock.now() + this.lifetimeMs),
      account: this.account,
    } as unknown as AuthenticationResult;
  }

  async loginPopup(): Promise<AuthenticationResult> {
    this.account = { username: "analyst@example.com", name: "Avery Analyst", homeAccountId: "h", environment: "e", tenantId: "t", localAccountId: "l" };
    this.revoked = false;
    return this.issue();
  }

  async acquireTokenSilent(request: { forceRefresh?: boolean }): Promise<AuthenticationResult> {
    if (!request.forceRefresh && this.issued.length > 0) return this.issue();
    const used = this.refreshToken;
    this.refreshCalls++;
    for (const resolve of this.refreshWaiters.splice(0)) resolve();
    await this.gate;
    if (this.revoked || used === null || used !== this.refreshToken) {
      // Reuse of a rotated refresh token: the server revokes the whole grant.
      this.revoked = true;
      throw new InteractionRequiredAuthError("invalid_grant", "refresh token already used");
    }
    return this.issue();
  }

  async clearCache(): Promise<void> {
    this.account = null;
    this.active = null;
    this.refreshToken = null;
    this.storage.clear();
  }
}
