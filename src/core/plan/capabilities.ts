// What the pane and the cells may ask of the plan, and which role grants each (docs/entitlements.md).
// A capability is granted by any one of its roles; a limit (value a number) grants it while above 0.
// Credit limits are the twin's own codes (the service does not publish them): a plan that does not
// list one sets no limit, and only a limit of 0 refuses.
import { ROLES, type RecordKind } from "../contract/index.js";

export const KIND_CAPABILITIES = ["company", "contact"] as const;
export const SIGNAL_CAPABILITIES = ["intent", "scoops", "news", "technologies"] as const;
export const RESEARCH_CAPABILITIES = ["briefing", "questions", "lookalikes"] as const;
export const LIMIT_CAPABILITIES = ["bulkCredits", "aiCredits", "audienceWrites"] as const;

export type KindCapability = (typeof KIND_CAPABILITIES)[number];
export type SignalCapability = (typeof SIGNAL_CAPABILITIES)[number];
export type ResearchCapability = (typeof RESEARCH_CAPABILITIES)[number];
export type LimitCapability = (typeof LIMIT_CAPABILITIES)[number];
/** A search filter field of a record kind, e.g. "filter:company:revenueMin". */
export type FilterCapability = `filter:${RecordKind}:${string}`;
export type Capability = KindCapability | SignalCapability | ResearchCapability | LimitCapability | "insights" | FilterCapability;

export interface CapabilityRule {
  /** Any one of these role codes grants it. */
  roles: readonly string[];
  /** What it is, in a sales-ops user's words (the reason names it). */
  label: string;
  /** Whether the label is plural ("are not in your plan"). */
  plural: boolean;
  /** A limit the service may not list (the twin's own credit codes): absent is no limit, only 0 refuses. */
  optionalLimit?: boolean;
  /**
   * Granted by codes the service does not publish (the signal kinds': the twin's own). They are
   * judged only in a plan that lists one of those codes; a plan that lists none of them (the
   * real service's, as far as it is published) allows the kind, and its refusals teach.
   */
  unpublished?: boolean;
}

const DATA = [ROLES.dataApi, ROLES.dataZia];
const rule = (roles: readonly string[], label: string, plural = true, optionalLimit = false): CapabilityRule => ({
  roles,
  label,
  plural,
  ...(optionalLimit ? { optionalLimit } : {}),
});

/** The signal kinds' role codes, which the service does not publish. */
export const UNPUBLISHED_CODES: readonly string[] = [ROLES.intent, ROLES.scoops, ROLES.news, ROLES.technologies];
const signalRule = (roles: readonly string[], label: string, plural = true): CapabilityRule => ({ ...rule(roles, label, plural), unpublished: true });

export const CAPABILITY_RULES: Record<Exclude<Capability, FilterCapability>, CapabilityRule> = {
  company: rule(DATA, "Company data", false),
  contact: rule(DATA, "Contact data", false),
  intent: signalRule([ROLES.intent], "Intent signals"),
  scoops: signalRule([ROLES.scoops], "Scoops"),
  news: signalRule([ROLES.news], "Company news", false),
  technologies: signalRule([ROLES.technologies], "Technologies"),
  briefing: rule([ROLES.accountSummary], "Briefings"),
  questions: rule([ROLES.askAccount], "Questions on an account"),
  lookalikes: rule(DATA, "Similar companies and contacts"),
  insights: rule([ROLES.insights], "Insights"),
  audienceWrites: rule([ROLES.audiences], "Creating and changing audiences", false),
  bulkCredits: rule([ROLES.bulkCredits], "Credits for new records", true, true),
  aiCredits: rule([ROLES.aiCredits], "AI action credits", true, true),
};

export function isFilterCapability(capability: Capability): capability is FilterCapability {
  return capability.startsWith("filter:");
}

/** The filter capability of a record kind's search field. */
export const filterCapability = (kind: RecordKind, field: string): FilterCapability => `filter:${kind}:${field}`;

/** The capability an enrichment kind needs (by the kind's name); undefined for a kind the plan does not govern. */
const KIND_NEEDS: Readonly<Record<string, Exclude<Capability, FilterCapability>>> = {
  company: "company",
  contact: "contact",
  hashtags: "company",
  intent: "intent",
  scoops: "scoops",
  news: "news",
  technologies: "technologies",
  // BIZ.INSIGHT's kind (core/insights), when an engine declares it.
  insights: "insights",
};

export function kindCapability(kind: string): Exclude<Capability, FilterCapability> | undefined {
  return Object.hasOwn(KIND_NEEDS, kind) ? KIND_NEEDS[kind] : undefined;
}
