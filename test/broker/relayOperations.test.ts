// The relay's allow-list of operations: every operation the add-in's client calls (every path
// the contract declares, with the method the client sends it with) is forwarded, on either
// profile; any other method or path is refused by the relay itself, before the service is asked.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import {
  AUDIENCE_WRITE_PATHS,
  CORPORATE_HIERARCHY_PATH,
  ENTITLEMENTS_PATH,
  HASHTAGS_PATH,
  INSIGHTS_PATH,
  LOOKUP_ENRICH_PATH,
  ORG_CHART_PATH,
  outputFieldLookupPath,
  PATHS,
  RESEARCH_PATHS,
  SIGNAL_LOOKUPS,
  SIGNAL_PATHS,
} from "../../src/core/contract/index.js";
import { isRelayedOperation, RELAY_OPERATIONS } from "../../src/broker/relayOperations.js";
import { ADDIN, brokerFor, fakeUpstreamPerSuite } from "./helpers.js";
import type { FakeUpstream } from "./upstream.js";

type Method = "GET" | "POST" | "PATCH" | "DELETE";
type PathEntry = string | ((...ids: string[]) => string);

/** The methods the client sends each declared path with (src/core/api); [] for a path it never calls. */
const CLIENT_METHODS: Record<string, Record<string, Method[]>> = {
  PATHS: {
    searchCompanies: ["POST"],
    searchContacts: ["POST"],
    enrichCompanies: ["POST"],
    enrichContacts: ["POST"],
    lookup: ["GET"],
    usage: ["GET"],
    audiences: ["GET"],
    audience: ["GET"],
    audienceRows: [],
    audienceRowsSearch: ["POST"],
    enrichAudience: ["POST"],
    job: ["GET"],
  },
  SIGNAL_PATHS: Object.fromEntries(Object.keys(SIGNAL_PATHS).map((name) => [name, ["POST"]])),
  RESEARCH_PATHS: {
    accountBriefing: ["GET"],
    askAccount: ["POST"],
    contactBriefing: ["GET"],
    companyLookalikes: ["GET"],
    contactLookalikes: ["GET"],
    contactRecommendations: ["GET"],
  },
  AUDIENCE_WRITE_PATHS: {
    audiences: ["POST"],
    audience: ["GET", "PATCH", "DELETE"],
    addColumns: ["POST"],
    matchCriteria: ["POST"],
    upsertRows: [],
    bulkUpsertRows: ["POST"],
    deleteRows: ["DELETE"],
    folders: ["GET", "POST"],
    folder: [],
  },
};

/** Paths of audiences are relative to the audience base: /studio on the production profile. */
const TABLES: [string, Record<string, PathEntry>, (path: string) => string][] = [
  ["PATHS", PATHS, (p) => (p.startsWith("/v1/") ? `/studio${p}` : p)],
  ["SIGNAL_PATHS", SIGNAL_PATHS, (p) => p],
  ["RESEARCH_PATHS", RESEARCH_PATHS.specification, (p) => p],
  ["RESEARCH_PATHS", RESEARCH_PATHS.production, (p) => p],
  ["AUDIENCE_WRITE_PATHS", AUDIENCE_WRITE_PATHS, (p) => `/studio${p}`],
];

const pathOf = (entry: PathEntry) => (typeof entry === "string" ? entry : entry("3f2b1c9e-1234", "job-77"));
const withoutQuery = (path: string) => path.split("?")[0]!;

function apiSources(dir = "src/core/api"): string {
  return readdirSync(dir, { withFileTypes: true })
    .map((entry) => (entry.isDirectory() ? apiSources(join(dir, entry.name)) : entry.name.endsWith(".ts") ? readFileSync(join(dir, entry.name), "utf8") : ""))
    .join("\n");
}

describe("the relay's operations", () => {
  it("forwards every path the contract declares with each method the client sends it with, and no other method", () => {
    // One path can be in two tables (reading and writing audiences): its methods are both tables'.
    const methodsOf = new Map<string, Set<Method>>();
    for (const [table, paths, based] of TABLES) {
      for (const [name, entry] of Object.entries(paths)) {
        const methods = CLIENT_METHODS[table]![name];
        assert.ok(methods, `${table}.${name} is new: name the methods the client sends it with in CLIENT_METHODS (and the relay's list)`);
        const path = based(pathOf(entry));
        methodsOf.set(path, new Set([...(methodsOf.get(path) ?? []), ...methods]));
      }
    }
    for (const [path, methods] of methodsOf)
      for (const method of ["GET", "POST", "PATCH", "DELETE"] as const)
        assert.equal(isRelayedOperation(method, path), methods.has(method), `${method} ${path}`);
    for (const path of [HASHTAGS_PATH, ...(["company", "contact"] as const).map(outputFieldLookupPath), ...SIGNAL_LOOKUPS.map(PATHS.lookup)])
      assert.ok(isRelayedOperation(path === HASHTAGS_PATH ? "POST" : "GET", withoutQuery(path)), path);
    // Corporate families and org charts (their paths are the contract's own constants).
    for (const path of [CORPORATE_HIERARCHY_PATH, ORG_CHART_PATH]) {
      assert.ok(isRelayedOperation("POST", path), path);
      assert.ok(!isRelayedOperation("GET", path), `GET ${path}`);
    }
    assert.ok(isRelayedOperation("GET", LOOKUP_ENRICH_PATH));
  });

  it("forwards the user's entitlements, the one operation of /platform, and insights", () => {
    assert.ok(isRelayedOperation("GET", ENTITLEMENTS_PATH));
    assert.ok(isRelayedOperation("POST", INSIGHTS_PATH));
    assert.ok(!isRelayedOperation("POST", ENTITLEMENTS_PATH) && !isRelayedOperation("GET", INSIGHTS_PATH));
    const platform = [
      "/platform/v1/metadata/entities",
      "/platform/v1/entities/company",
      "/platform/v1/engagements/content-interactions",
      "/platform/v1/workflows",
      "/platform/v1/entitlements/1",
    ];
    for (const path of platform) for (const method of ["GET", "POST", "PATCH", "DELETE"]) assert.ok(!isRelayedOperation(method, path), `${method} ${path}`);
    assert.deepEqual(
      RELAY_OPERATIONS.filter((op) => op.path.startsWith("/platform/")),
      [{ method: "GET", path: ENTITLEMENTS_PATH }],
    );
  });

  it("names the methods the client's request specs use", () => {
    const aliases: Record<string, string> = { P: "AUDIENCE_WRITE_PATHS", PATHS: "PATHS" };
    const specs = [...apiSources().matchAll(/spec\("(GET|POST|PATCH|DELETE)", (P|PATHS)\.(\w+)/g)];
    assert.ok(specs.length > 5, "the client's request specs were found");
    for (const [, method, alias, name] of specs)
      assert.ok(CLIENT_METHODS[aliases[alias!]!]![name!]?.includes(method as Method), `the client sends ${method} ${alias}.${name}`);
  });

  it("leaves out only paths the client never calls", () => {
    const sources = apiSources();
    for (const [table, methods] of Object.entries(CLIENT_METHODS))
      for (const [name, used] of Object.entries(methods))
        if (used.length === 0) assert.doesNotMatch(sources, new RegExp(`\\.${name}\\b(?!:)`), `${table}.${name} is called by the client: allow it`);
  });

  it("takes a path parameter as one whole segment", () => {
    assert.ok(isRelayedOperation("GET", "/studio/v1/audiences/a%20b/jobs/j1"));
    for (const path of [
      "/studio/v1/audiences//jobs/j1",
      "/studio/v1/audiences/a/b/jobs/j1",
      "/data/v1/lookup/",
      "/data/v1/users/usage/x",
      "/data/v1/users/usagex",
    ])
      assert.ok(!isRelayedOperation("GET", path), path);
    assert.ok(RELAY_OPERATIONS.some((op) => op.path === "/studio/v1/audiences/{id}/jobs/{id}"));
  });
});

describe("the relay refuses other operations itself", () => {
  let upstream: FakeUpstream;
  fakeUpstreamPerSuite((u) => (upstream = u));

  it("answers 404 to an unknown operation or method before anything is sent (an answer the service never gave cannot prove a token)", async () => {
    const app = await brokerFor(upstream);
    const headers = { origin: ADDIN, authorization: "Bearer t" };
    for (const [method, url] of [
      ["GET", "/data/v1/no-such-op"],
      ["GET", "/data/v1/companies/search"],
      ["DELETE", "/data/v1/users/usage"],
      ["PUT", "/studio/v1/audiences/a1"],
      ["POST", "/copilot/v1/companies/lookalikes"],
      ["GET", "/studio/v1/nothing"],
      ["GET", "/platform/v1/metadata/entities"],
    ] as const) {
      const res = await app.inject({ method, url, headers, ...(method === "GET" || method === "DELETE" ? {} : { payload: "{}" }) });
      assert.equal(res.statusCode, 404, `${method} ${url}`);
    }
    assert.equal(upstream.received.length, 0, "nothing reached the service");
    const known = await app.inject({ method: "GET", url: "/data/v1/users/usage", headers });
    assert.equal(known.statusCode, 200);
    await app.close();
  });
});
