// A token must not reach a person through an error: not through its message, its error
// objects, its field issues (the search form shows them beside the fields), its JSON or its
// stack, in any encoding the transport uses.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ServiceError, errorFromResponse, redactText, serviceError } from "../../../src/core/api/index.js";
import { BASE, harness, rejection } from "./harness.js";
import { answer } from "./scripted.js";

/** A JWT as the sign-in server issues them (header, payload, signature). */
const JWT = "eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIn0.eyJzdWIiOiJhbmFseXN0IiwiYXVkIjoiYml6ZGF0YS1hcGkifQ.Qm9ndXNTaWduYXR1cmUtb2YtdGhlLXRva2VuX3gtLXk";
/** An opaque token with the characters URL encodings change (+ / =). */
const OPAQUE = "Zm9vYmFy+c2VjcmV0/dG9rZW4=";
const PAYLOAD = JWT.split(".")[1]!;
const SIGNATURE = JWT.split(".")[2]!;

/** Every form of a token a check must not find. */
const leaks = (token: string) =>
  [token, encodeURIComponent(token), new URLSearchParams({ t: token }).toString().slice(2), ...token.split(".").slice(1)].filter((s) => s.length >= 16);

/** Everything of an error a person can be shown. */
function everything(e: ServiceError): string {
  return [
    e.message,
    e.userMessage,
    JSON.stringify(e.toJSON()),
    JSON.stringify(e.errors),
    JSON.stringify(e.issues),
    String(e.stack),
    String(e.requestId),
    String((e as { cause?: unknown }).cause),
  ].join("\n");
}

function assertClean(text: string, tokens: string[]) {
  for (const token of tokens) for (const form of leaks(token)) assert.ok(!text.includes(form), `found ${form} in:\n${text}`);
}

/** A 400 whose error object quotes `detail` at a field, read the way the client reads answers. */
function validationAnswer(detail: string, secrets: string[] = [], requestId = "req-1") {
  return errorFromResponse({
    status: 400,
    headers: { get: () => null },
    body: JSON.stringify({
      errors: [{ id: "e1", code: "INVALID_PARAMETER", status: "400", title: detail, detail, requestId, source: { pointer: "/companyName" } }],
    }),
    operation: "POST /data/v1/companies/search",
    secrets,
    now: 0,
  });
}

describe("redaction of errors", () => {
  it("field issues carry no token (the form shows them beside the fields)", () => {
    const e = validationAnswer(`companyName must not be ${JWT}`);
    assert.equal(e.issues.length, 1);
    assert.equal(e.issues[0]!.pointer, "/companyName", "the issue still points at its field");
    assert.match(e.issues[0]!.message, /companyName must not be \[redacted\]/);
    assertClean(everything(e), [JWT]);
  });

  it("a token the caller knows is redacted raw, percent-encoded and form-encoded, in issues too", () => {
    for (const quoted of [
      OPAQUE,
      encodeURIComponent(OPAQUE),
      new URLSearchParams({ t: OPAQUE }).toString().slice(2),
      encodeURIComponent(OPAQUE).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
    ]) {
      const e = validationAnswer(`could not read ${quoted} here`, [OPAQUE], `id ${quoted}`);
      assertClean(everything(e), [OPAQUE]);
      assert.match(e.issues[0]!.message, /could not read \[redacted\] here/);
    }
  });

  it("a JWT is redacted after a percent escape, inside an encoded URL, and its payload or signature alone", () => {
    const inUrl = `https://app.example/cb?state=1&authorization=${encodeURIComponent(`Bearer ${JWT}`)}`;
    const inNestedUrl = `https://app.example/?next=${encodeURIComponent(inUrl)}`;
    const whole = [
      `bad value %22${JWT}%22`,
      inUrl,
      inNestedUrl,
      `form body grant_type=x&assertion=${new URLSearchParams({ a: `Bearer ${JWT}` }).toString().slice(2)}`,
      `access_token%3D${JWT.replace(/\./g, "%2E")}`,
    ];
    for (const text of whole) {
      assertClean(everything(validationAnswer(text, [JWT])), [JWT]);
      // Without knowing the token, its JWT shape is enough.
      assertClean(everything(validationAnswer(text)), [JWT]);
    }
    for (const text of [`signature ${SIGNATURE} does not verify`, `claims ${PAYLOAD} unknown`]) {
      assertClean(everything(validationAnswer(text, [JWT])), [JWT]);
    }
  });

  it("an Authorization value or token member survives in no encoding, even an opaque token not known", () => {
    const cases = [
      `Authorization: Bearer ${OPAQUE}`,
      `authorization%3A%20Bearer%20${encodeURIComponent(OPAQUE)}`,
      `{"access_token":"${OPAQUE}"}`,
      encodeURIComponent(`{"access_token":"${OPAQUE}"}`),
      `refresh_token=${encodeURIComponent(OPAQUE)}&scope=x`,
      `Bearer+${encodeURIComponent(OPAQUE)}`,
    ];
    for (const text of cases) assertClean(redactText(text), [OPAQUE]);
  });

  it("a token base64- or base64url-encoded inside a larger blob is redacted at every byte alignment", () => {
    for (const token of [JWT, OPAQUE]) {
      for (const prefix of ["", "a", "ab", "user:", "Bearer "]) {
        for (const suffix of ["", "x", ":yz"]) {
          const base64 = Buffer.from(`${prefix}${token}${suffix}`).toString("base64");
          const base64url = Buffer.from(`${prefix}${token}${suffix}`).toString("base64url");
          const text = `upstream said state=${base64} and echo ${base64url} in its answer`;
          const out = redactText(text, [token]);
          const stillDecodes = [base64, base64url].some((blob) => out.includes(blob));
          assert.ok(!stillDecodes, `${prefix}|${suffix}: ${out}`);
          // Whatever is left decodes to no piece of the token longer than a few characters.
          for (const piece of out.split(/[^A-Za-z0-9+/_=-]+/)) {
            const decoded = Buffer.from(piece, piece.includes("-") || piece.includes("_") ? "base64url" : "base64").toString("latin1");
            assert.ok(!decoded.includes(token.slice(4, 16)), `${prefix}|${suffix}: ${piece} still holds the token`);
          }
        }
      }
    }
    // An encoded JWT nobody named (an upstream echoing a header) goes too.
    assert.doesNotMatch(redactText(`x-echo: ${Buffer.from(JWT).toString("base64")}`), /ZXlK/);
  });

  it("a token in base64 wrapped at 76 characters, in hex, or written as JSON \\u escapes is redacted", () => {
    for (const token of [JWT, OPAQUE]) {
      for (const prefix of ["", "a", "ab", "Authorization: Bearer "]) {
        const base64 = Buffer.from(`${prefix}${token}`).toString("base64");
        const lines = base64.match(/.{1,76}/g)!;
        for (const wrapped of [lines.join("\r\n"), lines.join("\n"), lines.join("\\r\\n"), lines.join("\\n")]) {
          const out = redactText(`echo: ${wrapped} end`, [token]);
          const left = out.replace(/\r?\n|\\r\\n|\\n/g, "");
          assert.ok(!left.includes(lines[0]!.slice(8, 40)) || !left.includes(lines[1]!.slice(0, 30)), `wrapped (${prefix}): ${out}`);
          const decoded = Buffer.from(left.replace(/[^A-Za-z0-9+/=]/g, ""), "base64").toString("latin1");
          assert.ok(!decoded.includes(token.slice(4, 20)), `wrapped (${prefix}) still decodes to the token: ${out}`);
        }
      }
      for (const hex of [Buffer.from(token).toString("hex"), Buffer.from(token).toString("hex").toUpperCase(), Buffer.from(`x${token}`).toString("hex")]) {
        const out = redactText(`state=${hex}`, [token]);
        assert.ok(
          !out.includes(Buffer.from(token.slice(4, 20)).toString("hex")) && !out.toLowerCase().includes(Buffer.from(token.slice(4, 20)).toString("hex")),
          `hex: ${out}`,
        );
      }
      for (const upper of [false, true]) {
        const escaped = [...token].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
        const json = `{"echo":"${upper ? escaped.replace(/[a-f]/g, (m) => m.toUpperCase()).replace(/\\U/g, "\\u") : escaped}"}`;
        const out = redactText(json, [token]);
        assert.ok(
          !JSON.stringify(JSON.parse(out.replace(/\[redacted\]/g, "R"))).includes(token.slice(4, 20)) && !out.includes(escaped.slice(36, 120)),
          `\\u escapes: ${out}`,
        );
      }
    }
    // An all-escaped JWT nobody named goes too.
    const escapedJwt = [...JWT].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
    assert.ok(!redactText(`{"authz":"${escapedJwt}"}`).includes(escapedJwt.slice(0, 60)));
  });

  it("ordinary text and ordinary URLs pass unchanged", () => {
    for (const text of [
      "Page size must be between 1 and 100.",
      "https://example.com/search?q=caf%C3%A9&page%5Bnumber%5D=2",
      "Revenue 10%20 of 50",
      "The token endpoint answered 400 (invalid_grant).",
      "Line one\nline two\r\nline three",
      'JSON with an escape: "caf\\u00e9 \\u2014 ok"',
      "deadbeef00112233",
    ]) {
      assert.equal(redactText(text), text);
    }
  });

  it("errors the client throws hide the token it sent, in the issues too", async () => {
    const h = harness(
      (r) => {
        const sent = /^Bearer (.+)$/.exec(r.headers.authorization ?? "")?.[1] ?? "";
        const detail = `Unexpected parameter at ${BASE}/cb?t=${encodeURIComponent(sent)} (${sent})`;
        return answer(400, { errors: [{ id: "e1", code: "INVALID_PARAMETER", status: "400", detail, source: { pointer: "/companyName" } }] });
      },
      { getAccessToken: async () => OPAQUE },
    );
    const error = await h.clock.run(rejection(h.client.searchCompanies({ companyName: "Acme" })));
    assert.ok(error instanceof ServiceError && error.kind === "validation", String(error));
    assert.equal(error.issues.length, 1);
    assertClean(everything(error), [OPAQUE]);
    assertClean(JSON.stringify(h.logs), [OPAQUE]);
  });

  it("issues handed to the factory are redacted as well", () => {
    const e = serviceError("validation", {
      issues: [{ label: "Company name", rule: "x", code: "x", message: `see ${encodeURIComponent(OPAQUE)}`, pointer: "/companyName" }],
      secrets: [OPAQUE],
    });
    assertClean(everything(e), [OPAQUE]);
  });
});
