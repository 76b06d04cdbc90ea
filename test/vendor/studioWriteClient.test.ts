// The client's audience writes over its production edge against the sandbox's production
// profile: the whole loop (audienceWriteFlow.ts) through /gtm/studio/v1, and every body the
// client sent validates against the operation's published request schema.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createServiceClient } from "../../src/core/api/index.js";
import { productionTransport } from "../../src/core/api/production/index.js";
import { writeEnrichReadBack } from "../core/api/audienceWriteFlow.js";
import { clientTimeOn, manualClock, useSandbox } from "../helpers/sandbox.js";
import { requestErrors } from "./oracle.js";
import { ALL_SCOPES } from "./productionProfile.js";

/** The published operation a request is, by method and path. */
const OPERATIONS: [string, RegExp, string][] = [
  ["POST", /\/studio\/v1\/audiences$/, "Audiences_createAudience"],
  ["PATCH", /\/studio\/v1\/audiences\/[^/]+$/, "Audiences_patchAudience"],
  ["POST", /\/columns\/actions\/bulk\/create$/, "Columns_addColumns"],
  ["POST", /\/actions\/match-criteria$/, "Audiences_upsertMatchCriteria"],
  ["POST", /\/rows\/actions\/bulk\/upsert$/, "Rows_bulkUpsertRows"],
  ["DELETE", /\/rows\/actions\/bulk\/delete$/, "Rows_deleteRows"],
  ["POST", /\/rows\/actions\/search$/, "Rows_listRows"],
  ["POST", /\/actions\/enrich$/, "Audiences_enrichAudience"],
  ["POST", /\/studio\/v1\/folders$/, "Folders_createFolder"],
];

describe("the client's audience writes over its production edge", () => {
  const clock = manualClock();
  const sandbox = useSandbox({ profile: "production", clock, jobRowsPerSecond: 5000 });

  it("writes, enriches and reads back an audience through the studio API, sending bodies the published schemas take", async () => {
    const token = await sandbox.token({ scopes: ALL_SCOPES });
    const sent: { method: string; path: string; body: unknown }[] = [];
    const client = createServiceClient({
      baseUrl: `${sandbox.url}/gtm`,
      audiencesBaseUrl: `${sandbox.url}/gtm/studio`,
      getAccessToken: async () => token,
      rateLimit: { perSecond: 2000 },
      retry: { baseDelayMs: 1 },
      ...clientTimeOn(clock),
      fetch: productionTransport(async (url, init) => {
        sent.push({ method: init.method, path: new URL(url).pathname, body: init.body === undefined ? undefined : (JSON.parse(init.body) as unknown) });
        const response = await fetch(url, { method: init.method, headers: init.headers, ...(init.body !== undefined ? { body: init.body } : {}) });
        return { status: response.status, headers: response.headers, text: () => response.text() };
      }),
    });
    await writeEnrichReadBack(client, clock);
    const checked = new Set<string>();
    for (const { method, path, body } of sent.filter((s) => s.body !== undefined)) {
      const operationId = OPERATIONS.find(([m, pattern]) => m === method && pattern.test(path))?.[2];
      assert.ok(operationId, `${method} ${path} is a published operation`);
      assert.deepEqual(requestErrors("studio", operationId, body), [], `${operationId}: ${JSON.stringify(body)}`);
      checked.add(operationId);
    }
    assert.equal(checked.size, OPERATIONS.length, `bodies of ${[...checked].join(", ")}`);
  });
});
