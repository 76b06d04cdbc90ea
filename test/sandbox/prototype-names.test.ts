// Names that are JavaScript prototype members (constructor, __proto__, toString, ...) are unknown
// names like any other: a contact search's requiredFields and a search's filter names answer 400
// with a pointer, a lookup answers its 404, never a 500; the client's validator gives the same verdict.
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { validateCompanySearchBody, validateContactSearchBody } from "../../src/core/contract/index.js";
import { useSandbox } from "../helpers/sandbox.js";
import { call, companySearch, contactSearch } from "./http.js";

const sandbox = useSandbox();
let token: string;
before(async () => {
  token = await sandbox.token();
});

const A = "/data/attributes";
const PROTOTYPE_NAMES = ["constructor", "__proto__", "toString", "valueOf", "hasOwnProperty", "isPrototypeOf", "__defineGetter__"];

/** The pointers of the sandbox's 400 and of the client's validator, side by side. */
async function verdicts(path: string, body: unknown, local: (b: unknown) => { pointer?: string; message: string }[]) {
  const res = await call(sandbox, "POST", path, { token, body });
  const server = res.status === 400 ? (res.body.errors as { source: { pointer?: string }; detail: string }[]).map((e) => e.source.pointer) : [];
  const client = local(body).map((i) => i.pointer);
  return { status: res.status, server, client, details: res.status === 400 ? res.body.errors.map((e: { detail: string }) => e.detail) : [] };
}

describe("contact search requiredFields", () => {
  for (const value of [...PROTOTYPE_NAMES, "shoeSize", "email,constructor", "email, toString"]) {
    test(`requiredFields "${value}" is a 400 with a pointer, on both sides`, async () => {
      const v = await verdicts("/data/v1/contacts/search", contactSearch({ requiredFields: value }), validateContactSearchBody);
      assert.equal(v.status, 400);
      assert.deepEqual(v.server, [`${A}/requiredFields`]);
      assert.deepEqual(v.client, v.server);
      assert.match(v.details[0], /Required fields must be a comma-separated list of: email, phone/);
    });
  }

  test("known names still filter, and the client accepts them", async () => {
    const v = await verdicts("/data/v1/contacts/search", contactSearch({ requiredFields: "email, mobilePhone" }), validateContactSearchBody);
    assert.equal(v.status, 200);
    assert.deepEqual(v.client, []);
  });
});

describe("filter names", () => {
  for (const name of ["constructor", "toString", "valueOf", "hasOwnProperty"]) {
    test(`a filter named "${name}" is an unknown field, on both sides`, async () => {
      for (const [path, body, local] of [
        ["/data/v1/companies/search", companySearch({ [name]: "x" }), validateCompanySearchBody],
        ["/data/v1/contacts/search", contactSearch({ [name]: "x" }), validateContactSearchBody],
      ] as const) {
        const v = await verdicts(path, body, local);
        assert.equal(v.status, 400, path);
        assert.deepEqual(v.server, [`${A}/${name}`]);
        assert.deepEqual(v.client, v.server);
        assert.equal(v.details[0], `"${name}" is not a field this request accepts.`);
      }
    });
  }
});

describe("lookup field names", () => {
  for (const name of PROTOTYPE_NAMES) {
    test(`lookup "${name}" is the unknown-lookup 404 naming the parameter`, async () => {
      const res = await call(sandbox, "GET", `/data/v1/lookup/${encodeURIComponent(name)}`, { token });
      assert.equal(res.status, 404);
      assert.equal(res.body.errors[0].source.parameter, "fieldName");
    });
  }
});
