// The enrichment pipeline and its parts, for the cell functions, the task pane and the runtime.
export { createEnrichmentEngine } from "./engine.js";
export type {
  CellRequestOptions,
  CellsResult,
  CellValue,
  EnrichIdsOptions,
  EnrichIdsProgress,
  EnrichmentEngine,
  EnrichmentEngineOptions,
  InputAnswer,
  MatchResult,
  RecordsResult,
  SelectionPlan,
} from "./engineTypes.js";
export { cellContent, type EnrichInput, type MatchCriteria } from "./resolver.js";
export { MemoryCacheStore, MANAGEMENT_WINDOW_MS, type CacheStore, type MatchMiss } from "./caches.js";
export { MemorySpendStore, DEFAULT_DAILY_NEW_RECORD_CAP, parseSpendState, type SpendState, type SpendStore } from "./spendReservations.js";
export {
  cellProblem,
  fieldsProblem,
  problemRowStatus,
  problems,
  problemFromError,
  type CellProblem,
  type CellErrorCode,
  type FieldEntitlements,
  type ProblemKind,
} from "./problems.js";
export { toCellValue } from "./answers.js";
export {
  ENRICHMENT_KINDS,
  declareKind,
  declaredKind,
  declaredKinds,
  fieldNames,
  fieldSpec,
  parseRecordId,
  resolveFieldNames,
  OUTPUT_FIELDS,
  type EnrichmentKind,
  type EntityKind,
  type KindName,
} from "./enrichKinds.js";
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
  blankListRows,
  matchFieldsBeside,
  missingInputText,
  planSelectionEnrichment,
  unmatchableRows,
  retryChanges,
  runSelectionEnrichment,
  type SelectionEnrichmentPlan,
  type SelectionRunOptions,
  type SelectionRunResult,
  type UnmatchedRow,
} from "./selectionRun.js";
export { detectMatchContent, shiftColumns, splitMatchHeader, type MatchContent, type NeighbourValues, type SelectionMode } from "./selectionInputs.js";
export { withCandidates, CANDIDATE_ROWS, CANDIDATES_PER_ROW, type Candidate, type CandidateSearch } from "./candidates.js";
