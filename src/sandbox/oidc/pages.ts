// The sandbox's own sign-in and consent pages: plain HTML forms, no scripts, every value escaped.
import { SCOPES } from "../../core/contract/index.js";
import { SANDBOX_USERS } from "./users.js";

function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

const SCOPE_DESCRIPTIONS: Record<string, string> = {
  openid: "Know who you are",
  profile: "See your name",
  email: "See your email address",
  offline_access: "Stay signed in (renew access without asking you again)",
  [SCOPES.company]: "Search and enrich company data",
  [SCOPES.contact]: "Search and enrich contact data",
  [SCOPES.lookup]: "Look up permitted filter values",
  [SCOPES.intent]: "Search and enrich intent data",
  [SCOPES.news]: "Search and enrich news data",
  [SCOPES.scoops]: "Search and enrich scoop data",
  [SCOPES.accountSummary]: "Research accounts and contacts (spends AI action credits)",
  [SCOPES.recommendations]: "Find similar companies and contacts, and recommended contacts",
};

const STYLE = `
  body { font-family: system-ui, "Segoe UI", sans-serif; margin: 0; background: #f5f5f5; color: #1b1b1b; }
  main { max-width: 26rem; margin: 2rem auto; background: #fff; padding: 1.5rem 2rem; border: 1px solid #d1d1d1; border-radius: 6px; }
  h1 { font-size: 1.4rem; margin-top: 0; }
  label { display: block; margin-top: 1rem; font-weight: 600; }
  input { width: 100%; box-sizing: border-box; padding: .5rem; font-size: 1rem; margin-top: .25rem; border: 1px solid #8a8886; border-radius: 4px; }
  input:focus, button:focus { outline: 3px solid #0f6cbd; outline-offset: 2px; }
  button { margin-top: 1.25rem; padding: .55rem 1.2rem; font-size: 1rem; border-radius: 4px; border: 1px solid #0f6cbd; background: #0f6cbd; color: #fff; cursor: pointer; }
  button.secondary { background: #fff; color: #0f6cbd; margin-left: .5rem; }
  .error { color: #a4262c; border-left: 4px solid #a4262c; padding-left: .5rem; }
  .hint { font-size: .9rem; color: #424242; margin-top: 1.5rem; }
  ul { padding-left: 1.2rem; }
  code { font-size: .9rem; }
`;

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

export interface LoginPageInput {
  action: string;
  abortAction: string;
  clientName: string;
  email?: string;
  error?: string;
}

export function loginPage(input: LoginPageInput): string {
  const error = input.error ? `<p class="error" role="alert" id="login-error">${escapeHtml(input.error)}</p>` : "";
  const users = SANDBOX_USERS.map(
    (u) => `<li><code>${escapeHtml(u.email)}</code> / <code>${escapeHtml(u.password)}</code>: ${escapeHtml(u.describes)}</li>`,
  ).join("\n");
  return page(
    "Sign in to the sandbox",
    `<h1>Sign in to the sandbox</h1>
<p>${escapeHtml(input.clientName)} asks you to sign in.</p>
${error}
<form method="post" action="${escapeHtml(input.action)}" novalidate>
  <label for="email">Email</label>
  <input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(input.email ?? "")}"${input.error ? ' aria-describedby="login-error"' : ""} autofocus>
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <button type="submit">Sign in</button>
</form>
<form method="post" action="${escapeHtml(input.abortAction)}">
  <button type="submit" class="secondary">Cancel</button>
</form>
<section class="hint" aria-label="Sandbox users">
  <p>Sandbox users (test data only):</p>
  <ul>${users}</ul>
</section>`,
  );
}

export interface ConsentPageInput {
  action: string;
  denyAction: string;
  clientName: string;
  userName: string;
  scopes: string[];
  /** Requested scopes the user's permissions do not include (not granted). */
  refusedScopes: string[];
}

export function consentPage(input: ConsentPageInput): string {
  const item = (s: string) => `<li>${escapeHtml(SCOPE_DESCRIPTIONS[s] ?? s)} <code>(${escapeHtml(s)})</code></li>`;
  const refused =
    input.refusedScopes.length > 0
      ? `<p>Your account does not have these permissions, so they will not be granted:</p><ul>${input.refusedScopes.map(item).join("")}</ul>`
      : "";
  return page(
    "Allow access",
    `<h1>Allow access</h1>
<p>Signed in as <strong>${escapeHtml(input.userName)}</strong>.</p>
<p>${escapeHtml(input.clientName)} would like to:</p>
<ul>${input.scopes.map(item).join("")}</ul>
${refused}
<form method="post" action="${escapeHtml(input.action)}" style="display:inline">
  <button type="submit" autofocus>Allow</button>
</form>
<form method="post" action="${escapeHtml(input.denyAction)}" style="display:inline">
  <button type="submit" class="secondary">Deny</button>
</form>`,
  );
}

export function errorPage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1><p role="alert">${escapeHtml(message)}</p>`);
}
