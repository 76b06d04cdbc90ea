// A stand-in for the service's token endpoint and API over real HTTP: it records what it
// received and answers like the service (401 invalid_client for wrong credentials).
import { createServer, type IncomingMessage, type Server } from "node:http";

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export interface FakeUpstream {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

export const CLIENT_ID = "app-client";
export const CLIENT_SECRET = "s3cret-value-Zq9";

export async function startFakeUpstream(): Promise<FakeUpstream> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
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
          "x-internal": "not-relayed",
        });
        res.end(JSON.stringify({ errors: [{ status: "429", code: "PFAPI0005", detail: "rate limited" }] }));
        return;
      }
      if (req.url?.startsWith("/gtm/studio/v1/audiences")) {
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
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
