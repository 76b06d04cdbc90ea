// The service's error catalog in the user's words, the error's instance id in the details a user
// copies, and where paging ends against production.
import assert from "node:assert/strict";
import { test } from "node:test";
import { errorFromResponse, supportDetails } from "../../../../src/core/api/index.js";
import { isPastLastPage, pageCount } from "../../../../src/core/api/production/index.js";
import { PRODUCTION_ERROR_CATALOG, PRODUCTION_ERROR_CODES, disallowedFieldsOf, gatewayErrorBody } from "../../../../src/core/contract/index.js";

const noHeaders = { get: () => null };
const answer = (status: number, body: unknown, operation?: string) =>
  errorFromResponse({ status, headers: noHeaders, body: JSON.stringify(body), ...(operation ? { operation } : {}) });

/** Words that say what to do next. */
const ACTION = /\b(Sign in|Ask your administrator|tell your administrator|[Tt]ry again|Remove|Add filters|Fill in|Check|Correct)\b/;

test("every catalog code, in either error shape, reaches the user as a sentence saying what to do", () => {
  assert.equal(PRODUCTION_ERROR_CODES.length, 16);
  for (const code of PRODUCTION_ERROR_CODES) {
    const { status } = PRODUCTION_ERROR_CATALOG[code];
    for (const body of [
      gatewayErrorBody(status, code, "the service's words", "req-1"),
      { errors: [{ id: "req-1", code, status: String(status), detail: "the service's words" }] },
    ]) {
      const error = answer(status, body, "POST /data/v1/companies/enrich");
      assert.match(error.userMessage, ACTION, `${code}: ${error.userMessage}`);
      assert.match(error.userMessage, /^[A-Z].*[.!]$/s, `${code} is a sentence: ${error.userMessage}`);
      assert.doesNotMatch(error.userMessage, /undefined|\[object/, code);
      assert.equal(error.requestId, "req-1", `${code}: the instance id is kept`);
    }
  }
});

test("the sentences say what each code means", () => {
  assert.match(
    answer(400, { errors: [{ code: "PFAPI0001", detail: "Disallowed field 'numberOfContactsInZoomInfo' requested in query" }] }).userMessage,
    /plan does not include the field numberOfContactsInService\b/,
  );
  assert.match(answer(400, { errors: [{ code: "PFAPI0002", detail: "Page number cannot be greater than max value 100" }] }).userMessage, /at most 100 pages/);
  assert.match(
    answer(400, { errors: [{ code: "PFAPI0004", detail: "Please provide at least one of [companyId]" }] }).userMessage,
    /needs more to go on \(Please provide at least one of \[companyId\]\)/,
  );
  assert.match(
    answer(400, { error: { code: "PFAPI0011", message: "Credit limit reached" } }).userMessage,
    /^Your account has no credits left for new records\. Ask your administrator for more credits\.$/,
  );
  assert.match(answer(504, { error: { code: "PFAPI0010" } }).userMessage, /fewer records/);
  const scope = answer(403, { error: { code: "ZI0002", message: "Access to resource /studio/v1/audiences is denied" } }, "GET /studio/v1/audiences");
  assert.equal(scope.kind, "forbidden");
  assert.match(scope.userMessage, /app registration is not allowed.*\/studio\/v1\/audiences/);
  const wrongPath = answer(404, { error: { code: "ZI9998" } }, "GET /v1/x");
  assert.doesNotMatch(wrongPath.userMessage, /deleted/);
  assert.match(wrongPath.userMessage, /fault in the add-in or its settings/);
  const limited = errorFromResponse({
    status: 429,
    headers: { get: (n: string) => (n.toLowerCase() === "retry-after" ? "7" : null) },
    body: JSON.stringify({ error: { code: "ZI0004" } }),
  });
  assert.match(limited.userMessage, /every user of it shares one\). Try again in 7 seconds\./);
});

test("the specification's own errors keep their messages", () => {
  assert.match(answer(404, { errors: [{ id: "1", code: "NOT_FOUND", status: "404" }] }).userMessage, /may have been deleted/);
});

test("the details a user copies carry the error's instance id, from either shape", () => {
  const gateway = answer(403, { error: { code: "ZI0003", message: "No access", requestId: "7c1f-gw" } }, "GET /studio/v1/audiences");
  assert.match(supportDetails(gateway), /Reference \(give this to support\): 7c1f-gw/);
  assert.match(supportDetails(gateway), /Code: ZI0003/);
  assert.match(supportDetails(gateway), /Request: GET \/studio\/v1\/audiences/);
  const jsonApi = answer(400, { errors: [{ id: "e1a2-json", code: "PFAPI0006", detail: "bad" }] });
  assert.match(supportDetails(jsonApi), /Reference \(give this to support\): e1a2-json/);
  assert.deepEqual(gateway.toJSON().requestId, "7c1f-gw");
});

test("paging ends only at a 400 after page 1; the page count comes from totalResults, page size and the 100-page cap", () => {
  assert.equal(isPastLastPage(400, 2), true);
  assert.equal(isPastLastPage(400, 1), false, "an error on page 1 is an error");
  assert.equal(isPastLastPage(500, 3), false);
  assert.equal(pageCount(51, 25), 3);
  assert.equal(pageCount(0, 25), 0);
  assert.equal(pageCount(1_000_000, 25), 100);
});

test("the refused fields are read from PFAPI0001/PFAPI0009 answers in the contract's names, and from no other code", () => {
  const fields = (detail: string, code = "PFAPI0001") => disallowedFieldsOf([{ code, detail }]);
  assert.deepEqual(fields("Disallowed field 'revenue' requested in query"), ["revenue"]);
  assert.deepEqual(fields("Disallowed fields: revenue, phone", "PFAPI0009"), ["revenue", "phone"]);
  assert.deepEqual(fields("Disallowed fields 'revenue', 'numberOfContactsInZoomInfo' requested"), ["revenue", "numberOfContactsInService"]);
  assert.deepEqual(fields("disallowed field revenue requested in query"), ["revenue"]);
  assert.deepEqual(fields("OutputFields invalid or disallowed", "PFAPI0009"), [], "no name: nothing to drop");
  assert.deepEqual(fields("Disallowed field 'revenue' requested in query", "PFAPI0002"), []);
});
