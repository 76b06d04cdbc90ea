// The Office sign-in dialog page (dialog.html) in headless Chromium, with office.js replaced by a
// stub whose messageParent hands the message to the test (what Office would give the task
// pane). The page runs the real redirect flow against the sandbox's authorization server.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { decodeJwt } from "jose";
import type { BrowserContext, Page } from "playwright-core";
import { dialogUrl } from "../../src/auth/index.js";
import { parseDialogMessage, type DialogResult } from "../../src/auth/dialogProtocol.js";
import { DATA_SCOPES } from "../../src/core/settings/environment.js";
import { BROWSER_SKIP, dialogOfficeStub, launchChromium, axeSource, useHttpsE2E, type AxeViolation, type HttpsE2E } from "./helpers.js";

/**
 * axe's serious and critical findings. The sandbox's pages forbid scripts (CSP), so axe is
 * evaluated through the debugging protocol instead of a script tag.
 */
async function seriousAccessibilityViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource());
  const { violations, passes } = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(ctx: unknown): Promise<{ violations: AxeViolation[]; passes: unknown[] }> } }).axe;
    const result = await axe.run(document);
    return {
      passes: result.passes.length,
      violations: result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) })),
    };
  });
  if (passes === 0) throw new Error("axe checked nothing on the page");
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

const OFFICE_STUB = dialogOfficeStub("(message) => window.__messageParent(message)");

/** The pages, the sandbox on HTTPS and Chromium: set up by the describe block below. */
let e2e: HttpsE2E;

function signInSettings() {
  return { authority: `${e2e.sandbox.url}/oauth`, clientId: "excel-addin", scopes: DATA_SCOPES };
}

/** Opens dialog.html like displayDialogAsync would, plays the user, returns what reached messageParent. */
async function runDialog(
  context: BrowserContext,
  mode: "signin" | "renew",
  user?: { email: string; password: string; deny?: boolean },
  /** Collects axe's serious violations of the login and consent pages. */
  accessibility?: AxeViolation[],
): Promise<{ result: DialogResult; raw: string; storage: string[] }> {
  const page = await context.newPage();
  let resolveMessage!: (m: string) => void;
  const message = new Promise<string>((resolve) => (resolveMessage = resolve));
  await page.exposeFunction("__messageParent", (m: string) => resolveMessage(m));
  await page.route("**/assets/office-js/office.js", (route) => route.fulfill({ contentType: "text/javascript", body: OFFICE_STUB }));
  await page.goto(dialogUrl(e2e.pages.origin, signInSettings(), mode));
  if (user) {
    await page.locator("#email").waitFor({ timeout: 30_000 });
    if (accessibility) accessibility.push(...(await seriousAccessibilityViolations(page)));
    await page.locator("#email").fill(user.email);
    await page.locator("#password").fill(user.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    const consent = page.getByRole("heading", { name: "Allow access" });
    await consent.waitFor({ timeout: 30_000 });
    if (accessibility) accessibility.push(...(await seriousAccessibilityViolations(page)));
    await page.getByRole("button", { name: user.deny ? "Deny" : "Allow" }).click();
  }
  const raw = await message;
  await page.waitForLoadState();
  const storage = await page.evaluate(() => Object.entries(sessionStorage).map(([k, v]) => `${k}=${v}`));
  await page.close();
  return { result: parseDialogMessage(raw), raw, storage };
}

describe("Office sign-in dialog page (headless Chromium, office.js stubbed)", { skip: BROWSER_SKIP }, () => {
  e2e = useHttpsE2E({ companies: 200, contacts: 200 });

  test("signin: login and consent in the dialog, the access token comes back through messageParent", async () => {
    const violations: AxeViolation[] = [];
    const { result, storage } = await runDialog(e2e.chromium.context, "signin", { email: "analyst@example.com", password: "analyst-pass" }, violations);
    assert.deepEqual(violations, [], "the login and consent pages have no serious accessibility problems");
    assert.equal(result.type, "signedIn");
    if (result.type !== "signedIn") return;
    assert.deepEqual(result.account, { name: "Avery Analyst", username: "analyst@example.com" });
    assert.ok(result.expiresAt > Date.now());
    const claims = decodeJwt(result.accessToken);
    assert.equal(claims.iss, `${e2e.sandbox.url}/oauth`);
    assert.match(String(claims.scope), /api:data:company/);
    // The dialog keeps nothing: no token left in its storage (and no refresh token was asked for).
    assert.ok(!storage.some((entry) => entry.includes(result.accessToken)));
    assert.ok(!storage.some((entry) => /refreshtoken/i.test(entry)));
  });

  test("renew: with the server's session alive the dialog returns a new token without asking", async () => {
    const { result } = await runDialog(e2e.chromium.context, "renew");
    assert.equal(result.type, "signedIn");
  });

  test("renew without a session: login_required, which the task pane turns into 'sign in again'", async () => {
    const fresh = await launchChromium();
    try {
      const { result } = await runDialog(fresh.context, "renew");
      assert.deepEqual(result.type === "error" ? result.code : result.type, "login_required");
    } finally {
      await fresh.close();
    }
  });

  test("Deny on the consent page comes back as access_denied", async () => {
    const fresh = await launchChromium();
    try {
      const { result, raw } = await runDialog(fresh.context, "signin", { email: "analyst@example.com", password: "analyst-pass", deny: true });
      assert.equal(result.type === "error" ? result.code : result.type, "access_denied");
      assert.ok(!/eyJ/.test(raw), "no token in an error message");
    } finally {
      await fresh.close();
    }
  });
});
