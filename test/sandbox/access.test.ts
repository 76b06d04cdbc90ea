// Access control of the twin, as strict as the service: audiences, their rows and jobs belong to
// one account (another account gets 404 and does not see them listed), audience operations need
// the data scope of the audience's records, and a token must carry an expiry.
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { SignJWT, importJWK } from "jose";
import { useSandbox } from "../helpers/sandbox.js";
import { call } from "./http.js";

const sandbox = useSandbox({ companies: 500, contacts: 500, jobRowsPerSecond: 5000 });

let owner: string;
let other: string;
let audienceId: string;
let jobId: string;

before(async () => {
  await sandbox.setAccount("owner-a", 1000);
  await sandbox.setAccount("other-b", 1000);
  owner = await sandbox.token({ account: "owner-a" });
  other = await sandbox.token({ account: "other-b" });
  const created = await call(sandbox, "POST", "/__sandbox/audiences", {
    body: { name: "Owned", type: "COMPANY", recordIds: [1, 2, 3], account: "owner-a" },
    contentType: "application/json",
  });
  assert.equal(created.status, 201);
  audienceId = created.body.data.id;
  const started = await call(sandbox, "POST", `/v1/audiences/${audienceId}/actions/enrich`, {
    token: owner,
    body: { data: { type: "AudienceEnrichment", attributes: { scope: "AUDIENCE" } } },
  });
  assert.equal(started.status, 202);
  jobId = started.body.data.id;
});

const paths = () => ({
  audience: `/v1/audiences/${audienceId}`,
  rows: `/v1/audiences/${audienceId}/rows`,
  job: `/v1/audiences/${audienceId}/jobs/${jobId}`,
});

describe("audiences belong to their account", () => {
  test("the owner reads the audience, its rows and its job", async () => {
    for (const path of Object.values(paths())) assert.equal((await call(sandbox, "GET", path, { token: owner })).status, 200, path);
    const list = await call(sandbox, "GET", "/v1/audiences", { token: owner });
    assert.ok(list.body.data.some((a: { id: string }) => a.id === audienceId));
  });

  test("another account gets 404 for the audience, its rows, its job and its enrichment, and does not see it listed", async () => {
    for (const path of Object.values(paths())) {
      const res = await call(sandbox, "GET", path, { token: other });
      assert.equal(res.status, 404, path);
      assert.equal(res.body.errors[0].status, "404");
    }
    const enrich = await call(sandbox, "POST", `/v1/audiences/${audienceId}/actions/enrich`, {
      token: other,
      body: { data: { type: "AudienceEnrichment", attributes: { scope: "AUDIENCE" } } },
    });
    assert.equal(enrich.status, 404);
    const list = await call(sandbox, "GET", "/v1/audiences", { token: other });
    assert.equal(list.status, 200);
    assert.ok(!list.body.data.some((a: { id: string }) => a.id === audienceId));
  });
});

describe("audience operations need the data scope of the audience's records", () => {
  test("a token without scopes is refused (403) for the list, the audience, its rows and its job", async () => {
    const none = await sandbox.token({ account: "owner-a", scopes: [] });
    for (const path of ["/v1/audiences", ...Object.values(paths())]) {
      const res = await call(sandbox, "GET", path, { token: none });
      assert.equal(res.status, 403, path);
    }
  });

  test("a contact-only token cannot read a company audience's job, nor list company audiences", async () => {
    const contactOnly = await sandbox.token({ account: "owner-a", scopes: ["api:data:contact"] });
    assert.equal((await call(sandbox, "GET", paths().job, { token: contactOnly })).status, 403);
    const list = await call(sandbox, "GET", "/v1/audiences", { token: contactOnly });
    assert.equal(list.status, 200);
    assert.ok(list.body.data.every((a: { attributes: { type: string } }) => a.attributes.type === "CONTACT"));
  });
});

describe("tokens must expire", () => {
  async function signed(withExpiry: boolean): Promise<string> {
    const keys = sandbox.ctx.keys;
    const key = await importJWK(keys.privateJwk, "RS256");
    const jwt = new SignJWT({ scope: "api:data:company", roles: ["fea:api"], account: "owner-a" })
      .setProtectedHeader({ alg: "RS256", kid: keys.privateJwk.kid })
      .setIssuer(sandbox.ctx.options.publicUrl)
      .setAudience(sandbox.ctx.apiAudience)
      .setSubject("no-expiry")
      .setIssuedAt();
    if (withExpiry) jwt.setExpirationTime("10m");
    return jwt.sign(key);
  }

  test("a correctly signed token without exp is refused with 401", async () => {
    const res = await call(sandbox, "GET", paths().job, { token: await signed(false) });
    assert.equal(res.status, 401);
    assert.match(res.body.errors[0].detail, /no expiry time/);
    const search = await call(sandbox, "POST", "/data/v1/companies/search", {
      token: await signed(false),
      body: { data: { type: "CompanySearch", attributes: {} } },
    });
    assert.equal(search.status, 401);
  });

  test("the same token with exp is accepted", async () => {
    assert.equal((await call(sandbox, "GET", paths().job, { token: await signed(true) })).status, 200);
  });
});
