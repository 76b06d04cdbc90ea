// Matching rules of the sandbox's enrichment (see rules.ts) and the seeded records that exercise them.
export { companyMatchRules, personMatchRules, type RuleMatch } from "./rules.js";
export { seedMatchCompanies, MATCH_COMPANIES, MATCH_COMPANY_IDS } from "./seed.js";
