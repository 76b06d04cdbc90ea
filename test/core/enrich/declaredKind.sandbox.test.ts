// A kind added the way a real one is, and nowhere else: its declaration (declareKind, as the
// built-in kinds are declared) and its sandbox data (declareKindData, as hashtags' are). With no
// other code, a cell shows it, Enrich selection offers and writes it, and both profiles of the
// sandbox serve it over real HTTP. Withdrawn afterwards, it leaves no trace for other tests.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Type, type Static } from "@sinclair/typebox";
import { createServiceClient, fetchTransport } from "../../../src/core/api/index.js";
import { productionTransport } from "../../../src/core/api/production/index.js";
import { SCOPES } from "../../../src/core/contract/index.js";
import {
  createEnrichmentEngine,
  declareKind,
  declaredKinds,
  planSelectionEnrichment,
  runSelectionEnrichment,
  type EnrichmentKind,
} from "../../../src/core/enrich/index.js";
import { companyIdOf, recordsByCompany } from "../../../src/core/enrich/kindDeclaration.js";
import { declareKindData } from "../../../src/sandbox/signals/index.js";
import { companyKindCell } from "../../../src/functions/signalCellsImpl.js";
import type { ConfigAccess, FunctionsConfig } from "../../../src/functions/config.js";
import { sandboxForTest } from "../../helpers/sandbox.js";

const GIZMOS_PATH = "/data/v1/companies/gizmos/enrich";
const GizmoRequest = Type.Object({
  data: Type.Object({ type: Type.Literal("GizmoEnrich"), attributes: Type.Object({ companyId: Type.Integer({ minimum: 1 }) }) }),
});
const GizmoDocument = Type.Object({
  data: Type.Array(Type.Object({ id: Type.String(), type: Type.Literal("Gizmo"), attributes: Type.Object({ label: Type.String() }) })),
});

/** The kind: a company's gizmos, one company a request, no credit. */
const gizmos: EnrichmentKind = {
  kind: "gizmos",
  label: "Gizmos",
  outputFields: { gizmoLabels: { label: "Gizmos", type: "string" }, gizmoCount: { label: "Gizmo count", type: "integer" } },
  defaultFields: ["gizmoLabels"],
  matchDefaultFields: ["gizmoLabels"],
  minimalFields: ["gizmoLabels", "gizmoCount"],
  companions: false,
  maxInputs: 1,
  spends: false,
  noun: "company",
  idLabel: "Company id",
  matchNouns: ["company", "companies"],
  matchKind: "company",
  idInput: (id) => ({ companyId: id }),
  async send(client, seal, options) {
    const { inputs } = seal();
    const [input] = inputs;
    const body: Static<typeof GizmoRequest> = { data: { type: "GizmoEnrich", attributes: { companyId: companyIdOf(input!) } } };
    const request = { ...(options.signal ? { signal: options.signal } : {}), ...(options.priority ? { priority: options.priority } : {}) };
    const doc = await client.postDocument!({ path: GIZMOS_PATH, body, document: GizmoDocument }, request);
    const labels = doc.data.map((g) => g.attributes.label);
    return recordsByCompany(inputs, () => ({ gizmoLabels: labels.join(", "), gizmoCount: labels.length }));
  },
  cached: (attributes) => attributes,
};

/**
 * Declares the kind and its sandbox data (two gizmos named after each seeded company) for the
 * tests of one describe, and withdraws both after them.
 */
function declaredForTheseTests(): void {
  const withdrawals: Array<() => void> = [];
  before(() => {
    withdrawals.push(declareKind(gizmos));
    withdrawals.push(
      declareKindData({
        operation: {
          id: "gizmosEnrich",
          method: "POST",
          specification: { path: GIZMOS_PATH, scopes: [SCOPES.company] },
          production: { path: GIZMOS_PATH, scopes: [SCOPES.company] },
          body: GizmoRequest,
          answer: GizmoDocument,
          credit: "none",
          idempotent: true,
          client: true,
        },
        answers(ctx) {
          const nameOf = ctx.db.prepare("SELECT name FROM companies WHERE id = ?");
          return (body) => {
            const row = nameOf.get((body as Static<typeof GizmoRequest>).data.attributes.companyId) as { name: string } | undefined;
            const labels = row ? [`${row.name} Mini`, `${row.name} Max`] : [];
            return { data: labels.map((label, i) => ({ id: `g${i}`, type: "Gizmo", attributes: { label } })) };
          };
        },
      }),
    );
  });
  after(() => withdrawals.forEach((withdraw) => withdraw()));
}

const PROFILES = [
  { profile: "specification" as const, path: "" },
  { profile: "production" as const, path: "/gtm" },
];

describe("a kind added by its declaration and its sandbox data only", () => {
  declaredForTheseTests();
  for (const { profile, path } of PROFILES) {
    it(`shows in a cell and in Enrich selection on the ${profile} profile`, async (t) => {
      const sandbox = await sandboxForTest(t, { companies: 50, contacts: 50, ...(profile === "production" ? { profile } : {}) });
      const token = await sandbox.token(profile === "production" ? { scopes: [SCOPES.company] } : {});
      const client = createServiceClient({
        baseUrl: `${sandbox.url}${path}`,
        getAccessToken: async () => token,
        ...(profile === "production" ? { fetch: productionTransport(fetchTransport()) } : {}),
      });
      const engine = createEnrichmentEngine({ client, windowMs: 2 });
      const name = (id: number) => (sandbox.ctx.db.prepare("SELECT name FROM companies WHERE id = ?").get(id) as { name: string }).name;

      // A cell (the functions' path for a kind keyed by company).
      const config: FunctionsConfig = { engine, isSignedIn: () => true };
      const access: ConfigAccess = { current: async () => config, now: () => config };
      assert.deepEqual(await companyKindCell(access, "gizmos", 3, ["gizmoLabels", "gizmoCount"], undefined), [`${name(3)} Mini, ${name(3)} Max`, 2]);

      // Enrich selection: the pane's list of kinds offers it; a column of ids gets its columns.
      assert.ok(declaredKinds().some((k) => k.kind === "gizmos" && k.label === "Gizmos"));
      const planned = await planSelectionEnrichment(engine, "gizmos", { address: "Sheet1!A1:A4", values: ["Company id", 1, 2, 1] }, ["gizmoLabels"]);
      assert.equal(planned.plan.requests, 2, "one company a request, each once");
      const { output } = await runSelectionEnrichment(engine, planned);
      assert.equal(output.headers[0], "Gizmos");
      assert.deepEqual(
        output.rows.map((row) => row[0]),
        [1, 2, 1].map((id) => `${name(id)} Mini, ${name(id)} Max`),
      );
      // Production's gateway hands each request to the data route (its statistics count it there).
      assert.equal(sandbox.requests(`POST ${GIZMOS_PATH}`) + sandbox.requests(`POST /gtm${GIZMOS_PATH}`), 3, "company 3 for the cell, then 1 and 2");
    });
  }
});
