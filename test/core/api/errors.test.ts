import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  ForbiddenError,
  InvalidResponseError,
  NotFoundError,
  PaymentRequiredError,
  RateLimitedError,
  ServerError,
  ServiceError,
  UnauthorizedError,
  ValidationError,
  catalogUserMessage,
  errorFromResponse,
  parseRetryAfter,
  serviceError,
} from "../../../src/core/api/index.js";
import { TOKEN, answer } from "./scripted.js";

function fromAnswer(status: number, body?: unknown, headers: Record<string, string> = {}) {
  const a = answer(status, body, headers);
  return errorFromResponse({
    status,
    headers: a.headers,
    body: body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body),
    operation: "POST /data/v1/companies/search",
    now: 0,
  });
}

const jsonApi = (status: number, code: string, detail: string, pointer?: string) => ({
  errors: [{ id: "e1", code, status: String(status), title: "Error", detail, ...(pointer ? { source: { pointer } } : {}) }],
});

describe("errorFromResponse", () => {
  const cases = [
    [400, ValidationError, "validation"],
    [401, UnauthorizedError, "unauthorized"],
    [402, PaymentRequiredError, "paymentRequired"],
    [403, ForbiddenError, "forbidden"],
    [404, NotFoundError, "notFound"],
    [429, RateLimitedError, "rateLimited"],
    [500, ServerError, "server"],
    [503, ServerError, "server"],
  ] as const;
  for (const [status, cls, kind] of cases) {
    it(`maps ${status} to ${cls.name} (${kind})`, () => {
      const e = fromAnswer(status, jsonApi(status, "X", "something"));
      assert.ok(e instanceof cls && e instanceof ServiceError, `${e.constructor.name} ${e.name} ${e.message}`);
      assert.equal(e.kind, kind);
      assert.equal(e.status, status);
      assert.ok(e.userMessage.length > 0);
    });
  }

  it("reads JSON:API error objects into issues with pointer and the filter's label", () => {
    const e = fromAnswer(400, jsonApi(400, "PFAPI0006", "Revenue from ($K) must not be greater than Revenue to ($K).", "/data/attributes/revenueMin"));
    assert.equal(e.errors[0]?.code, "PFAPI0006");
    assert.deepEqual(
      e.issues.map((i) => [i.pointer, i.label, i.code]),
      [["/data/attributes/revenueMin", "Revenue from ($K)", "PFAPI0006"]],
    );
    assert.match(e.userMessage, /Revenue from/);
  });

  it("reads the gateway {error:{...}} shape", () => {
    const e = fromAnswer(429, { error: { code: "RATE", message: "Too many", status: "429", requestId: "r-1", retryable: true } }, { "Retry-After": "7" });
    assert.equal(e.kind, "rateLimited");
    assert.deepEqual(e.errors[0], { code: "RATE", status: "429", detail: "Too many", requestId: "r-1", retryable: true });
    assert.equal(e.requestId, "r-1");
    assert.equal(e.retryAfterMs, 7000);
    assert.match(e.userMessage, /7 seconds/);
  });

  it("names the missing scope and role of a 403", () => {
    const scope = fromAnswer(403, jsonApi(403, "FORBIDDEN", "The token lacks the scope api:data:contact."));
    assert.equal(scope.missingScope, "api:data:contact");
    // What the user cannot do and who can fix it come first; the permission's name last.
    assert.equal(
      scope.userMessage,
      'You cannot search or enrich contacts: your account\'s access does not include it. Your administrator can grant it: the permission "api:data:contact".',
    );
    const role = fromAnswer(403, { error: { code: "FORBIDDEN", message: "Requires role fea:api or fea:zia" } });
    assert.equal(role.missingRole, "fea:api");
    assert.match(
      role.userMessage,
      /^You cannot use the service's data: your account has no data role\. Your administrator can give it one of the roles "fea:zia" or "fea:api"\.$/,
    );
    const neither = fromAnswer(403, jsonApi(403, "FORBIDDEN", "No access"));
    assert.equal(neither.missingScope, undefined);
    assert.equal(neither.missingRole, undefined);
  });

  it("says credits ran out for the credit-limit code", () => {
    const e = fromAnswer(400, jsonApi(400, "PFAPI0011", "Credit limit reached"));
    assert.match(e.userMessage, /credits/);
  });

  it("has one sentence per catalog code, whichever way the error was made", () => {
    for (const code of ["PFAPI0011", "PFAPI0004", "ZI0004"]) {
      const read = fromAnswer(400, jsonApi(400, code, "x"));
      const made = serviceError(read.kind, { errors: read.errors });
      assert.equal(made.userMessage, read.userMessage, code);
      assert.equal(made.userMessage, catalogUserMessage({ errors: read.errors }), code);
    }
  });

  it("copes with a body that is not JSON", () => {
    const e = fromAnswer(502, "<html>Bad gateway</html>");
    assert.equal(e.kind, "server");
    assert.deepEqual(e.errors, []);
  });

  it("treats an unexpected status as an invalid response", () => {
    assert.ok(fromAnswer(302, "") instanceof InvalidResponseError);
  });

  it("redacts bearer tokens and Authorization values from message, errors and toJSON", () => {
    const leak = `Authorization: Bearer ${TOKEN} was rejected; token=${TOKEN}`;
    const e = fromAnswer(401, { errors: [{ id: "1", code: "UNAUTHORIZED", status: "401", detail: leak }], detail: leak });
    const everything = JSON.stringify(e.toJSON()) + e.message + e.userMessage + String(e.stack) + JSON.stringify(e.errors);
    assert.ok(!everything.includes(TOKEN), everything);
    assert.ok(!everything.includes("c2lnbmF0dXJl"), "no part of the token's signature");
    assert.match(JSON.stringify(e.toJSON()), /\[redacted\]/);
  });
});

describe("parseRetryAfter", () => {
  it("reads seconds and HTTP dates", () => {
    assert.equal(parseRetryAfter("2", 0), 2000);
    assert.equal(parseRetryAfter("0.5", 0), 500);
    const now = Date.parse("2026-01-01T00:00:00Z");
    assert.equal(parseRetryAfter("Thu, 01 Jan 2026 00:00:30 GMT", now), 30000);
    assert.equal(parseRetryAfter(null, 0), undefined);
    assert.equal(parseRetryAfter("soon", 0), undefined);
  });
});
