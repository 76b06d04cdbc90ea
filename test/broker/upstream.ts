// A stand-in for the service's token endpoint and API over real HTTP: it records what it
// received and answers like the service (401 invalid_client for wrong credentials), or like a
// broken or hostile one on the paths named below.
import { EventEmitter } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export interface FakeUpstream {
  url: string;
  received: Received[];
  /** Resolves with the next request the upstream receives (whatever it then answers). */
  nextRequest(): Promise<Received>;
  /** Resolves once a stalling answer has sent its first part. */
  stalled(): Promise<void>;
  close(): Promise<void>;
}

export const CLIENT_ID = "app-client";
export const CLIENT_SECRET = "s3cret-value-Zq9";

/** Bytes of the oversized answers (well above any cap the tests configure). */
export const HUGE_ANSWER_BYTES = 2 * 1024 * 1024;

/**
 * Answers of a broken or hostile upstream: token endpoints by path (/bad/NAME), relayed
 * operations by the token they carry (Bearer bad-NAME), since the relay forwards only the
 * add-in's operations.
 */
function misbehave(path: string, req: IncomingMessage, res: ServerResponse, events: EventEmitter): boolean {
  const relayed = path.startsWith("/gtm/") ? /^Bearer bad-(\w+)$/.exec(req.headers.authorization ?? "") : null;
  const name = relayed ? `/bad/${relayed[1]}` : path;
  switch (name) {
    case "/bad/echo":
      // Echoes what it received, Authorization included, beside the OAuth error fields.
      res.writeHead(400, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          error: "invalid_grant",
          error_description: "the code has expired",
          received_authorization: req.headers.authorization,
          debug: { headers: req.headers },
        }),
      );
      return true;
    case "/bad/echo-ok":
      // A token answer that also echoes what it received, Authorization included.
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          access_token: "AT-upstream-issued",
          token_type: "Bearer",
          expires_in: 900,
          refresh_token: "RT-upstream-issued",
          scope: "api:data:company",
          received_authorization: req.headers.authorization,
          debug: { headers: req.headers },
          expires_at: { note: `for ${req.headers.authorization}` },
        }),
      );
      return true;
    case "/bad/echo-in-description":
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: "invalid_client", error_description: `bad credentials: ${req.headers.authorization}` }));
      return true;
    case "/bad/html":
      res.writeHead(502, { "content-type": "text/html" });
      res.end(`<html><body>gateway error for ${req.headers.authorization}</body></html>`);
      return true;
    case "/bad/huge":
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ access_token: "x".repeat(HUGE_ANSWER_BYTES) }));
      return true;
    case "/bad/stall":
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"access_token":"AT-par', () => events.emit("stalled"));
      return true;
    case "/bad/silent":
      return true;
    default:
      return false;
  }
}

export async function startFakeUpstream(): Promise<FakeUpstream> {
  const received: Received[] = [];
  const busyOnceServed = new Set<string>();
  const events = new EventEmitter();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const entry = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body };
      received.push(entry);
      events.emit("received", entry);
      const path = (req.url ?? "").split("?")[0] ?? "";
      if (misbehave(path, req, res, events)) return;
      const busyOnce = /^Bearer (busy-once-\S+)$/.exec(req.headers.authorization ?? "")?.[1];
      if (busyOnce !== undefined && !busyOnceServed.has(busyOnce)) {
        // The per-second bucket full once per token (traffic the relay did not see), then fine.
        busyOnceServed.add(busyOnce);
        res.writeHead(429, { "content-type": "application/json", "retry-after": "0", "x-ratelimit-rejected-bucket": "second" });
        res.end(JSON.stringify({ error: { code: "ZI0004", message: "rate limited", status: "429" } }));
        return;
      }
      if (req.url === "/oauth/token") {
        const expected = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64")}`;
        if (req.headers.authorization !== expected) {
          res.writeHead(401, { "content-type": "application/json; charset=utf-8", "www-authenticate": 'Basic realm="token"' });
          res.end(JSON.stringify({ error: "invalid_client", error_description: "client authentication failed" }));
          return;
        }
        res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
        res.end(JSON.stringify({ access_token: "AT-upstream-issued", refresh_token: "RT-upstream-issued", token_type: "Bearer", expires_in: 900 }));
        return;
      }
      if (req.url?.startsWith("/gtm/data/v1/companies/search")) {
        res.writeHead(429, {
          "content-type": "application/vnd.api+json",
          "retry-after": "7",
          "x-ratelimit-remaining-second": "0",
          "x-ratelimit-limit-second": "25",
          "x-ratelimit-rejected-bucket": "hour",
          "x-internal": "not-relayed",
        });
        res.end(JSON.stringify({ errors: [{ status: "429", code: "PFAPI0005", detail: "rate limited" }] }));
        return;
      }
      if (req.url?.startsWith("/gtm/studio/v1/audiences") || req.url?.startsWith("/gtm/data/v1/users/usage")) {
        res.writeHead(200, { "content-type": "application/json", "x-ratelimit-remaining-second": "24" });
        res.end(JSON.stringify({ data: [], meta: { page: { size: 25, number: 1 }, total: 0 }, echo: { method: req.method, body } }));
        return;
      }
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { code: "ZI9998", message: "not found", status: "404" } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    nextRequest: () => new Promise((resolve) => events.once("received", resolve)),
    stalled: () => new Promise((resolve) => events.once("stalled", () => resolve())),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
