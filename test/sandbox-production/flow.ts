// Signs in to the production profile over real HTTP the way a browser does (redirects by hand,
// cookies kept), ending at the add-in's redirect page with a code.
import { randomBytes } from "node:crypto";
import { CookieJar, pkcePair } from "../auth/helpers/oidcFlow.js";

export interface ProductionSignIn {
  code: string;
  verifier: string;
  redirectUri: string;
  state: string;
}

export async function signInToProduction(
  baseUrl: string,
  options: { email: string; password: string; clientId: string; origin: string; scope?: string },
): Promise<ProductionSignIn> {
  const jar = new CookieJar();
  const { verifier, challenge } = pkcePair();
  const redirectUri = `${options.origin}/redirect.html`;
  const state = randomBytes(8).toString("hex");
  const params = new URLSearchParams({
    client_id: options.clientId,
    redirect_uri: redirectUri,
    response_type: "code",
    state,
    code_challenge: challenge,
    code_challenge_method: "S256",
  });
  if (options.scope) params.set("scope", options.scope);
  const get = async (url: string) => {
    const res = await fetch(url, { redirect: "manual", headers: { cookie: jar.header() } });
    jar.store(res);
    return res;
  };
  let res = await get(`${baseUrl}/gtm/oauth/v1/authorize?${params}`);
  for (let step = 0; step < 12; step++) {
    const location = res.headers.get("location");
    if (res.status >= 300 && res.status < 400 && location) {
      const next = new URL(location, baseUrl);
      if (next.origin === new URL(options.origin).origin) {
        const code = next.searchParams.get("code");
        if (!code) throw new Error(`no code: ${next.search}`);
        if (next.searchParams.get("state") !== state) throw new Error("state changed");
        return { code, verifier, redirectUri, state };
      }
      res = await get(next.href);
      continue;
    }
    const html = await res.text();
    if (res.status !== 200 || !html.includes('name="password"')) throw new Error(`unexpected page ${res.status}: ${html.slice(0, 400)}`);
    const action = /<form method="post" action="([^"]+\/login)"/.exec(html)?.[1]?.replace(/&#38;/g, "&");
    if (!action) throw new Error("no login form");
    res = await fetch(new URL(action, baseUrl), {
      method: "POST",
      redirect: "manual",
      headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: options.email, password: options.password }).toString(),
    });
    jar.store(res);
  }
  throw new Error("the sign-in did not reach the redirect page");
}
