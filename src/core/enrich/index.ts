// The enrichment pipeline and its parts, for the cell functions, the task pane and the runtime.
export { createEnrichmentEngine } from "./engine.js";
export type {
  CellRequestOptions,
  CellsResult,
  EnrichIdsOptions,
  EnrichIdsProgress,
  EnrichmentEngine,
  EnrichmentEngineOptions,
  InputAnswer,
  MatchResult,
  SelectionPlan,
} from "./engineTypes.js";
export { ENRICHMENT_KINDS, type EnrichmentKind } from "./enrichKinds.js";
export type { EnrichInput } from "./resolver.js";
export { cellContent, type MatchCriteria } from "./matchKeys.js";
export type { MatchMiss } from "./matchCache.js";
export { MemoryCacheStore, type CacheStore } from "./cacheStore.js";
export { MemorySpendStore, DEFAULT_DAILY_NEW_RECORD_CAP, type SpendState, type SpendStore } from "./spendGuard.js";
export { parseSpendState } from "./spendState.js";
export { fieldsProblem, type FieldEntitlements } from "./entitledFields.js";
export { problems, problemFromError, type CellProblem, type CellErrorCode, type ProblemKind } from "./problems.js";
export { toCellValue, type CellValue } from "./cellValues.js";
export { fieldNames, fieldSpec, parseRecordId, resolveFieldNames, OUTPUT_FIELDS, type EntityKind } from "./fields.js";
export { companyCard, COMPANY_CARD_FIELDS, type CompanyCard, type CardProperty } from "./card.js";
export {
  splitHeader,
  buildOutputColumns,
  STATUS_HEADER,
  type SelectionSource,
  type SelectedColumn,
  type ReadSelectionResult,
  type WriteColumnsRequest,
  type WriteColumnsResult,
  type SplitColumn,
  type OutputColumns,
} from "./selection.js";
export {
  MATCH_STATUS_HEADER,
  planSelectionEnrichment,
  retryChanges,
  runSelectionEnrichment,
  type SelectionEnrichmentPlan,
  type SelectionRunResult,
  type UnmatchedRow,
} from "./selectionRun.js";
export {
  detectMatchContent,
  shiftColumns,
  splitMatchHeader,
  type MatchContent,
  type NeighbourValues,
  type SelectionMode,
} from "./selectionInputs.js";
