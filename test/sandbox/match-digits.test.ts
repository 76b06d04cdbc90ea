// A phone or zip code that cannot identify a record ("n/a", "5") is INVALID_INPUT and costs
// nothing; a full number still matches.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { useSandbox } from "../helpers/sandbox.js";
import { call } from "./http.js";

const sandbox = useSandbox();

const enrich = (token: string, kind: "companies" | "contacts", inputs: object[]) =>
  call(sandbox, "POST", `/data/v1/${kind}/enrich`, {
    token,
    body:
      kind === "companies"
        ? { data: { type: "CompanyEnrich", attributes: { matchCompanyInput: inputs, outputFields: ["id"] } } }
        : { data: { type: "ContactEnrich", attributes: { matchPersonInput: inputs, outputFields: ["id"] } } },
  });
const credits = async (id: string) => (await call(sandbox, "GET", `/__sandbox/accounts/${id}`)).body.credits as number;
const row = (sql: string) => sandbox.ctx.db.prepare(sql).get() as Record<string, string | number>;

describe("phone and zip inputs without enough digits", () => {
  test("companies: n/a, a lone digit and a digitless zip match nothing and are free", async () => {
    await sandbox.setAccount("digits-co", 100);
    const token = await sandbox.token({ account: "digits-co" });
    const c = row("SELECT id, name, phone FROM companies WHERE phone IS NOT NULL ORDER BY id LIMIT 1");
    const res = await enrich(token, "companies", [
      { companyPhone: "n/a" },
      { companyPhone: "5" },
      { companyPhone: "+1 (555)" },
      { companyName: String(c.name), companyZipCode: "n/a" },
      { companyPhone: String(c.phone) },
    ]);
    assert.equal(res.status, 200);
    const statuses = res.body.data.map((i: { meta: { matchStatus: string } }) => i.meta.matchStatus);
    assert.deepEqual(statuses, ["INVALID_INPUT", "INVALID_INPUT", "INVALID_INPUT", "INVALID_INPUT", "FULL_MATCH"]);
    assert.equal(res.body.data[4].id, String(c.id));
    assert.equal(await credits("digits-co"), 99, "only the full phone number's match is charged");
  });

  test("contacts: n/a and a lone digit match nothing and are free", async () => {
    await sandbox.setAccount("digits-ct", 100);
    const token = await sandbox.token({ account: "digits-ct" });
    const p = row("SELECT id, phone FROM contacts WHERE phone IS NOT NULL ORDER BY id LIMIT 1");
    const res = await enrich(token, "contacts", [{ phone: "n/a" }, { phone: "5" }, { phone: "-" }, { phone: String(p.phone) }]);
    assert.equal(res.status, 200);
    const statuses = res.body.data.map((i: { meta: { matchStatus: string } }) => i.meta.matchStatus);
    assert.deepEqual(statuses.slice(0, 3), ["INVALID_INPUT", "INVALID_INPUT", "INVALID_INPUT"]);
    assert.equal(statuses[3], "FULL_MATCH");
    assert.equal(await credits("digits-ct"), 99, "only the full phone number's match is charged");
  });
});
