import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.js";

let sandbox: TestSandbox;
before(async () => {
  sandbox = await startTestSandbox();
});
after(async () => {
  await sandbox.close();
});

test("a dev token searches companies and the request is counted", async () => {
  const token = await sandbox.token();
  const res = await fetch(`${sandbox.url}/data/v1/companies/search`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/vnd.api+json" },
    body: JSON.stringify({ data: { type: "CompanySearch", attributes: {} } }),
  });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /application\/vnd\.api\+json/);
  const doc = (await res.json()) as { data: unknown[]; meta: { totalResults: number } };
  assert.equal(doc.data.length, 25);
  assert.equal(doc.meta.totalResults, 2000);
  assert.equal(sandbox.requests("POST /data/v1/companies/search"), 1);
});
