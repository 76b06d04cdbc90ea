// Building a broker in front of the fake upstream, and sending it raw HTTP (paths exactly as
// written: no client library normalising dots or backslashes first).
import { request as httpRequest } from "node:http";
import { Writable } from "node:stream";
import { after, before, beforeEach } from "node:test";
import { buildBroker, type BrokerSeams } from "../../src/broker/app.js";
import type { BrokerConfigInput } from "../../src/broker/config.js";
import { AUDIENCE, ISSUER } from "./tokens.js";
import { CLIENT_ID, CLIENT_SECRET, startFakeUpstream, type FakeUpstream } from "./upstream.js";

export const ADDIN = "https://addin.example.com";
export const FORM = { "content-type": "application/x-www-form-urlencoded", origin: ADDIN };
export const CODE = "auth-code-QWERTY123";
export const VERIFIER = "pkce-verifier-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG";
export const BASIC = Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64");

export function exchangeBody(extra: Record<string, string> = {}): string {
  return new URLSearchParams({
    grant_type: "authorization_code",
    code: CODE,
    code_verifier: VERIFIER,
    redirect_uri: `${ADDIN}/redirect.html`,
    client_id: CLIENT_ID,
    ...extra,
  }).toString();
}

/**
 * A fake upstream for the enclosing suite: started before its tests (handed to `use`), closed
 * after them, and what it received cleared before each test.
 */
export function fakeUpstreamPerSuite(use: (upstream: FakeUpstream) => void): void {
  let upstream: FakeUpstream | undefined;
  before(async () => {
    upstream = await startFakeUpstream();
    use(upstream);
  });
  after(() => upstream?.close());
  beforeEach(() => {
    upstream!.received.length = 0;
  });
}

/** A broker in front of `upstream`; with a key set, it expects the test key set's issuer and audience unless told otherwise. */
export async function brokerFor(upstream: FakeUpstream, overrides: Partial<BrokerConfigInput> = {}, seams: BrokerSeams = {}) {
  const pacing = overrides.pacing?.jwksUrl ? { jwksIssuer: ISSUER, jwksAudience: AUDIENCE, ...overrides.pacing } : overrides.pacing;
  return (
    await buildBroker(
      {
        upstream: `${upstream.url}/oauth/token`,
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        allowOrigins: [ADDIN],
        relay: `${upstream.url}/gtm`,
        ...overrides,
        ...(pacing ? { pacing } : {}),
      },
      { log: false, ...seams },
    )
  ).app;
}

/** A log stream whose text the test reads afterwards. */
export function logSink(): { stream: Writable; text: () => string } {
  let log = "";
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      log += chunk.toString();
      done();
    },
  });
  return { stream, text: () => log };
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request with the path sent byte for byte as given. */
export function rawRequest(base: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<RawAnswer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}
