// The BIZ functions in Node with a fake CustomFunctions runtime, the real client and the real
// sandbox over HTTP. Requests are counted at the sandbox; the credit ledger is the sandbox's.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createServiceClient, fetchTransport, type ServiceClient } from "../../src/core/api/index.js";
import { createEnrichmentEngine, toCellValue, type EnrichmentEngine } from "../../src/core/enrich/index.js";
import { COMPANY_OUTPUT_FIELDS, type CompanyOutputField } from "../../src/core/contract/index.js";
import { clientTimeOn, manualClock, startTestSandbox, useSandbox } from "../helpers/sandbox.js";
import { cellOutcome, invocation, loadFunctions } from "./fakeCustomFunctions.js";

const fns = await loadFunctions();

const ENRICH = "POST /data/v1/companies/enrich";
const FIELDS: CompanyOutputField[] = ["name", "revenue", "country", "certified"];

const sandbox = useSandbox();
let ids: number[];
/** Output fields of every enrich request sent, read from the request bodies. */
const sentFields: string[][] = [];

function client(token: string, extra: Partial<Parameters<typeof createServiceClient>[0]> = {}): ServiceClient {
  const transport = fetchTransport();
  return createServiceClient({
    baseUrl: sandbox.url,
    getAccessToken: async () => token,
    retry: { baseDelayMs: 5, maxDelayMs: 50 },
    fetch: async (url, request) => {
      if (url.endsWith("/companies/enrich") && request.body) {
        sentFields.push((JSON.parse(request.body) as { data: { attributes: { outputFields: string[] } } }).data.attributes.outputFields);
      }
      return transport(url, request);
    },
    ...extra,
  });
}

function engineFor(serviceClient: ServiceClient): EnrichmentEngine {
  const engine = createEnrichmentEngine({ client: serviceClient, windowMs: 5 });
  fns.configureFunctions({ engine, isSignedIn: () => true });
  return engine;
}

/** What the sandbox holds for these ids, as cells should show it. */
function expectedCells(idList: number[], fields: CompanyOutputField[]): Map<string, unknown> {
  const truth = sandbox.ctx.records.companyAttributes(idList, fields);
  const out = new Map<string, unknown>();
  for (const id of idList) {
    for (const field of fields) out.set(`${id}:${field}`, toCellValue(COMPANY_OUTPUT_FIELDS[field].type, truth.get(id)?.[field]));
  }
  return out;
}

/** 2,000 cells: every field of every id, as a sheet of 500 rows and 4 columns calculates. */
async function calculate(idList: number[], fields: string[]) {
  const cells = idList.flatMap((id) => fields.map((field) => ({ id, field })));
  const outcomes = await Promise.all(cells.map((c) => cellOutcome(fns.company(c.id, c.field, invocation()))));
  return cells.map((c, i) => ({ ...c, ...outcomes[i]! }));
}

before(async () => {
  const token = await sandbox.token();
  const search = client(token);
  ids = [];
  for (let page = 1; page <= 5; page++) {
    const result = await search.searchCompanies({}, { page, size: 100, sort: "name" });
    ids.push(...result.items.map((item) => Number(item.id)));
  }
  assert.equal(new Set(ids).size, 500);
});

after(async () => {
  fns.configureFunctions(undefined);
});

describe("BIZ functions against the sandbox", () => {
  it("resolves 2,000 cells over 500 ids and 4 fields with exactly 20 requests", async () => {
    engineFor(client(await sandbox.token()));
    sandbox.resetStats();
    sentFields.length = 0;
    const results = await calculate(ids, FIELDS);
    assert.equal(sandbox.requests(ENRICH), 20);
    const expected = expectedCells(ids, FIELDS);
    for (const cell of results) {
      assert.equal(cell.error, undefined, `${cell.id} ${cell.field}: ${cell.message}`);
      assert.deepEqual(cell.value, expected.get(`${cell.id}:${cell.field}`), `${cell.id} ${cell.field}`);
    }
    assert.ok(results.some((c) => typeof c.value === "number") && results.some((c) => typeof c.value === "boolean"));
    for (const fields of sentFields) assert.deepEqual([...fields].sort(), [...FIELDS].sort());
  });

  it("makes no request when the sheet calculates again", async () => {
    sandbox.resetStats();
    const results = await calculate(ids, FIELDS);
    assert.equal(sandbox.requests(ENRICH), 0);
    assert.ok(results.every((c) => c.error === undefined));
  });

  it("asks known ids only for a new field", async () => {
    sandbox.resetStats();
    sentFields.length = 0;
    const results = await calculate(ids, ["website", "name"]);
    assert.equal(sandbox.requests(ENRICH), 20);
    for (const fields of sentFields) assert.deepEqual(fields, ["website"]);
    const expected = expectedCells(ids, ["website"]);
    for (const cell of results.filter((c) => c.field === "website")) assert.equal(cell.value, expected.get(`${cell.id}:website`));
  });

  it("makes no request in value preview", async () => {
    sandbox.resetStats();
    // Known values come from the cache; an unknown field shows a placeholder; nothing is sent.
    const cached = await Promise.all(ids.slice(0, 10).map((id) => cellOutcome(fns.company(id, "name", invocation(true)))));
    assert.ok(cached.every((c) => typeof c.value === "string" && c.value.length > 0));
    const typing = await cellOutcome(fns.company(ids[0]!, "employeeRange", invocation(true)));
    assert.equal(typing.error, "#N/A");
    assert.equal(sandbox.requests(), 0);
  });
});

describe("BIZ.CONTACT and BIZ.COMPANYROW against the sandbox", () => {
  it("CONTACT reads contact fields, company fields nested under company, and lists as text", async () => {
    const serviceClient = client(await sandbox.token());
    engineFor(serviceClient);
    const page = await serviceClient.searchContacts({}, { size: 30 });
    const personIds = page.items.map((item) => Number(item.id));
    const fields = ["lastName", "jobTitle", "companyName", "companyId", "managementLevel", "directPhoneDoNotCall"];
    sandbox.resetStats();
    const results = await Promise.all(
      personIds.flatMap((id) => fields.map(async (field) => ({ id, field, ...(await cellOutcome(fns.contact(id, field, invocation()))) }))),
    );
    assert.equal(sandbox.requests("POST /data/v1/contacts/enrich"), 2);
    const truth = sandbox.ctx.records.contactAttributes(personIds, fields);
    for (const cell of results) {
      const record = truth.get(cell.id)!;
      const company = record.company as { id: number; name: string };
      const expected =
        cell.field === "companyName"
          ? company.name
          : cell.field === "companyId"
            ? company.id
            : cell.field === "managementLevel"
              ? ((record.managementLevel as string[] | undefined) ?? []).join("; ")
              : (record[cell.field] ?? "");
      assert.deepEqual(cell.value, expected, `${cell.id} ${cell.field}: ${cell.message ?? ""}`);
    }
  });

  it("COMPANYROW spills the fields in the order asked", async () => {
    engineFor(client(await sandbox.token()));
    const id = ids[42]!;
    const outcome = await cellOutcome(fns.companyRow(id, [["country", "name", "revenue"]], invocation()));
    const truth = sandbox.ctx.records.companyAttributes([id], ["country", "name", "revenue"]).get(id)!;
    assert.deepEqual(outcome.value, [[truth.country ?? "", truth.name, truth.revenue]]);
  });
});

describe("BIZ functions: every error case says what happened", () => {
  it("invalid id: #VALUE! without a request", async () => {
    engineFor(client(await sandbox.token()));
    sandbox.resetStats();
    for (const bad of ["", 12.5, "-7", -1]) {
      assert.deepEqual(await cellOutcome(fns.company(bad, "name", invocation())), {
        error: "#VALUE!",
        message: "Company id must be a whole number",
      });
    }
    assert.equal(sandbox.requests(), 0);
  });

  it("unknown field: #VALUE! listing the valid names, without a request", async () => {
    engineFor(client(await sandbox.token()));
    sandbox.resetStats();
    const outcome = await cellOutcome(fns.company(ids[0]!, "turnover", invocation()));
    assert.equal(outcome.error, "#VALUE!");
    assert.match(outcome.message!, /Unknown company field "turnover"\. Valid fields: id, name, ticker, website, socialMediaUrls, revenue/);
    assert.equal(sandbox.requests(), 0);
  });

  it("NO_MATCH: #N/A No company with id …", async () => {
    engineFor(client(await sandbox.token()));
    assert.deepEqual(await cellOutcome(fns.company(987654321, "name", invocation())), {
      error: "#N/A",
      message: "No company with id 987654321",
    });
  });

  it("LIMIT_EXCEEDED: #N/A no credits left for new records", async () => {
    await sandbox.setAccount("no-credits", 0);
    engineFor(client(await sandbox.token({ account: "no-credits" })));
    assert.deepEqual(await cellOutcome(fns.company(ids[7]!, "name", invocation())), {
      error: "#N/A",
      message: "Your account has no credits left for new records",
    });
  });

  it("not signed in: #N/A Sign in from the task pane", async () => {
    const engine = createEnrichmentEngine({ client: client(await sandbox.token()), windowMs: 5 });
    fns.configureFunctions({ engine, isSignedIn: () => false });
    sandbox.resetStats();
    assert.deepEqual(await cellOutcome(fns.company(ids[0]!, "name", invocation())), { error: "#N/A", message: "Sign in from the task pane" });
    assert.equal(sandbox.requests(), 0);
  });

  it("403: names the missing scope, and the missing role", async () => {
    engineFor(client(await sandbox.token({ scopes: ["api:data:contact"] })));
    const scope = await cellOutcome(fns.company(ids[1]!, "name", invocation()));
    assert.equal(scope.error, "#N/A");
    assert.match(scope.message!, /api:data:company/);
    engineFor(client(await sandbox.token({ roles: ["viewer"] })));
    const role = await cellOutcome(fns.company(ids[1]!, "name", invocation()));
    assert.equal(role.error, "#N/A");
    assert.match(role.message!, /role/);
  });

  it("server failure after retries: #N/A with the reason", async () => {
    engineFor(client(await sandbox.token(), { retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 5 } }));
    await sandbox.setFaults({ failRate: 1 });
    try {
      const outcome = await cellOutcome(fns.company(ids[2]!, "name", invocation()));
      assert.equal(outcome.error, "#N/A");
      assert.match(outcome.message!, /^Service unavailable: .*(problem|error|unavailable)/i);
    } finally {
      await sandbox.setFaults({ failRate: 0 });
    }
  });
});

describe("BIZ functions under faults", () => {
  it("with 20% failures and 429 bursts every cell settles, and no credit is charged twice", async () => {
    // 2 requests/s at the service and 30 ms latency: the client's first six requests (its
    // concurrency) leave before any answer tells it the limit, so the service answers 429s.
    // Client and sandbox share one manual clock: the client's waits move the sandbox's windows,
    // so the bursts and their 429s do not depend on how fast this machine is.
    const clock = manualClock((Math.floor(Date.now() / 3_600_000) + 1) * 3_600_000);
    const faulty = await startTestSandbox({ rateLimit: { perSecond: 2 }, faults: { latencyMs: 30 }, clock });
    try {
      await faulty.setAccount("faults", 100_000);
      const token = await faulty.token({ account: "faults" });
      const statuses = new Map<number, number>();
      const transport = fetchTransport();
      const serviceClient = createServiceClient({
        baseUrl: faulty.url,
        fetch: async (url, request) => {
          const response = await transport(url, request);
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          return response;
        },
        getAccessToken: async () => token,
        ...clientTimeOn(clock),
        // Faster than the sandbox allows, so it answers 429 in bursts.
        rateLimit: { perSecond: 200 },
        // Patience is counted on the shared clock, where waiting costs no real time.
        retry: { baseDelayMs: 5, maxDelayMs: 100, patienceMs: 600_000 },
      });
      const engine = createEnrichmentEngine({ client: serviceClient, windowMs: 5 });
      fns.configureFunctions({ engine, isSignedIn: () => true });
      await faulty.setFaults({ failRate: 0.2, seed: 7 });
      const idList = ids.slice(0, 200);
      const cells = idList.flatMap((id) => FIELDS.map((field) => ({ id, field })));
      const outcomes = await Promise.all(cells.map((c) => cellOutcome(fns.company(c.id, c.field, invocation()))));
      const truth = faulty.ctx.records.companyAttributes(idList, FIELDS);
      let values = 0;
      for (const [i, outcome] of outcomes.entries()) {
        const cell = cells[i]!;
        if (outcome.error) {
          assert.equal(outcome.error, "#N/A");
          assert.ok((outcome.message ?? "").length > 10, `a clear message for ${cell.id}: ${outcome.message}`);
        } else {
          values += 1;
          assert.deepEqual(outcome.value, toCellValue(COMPANY_OUTPUT_FIELDS[cell.field].type, truth.get(cell.id)?.[cell.field]));
        }
      }
      assert.ok(values > 0);
      // The faults really happened: server errors and 429 bursts.
      assert.ok((statuses.get(429) ?? 0) > 0, `429s seen: ${JSON.stringify([...statuses])}`);
      assert.ok(
        [...statuses.keys()].some((status) => status >= 500),
        `5xx seen: ${JSON.stringify([...statuses])}`,
      );
      assert.ok(faulty.requests("POST /data/v1/companies/enrich") > 8, "retries and 429s add requests");

      // Faults off: a recalculation fills what failed; nothing is ever charged twice.
      await faulty.setFaults({ failRate: 0 });
      const again = await Promise.all(cells.map((c) => cellOutcome(fns.company(c.id, c.field, invocation()))));
      assert.ok(again.every((o) => o.error === undefined));
      const ledger = (await (await fetch(`${faulty.url}/__sandbox/accounts/faults`)).json()) as {
        credits: number;
        initialCredits: number;
        ledger: Array<{ kind: string; id: number; charged: boolean }>;
      };
      const charged = ledger.ledger.filter((e) => e.charged).map((e) => e.id);
      assert.equal(new Set(charged).size, charged.length, "an id charged twice");
      assert.equal(ledger.initialCredits - ledger.credits, charged.length);
      assert.ok(charged.length <= idList.length);
    } finally {
      fns.configureFunctions(undefined);
      await faulty.close();
    }
  });
});
