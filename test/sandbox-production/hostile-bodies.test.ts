// The production profile's gateway against hostile requests (real HTTP): it authenticates before
// it routes or reads a body (no or a bad token: 401 ZI0001 on an unknown path too, where a valid
// token gets 404 ZI9998), and JSON nested 100,000 levels deep is refused with 400 in the service's
// error document on a question, an audience's creation and a bulk upsert, instead of a 500 from
// forwarding it ("Maximum call stack size exceeded").
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { useSandbox } from "../helpers/sandbox.js";

const sandbox = useSandbox({ profile: "production", companies: 50, contacts: 50 });
const SCOPES = ["api:data:company", "api:audience:manage", "api:audience:read", "api:account-summary:read"];
let token = "";
before(async () => {
  token = await sandbox.token({ scopes: SCOPES });
});

async function send(method: string, path: string, options: { token?: string; body?: string } = {}) {
  const headers: Record<string, string> = { "content-type": "application/vnd.api+json" };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const res = await fetch(`${sandbox.url}${path}`, { method, headers, ...(options.body !== undefined ? { body: options.body } : {}) });
  return { status: res.status, body: (await res.json()) as any };
}

const nested = (levels: number) => `{"data":{"type":"X","attributes":{"value":${"[".repeat(levels)}${"]".repeat(levels)}}}}`;

describe("production gateway", () => {
  it("answers 401 before 404: an unknown path without a valid token is unauthorized, with one it is not found", async () => {
    for (const bad of [undefined, "not-a-token"]) {
      for (const path of ["/gtm/no-such-op", "/gtm/data/v1/no-such-op", "/gtm/studio/v1/nothing/here"]) {
        const res = await send("GET", path, bad ? { token: bad } : {});
        assert.equal(res.status, 401, `${path} with ${bad ?? "no token"}`);
        assert.equal(res.body.error.code, "ZI0001");
      }
    }
    const known = await send("GET", "/gtm/data/v1/no-such-op", { token });
    assert.equal(known.status, 404);
    assert.equal(known.body.error.code, "ZI9998");
  });

  it("refuses a body without a token before reading it (401, not 400)", async () => {
    const res = await send("POST", "/gtm/studio/v1/audiences", { body: nested(100_000) });
    assert.equal(res.status, 401);
    assert.equal(res.body.error.code, "ZI0001");
  });

  it("refuses JSON nested 100,000 levels with 400 on a question, an audience's creation and a bulk upsert", async () => {
    const create = JSON.stringify({ data: { type: "Audience", attributes: { name: "Deep", type: "COMPANY", origin: "CUSTOM", columns: [] } } });
    const created = await send("POST", "/gtm/studio/v1/audiences", { token, body: create });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const paths = [
      "/gtm/copilot/v1/companies/1/account-summary/actions/ask",
      "/gtm/studio/v1/audiences",
      `/gtm/studio/v1/audiences/${created.body.data.id}/rows/actions/bulk/upsert`,
    ];
    for (const path of paths) {
      const res = await send("POST", path, { token, body: nested(100_000) });
      assert.equal(res.status, 400, `${path}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.errors[0].code, "PFAPI0002");
      assert.match(res.body.errors[0].detail, /more than 64 levels deep/);
    }
  });
});
