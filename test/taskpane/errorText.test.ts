// What the pane shows for an error: the user's message, and the service's instance id to copy for support.
import assert from "node:assert/strict";
import { it } from "node:test";
import { errorFromResponse } from "../../src/core/api/index.js";
import { errorText } from "../../src/taskpane/errorText.js";

it("a service error's text ends with its reference (the instance id support asks for)", () => {
  const error = errorFromResponse({
    status: 403,
    headers: { get: () => null },
    body: JSON.stringify({ error: { code: "ZI0003", message: "No access", requestId: "9b2e-41" } }),
  });
  assert.match(errorText(error), /^Your subscription has no access to this part of the service\. Ask your administrator for access\. \(Reference: 9b2e-41\)$/);
  assert.equal(errorText(new Error("plain")), "plain");
  assert.equal(errorText({ userMessage: "No reference here." }), "No reference here.");
});
