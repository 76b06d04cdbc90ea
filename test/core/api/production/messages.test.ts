import assert from "node:assert/strict";
import { test } from "node:test";
import { errorFromResponse } from "../../../../src/core/api/errors.js";
import { gatewayUserMessage, isEndOfPages, pageCount } from "../../../../src/core/api/production/index.js";

const noHeaders = { get: () => null };

test("ZI0002 names the resource the organization's app may not use", () => {
  const error = errorFromResponse({
    status: 403,
    headers: noHeaders,
    body: JSON.stringify({ error: { code: "ZI0002", message: "Access to resource /studio/v1/audiences is denied" } }),
    operation: "GET /studio/v1/audiences",
  });
  assert.equal(error.kind, "forbidden");
  assert.match(error.userMessage, /app registration is not allowed/);
  assert.match(error.userMessage, /\/studio\/v1\/audiences/);
});

test("ZI9998 says the add-in's request was wrong, not that something was deleted", () => {
  const error = errorFromResponse({ status: 404, headers: noHeaders, body: JSON.stringify({ error: { code: "ZI9998" } }), operation: "GET /v1/x" });
  assert.equal(error.kind, "notFound");
  assert.doesNotMatch(error.userMessage, /deleted/);
  assert.match(error.userMessage, /fault in the add-in or its settings/);
});

test("the specification's own errors keep their messages", () => {
  const error = errorFromResponse({ status: 404, headers: noHeaders, body: JSON.stringify({ errors: [{ id: "1", code: "NOT_FOUND", status: "404" }] }) });
  assert.match(error.userMessage, /may have been deleted/);
  assert.equal(gatewayUserMessage({ status: 400, body: { errors: [{ code: "PFAPI0001" }] } }), undefined);
});

test("PFAPI0004 is the end of the pages; the page count comes from totalResults, page size and the 100-page cap", () => {
  assert.equal(isEndOfPages(400, { errors: [{ code: "PFAPI0004", detail: "page number greater than the available results" }] }), true);
  assert.equal(isEndOfPages(400, { error: { code: "PFAPI0004" } }), true);
  assert.equal(isEndOfPages(400, { errors: [{ code: "PFAPI0001" }] }), false);
  assert.equal(isEndOfPages(500, { errors: [{ code: "PFAPI0004" }] }), false);
  assert.equal(pageCount(51, 25), 3);
  assert.equal(pageCount(0, 25), 0);
  assert.equal(pageCount(1_000_000, 25), 100);
});
