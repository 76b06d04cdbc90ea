import assert from "node:assert/strict";
import { test } from "node:test";
import { renderToStaticMarkup } from "react-dom/server";
import { FluentProvider, webLightTheme } from "@fluentui/react-components";
import type { AccountInfo } from "../../src/auth/index.js";
import { SignInPanel } from "../../src/taskpane/auth/SignInPanel.js";

function source(account: AccountInfo | null) {
  return {
    account: () => account,
    onChange: () => () => undefined,
    signIn: async () => account ?? { name: "", username: "" },
    signOut: async () => undefined,
  };
}

const environment = { label: "Sandbox", apiBaseUrl: "https://localhost:4010" };

const render = (account: AccountInfo | null, message?: string) =>
  renderToStaticMarkup(
    <FluentProvider theme={webLightTheme}>
      <SignInPanel tokenSource={source(account)} environment={environment} {...(message ? { message } : {})} />
    </FluentProvider>,
  );

test("signed out: the sign-in screen names the environment and offers Sign in", () => {
  const html = render(null, "Your sign-in has expired. Sign in again.");
  assert.match(html, /Sign in to <strong>Sandbox<\/strong>/);
  assert.match(html, />Sign in<\/button>/);
  assert.match(html, /Your sign-in has expired/);
  assert.doesNotMatch(html, /Sign out/);
});

test("signed in: who, against which environment, and Sign out; names are text, not HTML", () => {
  const html = render({ name: "<b>Avery</b>", username: "analyst@example.com" });
  assert.match(html, /Signed in as &lt;b&gt;Avery&lt;\/b&gt;/);
  assert.match(html, /analyst@example.com · <span id="signed-in-environment">Sandbox<\/span>/);
  assert.match(html, />Sign out<\/button>/);
});
