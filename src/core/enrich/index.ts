// The enrichment engine and its parts, for the cell functions, the task pane and the runtime.
export { createEnrichmentEngine } from "./engine.js";
export type {
  CellRequestOptions,
  CellsResult,
  EnrichIdsOptions,
  EnrichIdsProgress,
  EnrichmentEngine,
  EnrichmentEngineOptions,
  SelectionPlan,
} from "./engineTypes.js";
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
  planSelectionEnrichment,
  runSelectionEnrichment,
  type SelectionEnrichmentPlan,
  } from "./selectionRun.js";
