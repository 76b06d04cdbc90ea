// Insights (issue 43): the copilot API's curated buying signals for up to 50 companies
// (gtm-copilot-v1, POST /copilot/v1/companies/insights): funding, leadership changes, intent
// spikes, hiring, website visits, renewals... each with its type, date, expiry and a payload of
// its own whose displayText and date every type has. Scope api:insights:read, role fea:gtmpl.
// Requests are checked strictly; answers are read openly, in the shape the service publishes.
import { Type, type Static } from "@sinclair/typebox";

export const INSIGHTS_PATH = "/copilot/v1/companies/insights";
export const INSIGHTS_SCOPE = "api:insights:read";
export const INSIGHTS_ROLE = "fea:gtmpl";
/** Companies in one request (the service's maxItems). */
export const INSIGHTS_MAX_COMPANIES = 50;

/** Every signal type the service publishes (its SignalType enum), in its order. */
export const INSIGHT_TYPES = [
  "zi.funding",
  "zi.cxochange",
  "zi.scoop",
  "zi.websights",
  "zi.buyingcommitteechange",
  "zi.account-level-intent.spike",
  "zi.intent.competitor.spike",
  "zi.mpocchange",
  "zi.g2",
  "zi.trustradius",
  "zi.anomaloushiring",
  "zi.formcomplete",
  "zi.podcastmentions",
  "zi.marketingcampaigns",
  "zi.technology",
  "zi.seniorjobpostings",
  "zi.personwebsights",
  "zi.personbasednews",
  "zi.wondeal",
  "zi.newcontactpreviouslyworkedforcustomer",
  "zi.personchange",
  "zi.upcomingmeeting",
  "zi.lowactivecontacts",
  "zi.nodecisionmaker",
  "zi.nopostmeetingfollowup",
  "zi.upcomingrenewal",
  "zi.m&a",
  "zi.productlaunch",
  "zi.earnings",
  "zi.partnership",
  "zi.layoffs",
  "zi.painpoint",
  "zi.divestiture",
  "zi.ipo",
  "zi.award",
  "zi.project",
] as const;
export type InsightType = (typeof INSIGHT_TYPES)[number];

const companyId = () => Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });

export const InsightsRequest = Type.Object(
  {
    data: Type.Object(
      {
        type: Type.Literal("CompanyInsightsSearch"),
        attributes: Type.Object(
          {
            ziCompanyIds: Type.Array(companyId(), { minItems: 1, maxItems: INSIGHTS_MAX_COMPANIES }),
            signalTypes: Type.Optional(Type.Array(Type.Union(INSIGHT_TYPES.map((t) => Type.Literal(t))), { maxItems: INSIGHT_TYPES.length })),
          },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type InsightsRequest = Static<typeof InsightsRequest>;

/** What every type's payload has; the rest is the type's own (read openly). */
export const InsightPayload = Type.Object({ displayText: Type.String(), date: Type.String() }, { additionalProperties: true });

export const Insight = Type.Object(
  {
    id: Type.Optional(Type.Integer()),
    ziCompanyId: Type.Integer(),
    signalId: Type.String(),
    signalType: Type.String(),
    signalPayload: InsightPayload,
    insightDate: Type.Optional(Type.String()),
    expiresAt: Type.Optional(Type.String()),
    createdAt: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);
export type Insight = Static<typeof Insight>;

export const InsightsDocument = Type.Object(
  {
    data: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          type: Type.Literal("CompanyInsights"),
          attributes: Type.Object({ insights: Type.Array(Insight) }, { additionalProperties: true }),
        },
        { additionalProperties: true },
      ),
    ),
  },
  { additionalProperties: true },
);
export type InsightsDocument = Static<typeof InsightsDocument>;

/** The request for these companies (ids as the service's integers) and, if any, these types. */
export function insightsRequest(companyIds: readonly number[], types: readonly InsightType[] = []): InsightsRequest {
  return {
    data: {
      type: "CompanyInsightsSearch",
      attributes: { ziCompanyIds: [...companyIds], ...(types.length > 0 ? { signalTypes: [...types] } : {}) },
    },
  };
}
