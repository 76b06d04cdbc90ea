// Accounts as they are structured (docs/accounts.md): a company's corporate family as a kind of
// enrichment, a list rolled up by family, and buying committees fetched for a list of accounts
// and kept for the cells.
export { HIERARCHY_KIND, HIERARCHY_OUTPUT_FIELDS, hierarchyAttributes, hierarchyKind } from "./hierarchyKind.js";
export { COMMITTEE_KEY_PREFIX, createCommitteeStore, departmentKey, topByTier, type CommitteeStore, type StoredCommittee } from "./committeeStore.js";
export {
  estimateCommittees,
  fetchCommittees,
  type CommitteeClient,
  type CommitteePlan,
  type CommitteesResult,
  type FetchCommitteesOptions,
} from "./committees.js";
export { familySummaries, familySummaryTable, NO_FAMILY, type FamilySummary, type RollUpRow } from "./rollUp.js";
