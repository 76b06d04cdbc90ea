// Hostile request bodies the twin must survive (specification profile, real HTTP): JSON nested
// 100,000 levels deep is refused with 400 in the service's error document (not 500 "Maximum call
// stack size exceeded") on a question, an audience's creation and a bulk upsert, with either JSON
// media type; 64 levels still parse. An audience's columns of its own are capped at 500 in total,
// whatever the number of requests that add them.
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "../../src/sandbox/jsonBody.js";
import { MAX_CUSTOM_COLUMNS } from "../../src/sandbox/audiences/writes.js";
import { useSandbox } from "../helpers/sandbox.js";
import { call } from "./http.js";

const sandbox = useSandbox({ companies: 50, contacts: 50 });
let token = "";
before(async () => {
  token = await sandbox.token();
});

/** A document whose `data.attributes` holds a value nested `levels` arrays deep. */
const nested = (levels: number) => `{"data":{"type":"X","attributes":{"value":${"[".repeat(levels)}${"]".repeat(levels)}}}}`;
const column = (name: string) => ({ type: "Column", attributes: { name, dataType: "TEXT", columnType: "CUSTOM" } });
const audienceBody = (name: string, columns: unknown[]) => ({ data: { type: "Audience", attributes: { name, type: "COMPANY", origin: "CUSTOM", columns } } });

describe("JSON nested too deep", () => {
  it("the depth scan counts arrays and objects, not brackets inside strings", () => {
    assert.equal(nestsDeeperThan(nested(MAX_JSON_DEPTH - 3), MAX_JSON_DEPTH), false, "3 levels of the document + 61 = 64");
    assert.equal(nestsDeeperThan(nested(MAX_JSON_DEPTH - 2), MAX_JSON_DEPTH), true);
    assert.equal(nestsDeeperThan(`{"a":"${"[{".repeat(500)}\\"${"[".repeat(100)}"}`, MAX_JSON_DEPTH), false);
  });

  it("refuses 100,000 levels with 400 on a question, an audience's creation and a bulk upsert", async () => {
    const created = await call(sandbox, "POST", "/v1/audiences", { token, body: audienceBody("Deep", [column("Name")]) });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const paths = ["/data/v1/research/accounts/1/questions", "/v1/audiences", `/v1/audiences/${created.body.data.id}/rows/actions/bulk/upsert`];
    for (const path of paths) {
      for (const contentType of ["application/json", "application/vnd.api+json"]) {
        const res = await call(sandbox, "POST", path, { token, rawBody: nested(100_000), contentType });
        assert.equal(res.status, 400, `${path} ${contentType}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.errors[0].code, "PFAPI0002");
        assert.match(res.body.errors[0].detail, /more than 64 levels deep/);
      }
    }
  });

  it("still takes a document nested 64 levels deep (refused or not for its content, never for its depth)", async () => {
    const res = await call(sandbox, "POST", "/v1/audiences", { token, rawBody: nested(MAX_JSON_DEPTH - 3) });
    assert.equal(res.status, 400);
    assert.doesNotMatch(JSON.stringify(res.body), /levels deep/);
  });
});

describe("columns per audience", () => {
  it(`caps an audience's own columns at ${MAX_CUSTOM_COLUMNS}, across requests, with a 400 that says why`, async () => {
    const names = (from: number, n: number) => Array.from({ length: n }, (_, i) => column(`C${from + i}`));
    const created = await call(sandbox, "POST", "/v1/audiences", { token, body: audienceBody("Wide", names(0, 300)) });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const add = (body: unknown) => call(sandbox, "POST", `/v1/audiences/${created.body.data.id}/columns/actions/bulk/create`, { token, body: { data: body } });
    const over = await add(names(300, 201));
    assert.equal(over.status, 400);
    assert.equal(over.body.errors[0].code, "PFAPI0002");
    assert.match(
      over.body.errors[0].detail,
      /at most 500 columns of your own, so that loading rows into it stays quick; this one has 300, so at most 200 more/,
    );
    assert.equal((await add(names(300, 200))).status, 201, "up to the cap");
    const full = await add(names(500, 1));
    assert.equal(full.status, 400);
    assert.match(full.body.errors[0].detail, /no more can be added/);
    const audience = await call(sandbox, "GET", `/v1/audiences/${created.body.data.id}`, { token });
    assert.equal(audience.body.data.attributes.columns.length, 500, "a refused request added nothing");
  });
});
