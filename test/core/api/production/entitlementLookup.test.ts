// The entitlement lookup before any enrichment (the pickers ask first): it goes to the configured
// service address with the user's sign-in, answers in the contract's names, and is cached.
import assert from "node:assert/strict";
import { test } from "node:test";
import { productionTransport } from "../../../../src/core/api/production/index.js";
import { fakeService } from "./fakeService.js";

const fieldsDoc = (names: string[]) => ({ data: names.map((f) => ({ id: f, type: "EnrichField", attributes: { fieldName: f } })) });

test("the entitlement lookup uses the configured address and sign-in before any enrichment, once per entity", async () => {
  const service = fakeService(({ method, url }) =>
    method === "GET" && url.pathname === "/gtm/data/v1/lookup/enrich" ? { status: 200, body: fieldsDoc(["name", "numberOfContactsInZoomInfo"]) } : undefined,
  );
  const edge = productionTransport(service.transport, { lookup: { baseUrl: "https://api.test/gtm/", authorization: async () => "Bearer t-1" } });
  const entitled = await edge.entitlements.entitled("company");
  assert.deepEqual([...(entitled ?? [])].sort(), ["name", "numberOfContactsInService"]);
  await edge.entitlements.entitled("company");
  assert.equal(service.sent.length, 1);
  assert.equal(service.sent[0]!.url.searchParams.get("filter[entity]"), "company");
  assert.equal(service.sent[0]!.headers.authorization, "Bearer t-1");
});

test("without a sign-in, or when the lookup fails, nothing is known and the lookup is asked again later", async () => {
  let signedIn = false;
  let fail = true;
  const service = fakeService(({ method }) => (method !== "GET" ? undefined : fail ? { status: 503, body: {} } : { status: 200, body: fieldsDoc(["name"]) }));
  const edge = productionTransport(service.transport, { lookup: { baseUrl: "https://api.test/gtm", authorization: async () => (signedIn ? "Bearer t" : undefined) } });
  assert.equal(await edge.entitlements.entitled("contact"), undefined);
  assert.equal(service.sent.length, 0, "no sign-in: nothing asked");
  signedIn = true;
  assert.equal(await edge.entitlements.entitled("contact"), undefined);
  fail = false;
  assert.deepEqual([...((await edge.entitlements.entitled("contact")) ?? [])], ["name"]);
  assert.equal(service.sent.length, 2);
});
