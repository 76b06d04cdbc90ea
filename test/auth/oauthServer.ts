// A small OAuth 2.0 authorization server for the explicit-endpoint flow's tests, shaped like
// production behind its broker: code flow with PKCE S256 and state, no id token in the token
// answer, refresh tokens that rotate and work once, and no discovery document.
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface OAuthServer {
  url: string;
  authorizeUrl: string;
  tokenUrl: string;
  /** The query of every authorize request, in order. */
  authorizeRequests: URLSearchParams[];
  /** The form of every token request, in order. */
  tokenRequests: URLSearchParams[];
  /** What the next authorize answers: a code, or an error. */
  nextAuthorize: { error: string; description?: string } | null;
  close(): Promise<void>;
}

const b64url = (buffer: Buffer) => buffer.toString("base64url");

async function readBody(req: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of req) text += String(chunk);
  return text;
}

export async function startOAuthServer(user = { email: "ada@example.com", name: "Ada Lovelace" }): Promise<OAuthServer> {
  const codes = new Map<string, { challenge: string; redirectUri: string; clientId: string }>();
  const refreshTokens = new Set<string>();
  let issued = 0;
  const accessToken = () => {
    issued += 1;
    const header = b64url(Buffer.from(JSON.stringify({ alg: "none", typ: "at+jwt" })));
    const payload = b64url(Buffer.from(JSON.stringify({ ...user, sub: "user-1", n: issued })));
    return `${header}.${payload}.`;
  };
  const state: Omit<OAuthServer, "url" | "authorizeUrl" | "tokenUrl" | "close"> = { authorizeRequests: [], tokenRequests: [], nextAuthorize: null };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
      res.end(JSON.stringify(body));
    };
    if (req.method === "GET" && url.pathname === "/gtm/oauth/v1/authorize") {
      state.authorizeRequests.push(url.searchParams);
      const q = url.searchParams;
      const back = new URL(q.get("redirect_uri") ?? "");
      back.searchParams.set("state", q.get("state") ?? "");
      if (state.nextAuthorize) {
        back.searchParams.set("error", state.nextAuthorize.error);
        if (state.nextAuthorize.description) back.searchParams.set("error_description", state.nextAuthorize.description);
        state.nextAuthorize = null;
      } else if (q.get("code_challenge_method") !== "S256" || !q.get("code_challenge") || !q.get("state")) {
        back.searchParams.set("error", "invalid_request");
      } else {
        const code = b64url(randomBytes(16));
        codes.set(code, { challenge: q.get("code_challenge") ?? "", redirectUri: q.get("redirect_uri") ?? "", clientId: q.get("client_id") ?? "" });
        back.searchParams.set("code", code);
      }
      res.writeHead(302, { location: back.href });
      res.end();
      return;
    }
    if (req.method === "POST" && url.pathname === "/token") {
      void readBody(req).then((text) => {
        const form = new URLSearchParams(text);
        state.tokenRequests.push(form);
        const grant = form.get("grant_type");
        const tokens = () => {
          const refresh = b64url(randomBytes(16));
          refreshTokens.add(refresh);
          // No id_token: this server is OAuth 2.0 only, as production is.
          return { access_token: accessToken(), token_type: "Bearer", expires_in: 3600, refresh_token: refresh };
        };
        if (grant === "authorization_code") {
          const entry = codes.get(form.get("code") ?? "");
          codes.delete(form.get("code") ?? "");
          const verifier = form.get("code_verifier") ?? "";
          const ok =
            entry &&
            entry.redirectUri === form.get("redirect_uri") &&
            entry.clientId === form.get("client_id") &&
            b64url(createHash("sha256").update(verifier).digest()) === entry.challenge;
          json(ok ? 200 : 400, ok ? tokens() : { error: "invalid_grant" });
          return;
        }
        if (grant === "refresh_token") {
          const presented = form.get("refresh_token") ?? "";
          // Single use: a second refresh with the same token fails.
          const ok = refreshTokens.delete(presented);
          json(ok ? 200 : 400, ok ? tokens() : { error: "invalid_grant" });
          return;
        }
        json(400, { error: "unsupported_grant_type" });
      });
      return;
    }
    json(404, { error: { code: "ZI9998" } });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    ...state,
    get authorizeRequests() {
      return state.authorizeRequests;
    },
    get tokenRequests() {
      return state.tokenRequests;
    },
    get nextAuthorize() {
      return state.nextAuthorize;
    },
    set nextAuthorize(value) {
      state.nextAuthorize = value;
    },
    url: base,
    authorizeUrl: `${base}/gtm/oauth/v1/authorize`,
    tokenUrl: `${base}/token`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
