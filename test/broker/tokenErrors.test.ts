// The token endpoint's error text never passes through the broker: its answer is the RFC 6749
// error code with the broker's own sentence, so no encoding of the client secret the upstream
// might write back (hex with separators, shifted or split base64, the Basic header encoded
// twice, percent-encoding, HTML entities, upper case, spaced, reversed, split across fields)
// reaches the browser or the log.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BASIC, brokerFor, exchangeBody, FORM, logSink } from "./helpers.js";
import { CLIENT_ID, CLIENT_SECRET, type FakeUpstream } from "./upstream.js";

const NOWHERE = { url: "http://127.0.0.1:9" } as FakeUpstream;
const hex = Buffer.from(CLIENT_SECRET).toString("hex");
const b64 = (text: string) => Buffer.from(text).toString("base64");
const half = Math.floor(CLIENT_SECRET.length / 2);

/** The secret as a hostile or careless token endpoint might write it back. */
const ENCODINGS: Record<string, string> = {
  "hex with spaces": hex.replace(/(..)(?!$)/g, "$1 "),
  "hex with colons": hex.replace(/(..)(?!$)/g, "$1:"),
  "upper-case hex": hex.toUpperCase(),
  "base64 shifted by one byte": b64(`x${CLIENT_SECRET}`),
  "base64 shifted by two bytes": b64(`xy${CLIENT_SECRET}`),
  "base64 of the Basic header": b64(`Basic ${BASIC}`),
  "the Basic credentials decoded and encoded again": b64(b64(`${CLIENT_ID}:${CLIENT_SECRET}`)),
  "percent-encoded": [...CLIENT_SECRET].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, "0")}`).join(""),
  "HTML entities": [...CLIENT_SECRET].map((c) => `&#${c.charCodeAt(0)};`).join(""),
  "upper case": CLIENT_SECRET.toUpperCase(),
  spaced: [...CLIENT_SECRET].join(" "),
  reversed: [...CLIENT_SECRET].reverse().join(""),
};

function upstreamAnswering(status: number, doc: unknown, headers: Record<string, string> = {}) {
  return (async () => new Response(JSON.stringify(doc), { status, headers: { "content-type": "application/json", ...headers } })) as unknown as typeof fetch;
}

async function exchange(fetchUpstream: typeof fetch) {
  const log = logSink();
  const app = await brokerFor(NOWHERE, {}, { fetch: fetchUpstream, log: { level: "trace", stream: log.stream } });
  const res = await app.inject({ method: "POST", url: "/token", headers: FORM, payload: exchangeBody() });
  await app.close();
  return { res, log: log.text() };
}

describe("token endpoint errors", () => {
  for (const [what, form] of Object.entries(ENCODINGS)) {
    it(`passes on neither the description nor the error_uri of the upstream (the secret ${what})`, async () => {
      const doc = { error: "invalid_client", error_description: `bad client ${form}`, error_uri: `https://service.example/errors?c=${form}` };
      const { res, log } = await exchange(upstreamAnswering(401, doc, { "www-authenticate": `Basic realm="${form}"` }));
      assert.equal(res.statusCode, 401);
      const body = res.json() as Record<string, string>;
      assert.deepEqual(Object.keys(body).sort(), ["error", "error_description"]);
      assert.equal(body.error, "invalid_client");
      assert.match(body.error_description!, /administrator/);
      assert.equal(res.headers["www-authenticate"], 'Basic realm="token"', "the broker's own challenge");
      for (const text of [res.body, JSON.stringify(res.headers), log]) {
        assert.ok(!text.includes(form), `${what} must not leave the broker`);
        assert.ok(!text.includes("bad client") && !text.includes("service.example/errors"), "nothing of the upstream's text");
      }
    });
  }

  it("does not pass on a secret split across error_description and error_uri", async () => {
    const doc = { error: "invalid_grant", error_description: CLIENT_SECRET.slice(0, half), error_uri: `https://x.example/${CLIENT_SECRET.slice(half)}` };
    const { res, log } = await exchange(upstreamAnswering(400, doc));
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.json(), { error: "invalid_grant", error_description: "Your sign-in has expired or was already used. Sign in again." });
    for (const text of [res.body, log]) assert.ok(!text.includes(CLIENT_SECRET.slice(0, half)) && !text.includes(CLIENT_SECRET.slice(half)));
  });

  it("answers 502 when the error code is not one of RFC 6749's (a secret in the code itself included)", async () => {
    for (const error of [CLIENT_SECRET, `invalid_grant ${CLIENT_SECRET}`, "server_error", "toString"]) {
      const { res, log } = await exchange(upstreamAnswering(400, { error }));
      assert.equal(res.statusCode, 502, error);
      assert.equal(res.json().error, "temporarily_unavailable");
      assert.ok(!res.body.includes(CLIENT_SECRET) && !log.includes(CLIENT_SECRET));
    }
  });
});
