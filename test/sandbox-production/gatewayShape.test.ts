// One writer of the gateway's error shape: the production profile's gateway and the default
// profile's --gateway-errors fault answer alike ({"error": {code, message, status, requestId,
// retryable}}), as the contract's gatewayErrorBody writes it.
import assert from "node:assert/strict";
import { it } from "node:test";
import { gatewayErrorBody } from "../../src/core/contract/index.js";
import { startTestSandbox } from "../helpers/sandbox.js";

const shapeOf = (body: { error: Record<string, unknown> }) => Object.fromEntries(Object.entries(body.error).map(([k, v]) => [k, typeof v]));

it("the production gateway and the --gateway-errors fault write the same shape, the contract's", async () => {
  const expected = shapeOf(gatewayErrorBody(401, "ZI0001", "m", "r"));
  const production = await startTestSandbox({ profile: "production", companies: 20, contacts: 20 });
  const plain = await startTestSandbox({ companies: 20, contacts: 20 });
  try {
    const gateway = await fetch(`${production.url}/gtm/data/v1/users/usage`);
    assert.equal(gateway.status, 401);
    const gatewayBody = (await gateway.json()) as { error: Record<string, unknown> };
    assert.equal(gatewayBody.error.code, "ZI0001");
    assert.deepEqual(shapeOf(gatewayBody), expected);

    await plain.setFaults({ gatewayErrors: true });
    const fault = await fetch(`${plain.url}/data/v1/users/usage`);
    assert.equal(fault.status, 401);
    const faultBody = (await fault.json()) as { error: Record<string, unknown> };
    assert.deepEqual(shapeOf(faultBody), expected);
    assert.equal(faultBody.error.retryable, false);
    assert.equal(faultBody.error.status, "401");
  } finally {
    await production.close();
    await plain.close();
  }
});
