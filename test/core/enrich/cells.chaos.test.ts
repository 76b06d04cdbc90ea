// Chaos: 2,000 enrichment cells (1,000 company ids x 2 fields) calculated in three orders against
// the real sandbox answering 20% of requests with 503 and dropping 2% of connections (a fixed
// fault seed). Every cell settles, no record is charged twice, and the requests the engine sends
// stay within 1.10 x the floor (ceil(1,000 / 25) = 40) whatever the order. Between parts of a
// calculation the test awaits the next request leaving, never a timer; the client's backoff and
// pacing wait on a manual clock the sandbox shares, so they pass without waiting.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createServiceClient, fetchTransport, type Transport } from "../../../src/core/api/index.js";
import { RequestHooks } from "../../../src/core/api/hooks.js";
import { PATHS } from "../../../src/core/contract/index.js";
import { createEnrichmentEngine } from "../../../src/core/enrich/index.js";
import { calculate, type CalcOrder } from "../../helpers/cellOrders.js";
import { clientTimeOn, manualClock, startTestSandbox, type TestSandbox } from "../../helpers/sandbox.js";

const IDS = 1000;
const FIELDS = ["name", "revenue"];
const FLOOR = Math.ceil(IDS / 25);
const ORDERS: CalcOrder[] = ["row by row", "column by column", "random waves"];

describe("enrichment cells under faults, in any calculation order", () => {
  let sandbox: TestSandbox;
  let ids: number[];
  const clock = manualClock();
  const time = clientTimeOn(clock);

  before(async () => {
    sandbox = await startTestSandbox({ companies: 1200, contacts: 50, clock });
    const token = await sandbox.token();
    const setup = createServiceClient({ baseUrl: sandbox.url, getAccessToken: async () => token, rateLimit: { perSecond: 1000 } });
    ids = [];
    for await (const page of setup.iterateCompanies({}, { pageSize: 100, maxResults: IDS })) ids.push(...page.items.map((item) => Number(item.id)));
    assert.equal(ids.length, IDS);
    await sandbox.setFaults({ failRate: 0.2, resetRate: 0.02, seed: 4242 });
  });
  after(async () => {
    await sandbox.setFaults({ failRate: 0, resetRate: 0 });
    await sandbox.close();
  });

  for (const order of ORDERS) {
    it(`${order}: every cell settles, no record is charged twice, at most 1.10 x the floor of requests`, async () => {
      const account = `chaos-${order.replace(/ /g, "-")}`;
      await sandbox.setAccount(account, 100_000);
      const token = await sandbox.token({ account });
      // Logical requests (a retry is the same request), counted as they enter the client.
      const hooks = new RequestHooks();
      let requests = 0;
      hooks.wrap((send, spec) => {
        if (spec.operation === `POST ${PATHS.enrichCompanies}`) requests += 1;
        return send(spec);
      });
      // The event that separates parts of the calculation: an enrichment request leaving.
      const waiting: Array<() => void> = [];
      const http = fetchTransport();
      const transport: Transport = (url, init) => {
        if (url.endsWith(PATHS.enrichCompanies)) waiting.splice(0).forEach((wake) => wake());
        return http(url, init);
      };
      const client = createServiceClient({
        baseUrl: sandbox.url,
        getAccessToken: async () => token,
        fetch: transport,
        hooks,
        retry: { baseDelayMs: 20, maxDelayMs: 100 },
        ...time,
      });
      const engine = createEnrichmentEngine({ client, dailyNewRecordCap: 100_000, clock: time.clock });
      // Or, when nothing more will leave, until the cells called so far have settled.
      const nextRequestLeaves = (calledSoFar: Promise<unknown>) =>
        Promise.race([new Promise<void>((resolve) => waiting.push(resolve)), calledSoFar.then(() => undefined)]);

      const outcome = await calculate(order, ids, FIELDS, (cell) => engine.getCells("company", cell.id, cell.field).then((r) => r.ok), nextRequestLeaves);
      await engine.whenIdle();

      assert.equal(outcome.settled, IDS * FIELDS.length, "every cell settled");
      assert.ok(outcome.ok > 0);
      const summary = (await (await fetch(`${sandbox.url}/__sandbox/accounts/${account}`)).json()) as {
        credits: number;
        initialCredits: number;
        underManagement: { company: number };
      };
      // Each credit puts one record under management: a record charged twice would spend more.
      const spent = summary.initialCredits - summary.credits;
      assert.equal(spent, summary.underManagement.company, "no record charged twice");
      assert.ok(spent <= IDS);
      assert.ok(spent >= outcome.ok / FIELDS.length, "every record that gave a value was charged once");
      assert.ok(requests <= FLOOR * 1.1, `${requests} requests for a floor of ${FLOOR}`);
    });
  }
});
