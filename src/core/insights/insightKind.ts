// A company's insights as a kind of enrichment, for the cell BIZ.INSIGHT (docs/signals.md): keyed
// by the company id (a website or name is matched first, in the same pass), every type at once,
// up to 50 companies a request gathered from every cell, deduplicated, free (no credit, nothing
// counted), and cached until the first of the company's insights expires (a company without any
// for a day), so a recalculation sends nothing. The record holds the insights, newest first.
import type { Insight, OutputFieldSpec } from "../contract/index.js";
import { INSIGHTS_MAX_COMPANIES } from "../contract/index.js";
import { callOptions, COMPANY_KEYED, companyIdOf, recordsByCompany, type EnrichClient, type EnrichmentKind } from "../enrich/kindDeclaration.js";
import { freshUntil } from "./cache.js";
import { insightDate } from "./rows.js";

export const INSIGHT_KIND = "insights";

export const INSIGHT_OUTPUT_FIELDS = {
  insights: { label: "Insights (rows)", type: "list" },
} as const satisfies Record<string, OutputFieldSpec>;

const newestFirst = (a: Insight, b: Insight) => insightDate(b).localeCompare(insightDate(a));

function insightsClient(client: EnrichClient): Required<Pick<EnrichClient, "companyInsights">> {
  if (!client.companyInsights) throw new Error("This client has no insights operation.");
  return client as Required<Pick<EnrichClient, "companyInsights">>;
}

/** A record's insights as the cache holds them (anything else: none). */
export const recordInsights = (value: unknown): Insight[] => (Array.isArray(value) ? (value as Insight[]) : []);

export const insightKind: EnrichmentKind = {
  kind: INSIGHT_KIND,
  label: "Insights",
  outputFields: INSIGHT_OUTPUT_FIELDS,
  defaultFields: ["insights"],
  matchDefaultFields: ["insights"],
  minimalFields: ["insights"],
  companions: false,
  maxInputs: INSIGHTS_MAX_COMPANIES,
  spends: false,
  ...COMPANY_KEYED,
  async send(client, seal, options) {
    const { inputs } = seal();
    const request = callOptions(options);
    const insights = await insightsClient(client).companyInsights(inputs.map(companyIdOf), [], request);
    return recordsByCompany(inputs, (id) => ({ insights: insights.filter((i) => i.ziCompanyId === id).sort(newestFirst) }));
  },
  cached: (attributes) => attributes,
  freshUntil: (attributes, now) => freshUntil(recordInsights(attributes.insights), now),
};
