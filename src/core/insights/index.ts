// Insights (docs/signals.md, Insights): a list's insights on the bulk run with their cache, the
// kind of enrichment behind BIZ.INSIGHT, readable type names and the table's rows.
export { createInsights, isNewSince, seenIds, type InsightAsk, type Insights, type InsightsOptions, type InsightsResult } from "./insights.js";
export { INSIGHT_KIND, INSIGHT_OUTPUT_FIELDS, insightKind, recordInsights } from "./insightKind.js";
export { INSIGHT_TYPE_NAMES, insightTypeFromText, insightTypeName } from "./names.js";
export { INSIGHT_COLUMNS, NEW_HEADER, NEW_MARK, byNewest, insightDate, insightRecord, insightRows, type CompanyInsight } from "./rows.js";
export { NO_INSIGHT_MS, freshUntil, insightKey } from "./cache.js";
