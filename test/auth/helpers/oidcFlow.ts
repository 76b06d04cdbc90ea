// Drives the sandbox's authorization-code flow with PKCE over real HTTP, the way a browser
// would (following redirects by hand, keeping cookies), for tests of the sign-in server.
import { createHash, randomBytes } from "node:crypto";

export interface FlowOptions {
  /** Sandbox base URL, e.g. http://127.0.0.1:PORT */
  baseUrl: string;
  email: string;
  password: string;
  /** An add-in origin the sandbox allows (corsOrigins). */
  origin: string;
  scope?: string;
  prompt?: string;
  clientId?: string;
  /** Send no code_challenge (to check PKCE is required). */
  omitPkce?: boolean;
  /** Press Deny on the consent page. */
  deny?: boolean;
}

export interface TokenResponse {
  access_token: string;
  refresh_token?: string;
  id_token?: string;
  expires_in: number;
  scope: string;
  token_type: string;
}

export class CookieJar {
  private readonly cookies = new Map<string, string>();
  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  return { verifier, challenge };
}

export interface AuthorizeOutcome {
  /** The add-in page the browser finally lands on, with code or error in the query. */
  landing: URL;
  verifier: string;
  redirectUri: string;
  /** HTML pages seen on the way (login, consent). */
  pages: string[];
}

async function get(url: string, jar: CookieJar): Promise<Response> {
  const response = await fetch(url, { redirect: "manual", headers: { cookie: jar.header() } });
  jar.store(response);
  return response;
}

async function postForm(url: string, jar: CookieJar, form: Record<string, string>): Promise<Response> {
  const response = await fetch(url, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString(),
  });
  jar.store(response);
  return response;
}

function formAction(html: string, contains: string): string {
  const actions = [...html.matchAll(/<form method="post" action="([^"]+)"/g)].map((m) => m[1]!.replace(/&#38;/g, "&"));
  const action = actions.find((a) => a.includes(contains));
  if (!action) throw new Error(`no form posting to *${contains}* on the page:\n${html.slice(0, 500)}`);
  return action;
}

/** Runs /auth through login and consent until the redirect to the add-in page. */
export async function authorize(options: FlowOptions, jar = new CookieJar()): Promise<AuthorizeOutcome> {
  const { verifier, challenge } = pkcePair();
  const redirectUri = `${options.origin}/redirect.html`;
  const params = new URLSearchParams({
    client_id: options.clientId ?? "excel-addin",
    redirect_uri: redirectUri,
    response_type: "code",
    scope: options.scope ?? "openid profile offline_access api:data:company api:data:contact api:data:lookup",
    state: randomBytes(8).toString("hex"),
    prompt: options.prompt ?? "consent",
  });
  if (!options.omitPkce) {
    params.set("code_challenge", challenge);
    params.set("code_challenge_method", "S256");
  }
  const pages: string[] = [];
  let response = await get(`${options.baseUrl}/oauth/auth?${params}`, jar);
  for (let step = 0; step < 12; step++) {
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      const next = new URL(location, options.baseUrl);
      if (next.origin === new URL(options.origin).origin) return { landing: next, verifier, redirectUri, pages };
      response = await get(next.href, jar);
      continue;
    }
    const html = await response.text();
    pages.push(html);
    if (response.status !== 200) throw new Error(`unexpected ${response.status}: ${html.slice(0, 300)}`);
    if (html.includes('name="password"')) {
      response = await postForm(new URL(formAction(html, "/login"), options.baseUrl).href, jar, {
        email: options.email,
        password: options.password,
      });
      if (response.status === 401) {
        const page = await response.text();
        pages.push(page);
        throw new Error("login refused");
      }
    } else if (html.includes("Allow access")) {
      const action = options.deny ? formAction(html, "/abort") : formAction(html, "/confirm");
      response = await postForm(new URL(action, options.baseUrl).href, jar, {});
    } else {
      throw new Error(`unexpected page: ${html.slice(0, 300)}`);
    }
  }
  throw new Error("too many redirects");
}

export async function tokenRequest(baseUrl: string, origin: string, form: Record<string, string>): Promise<Response> {
  return fetch(`${baseUrl}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin },
    body: new URLSearchParams(form).toString(),
  });
}

/** The whole flow: sign in and redeem the code. */
export async function signIn(options: FlowOptions): Promise<TokenResponse> {
  const outcome = await authorize(options);
  const code = outcome.landing.searchParams.get("code");
  if (!code) throw new Error(`no code: ${outcome.landing.search}`);
  const response = await tokenRequest(options.baseUrl, options.origin, {
    grant_type: "authorization_code",
    client_id: options.clientId ?? "excel-addin",
    code,
    redirect_uri: outcome.redirectUri,
    code_verifier: outcome.verifier,
  });
  if (response.status !== 200) throw new Error(`token endpoint answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as TokenResponse;
}

export async function refresh(baseUrl: string, origin: string, refreshToken: string): Promise<Response> {
  return tokenRequest(baseUrl, origin, { grant_type: "refresh_token", client_id: "excel-addin", refresh_token: refreshToken });
}
