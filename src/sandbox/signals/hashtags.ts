// Hashtag enrich (the data API's POST /data/v1/companies/hashtags/enrich), in both profiles: a
// company's hashtags are the ones it was seeded with (the search's hashTagString filter reads
// the same tags), each read as the service publishes it: a label, its group and parent
// category, a description and a priority. One company a request; no credit.
import { HashtagEnrichRequest, operation, validateHashtagBody } from "../../core/contract/index.js";
import { declareKindData, declaredKindRoutes, productionDeclaredKindRoutes } from "./kindData.js";

/** Each seeded hashtag's group and parent category (sandbox/data/reference.ts HASHTAGS). */
const HASHTAG_GROUPS: Record<string, { group: string; category: string }> = {
  hiring: { group: "Hiring Activity", category: "Growth" },
  "remote-work": { group: "Workplace", category: "Company Attributes" },
  ai: { group: "Technology Focus", category: "Technology" },
  saas: { group: "Business Model", category: "Company Attributes" },
  fintech: { group: "Technology Focus", category: "Technology" },
  cybersecurity: { group: "Technology Focus", category: "Technology" },
  sustainability: { group: "Corporate Responsibility", category: "Company Attributes" },
  esg: { group: "Corporate Responsibility", category: "Company Attributes" },
  diversity: { group: "Corporate Responsibility", category: "Company Attributes" },
  expansion: { group: "Company Growth", category: "Growth" },
  acquisition: { group: "Corporate Events", category: "Growth" },
  ipo: { group: "Corporate Events", category: "Growth" },
  "cloud-migration": { group: "Technology Focus", category: "Technology" },
  "digital-transformation": { group: "Technology Focus", category: "Technology" },
  layoffs: { group: "Workforce Changes", category: "Workforce" },
};

/** "cloud-migration" -> "Cloud Migration" ("ai", "esg", "ipo" and "saas" in capitals). */
function labelOf(id: string): string {
  if (["ai", "esg", "ipo", "saas"].includes(id)) return id.toUpperCase();
  return id
    .split("-")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
}

/** A hashtag as the service publishes it (HashtagEnrichResponseResource). */
function hashtagItem(id: string, index: number) {
  const { group, category } = HASHTAG_GROUPS[id] ?? { group: "Other", category: "Other" };
  const label = labelOf(id);
  return {
    id: `#${id}`,
    type: "Hashtag",
    attributes: {
      label,
      displayLabel: label,
      description: `This company is tagged ${label}`,
      group,
      parentCategory: category,
      priority: 100 - index,
      displayScore: "yes",
      searchString: id.replace(/-/g, " "),
      categorizedFlag: true,
      hidden: false,
    },
  };
}

/** The hashtags' data: each company's seeded tags, as the service publishes them. */
declareKindData({
  operation: operation("hashtagsEnrich"),
  check: validateHashtagBody,
  answers(ctx) {
    const tagsOf = ctx.db.prepare("SELECT value FROM company_tags WHERE company_id = ? AND kind = 'hashtag' ORDER BY value");
    return (body) => {
      const ids = (tagsOf.all((body as HashtagEnrichRequest).data.attributes.companyId) as { value: string }[]).map((row) => row.value);
      return { data: ids.map(hashtagItem), meta: { totalResults: ids.length } };
    };
  },
});

/** The routes of every declared kind's data (kindData.ts), hashtags among them, on each profile. */
export { declaredKindRoutes as hashtagRoutes, productionDeclaredKindRoutes as productionHashtagRoutes };
