// The service client's public surface.
export { createClientContext, createServiceClient } from "./client.js";
export { callOperation, sendOperation, tableCaller, type OperationArgs, type OperationId } from "./operationCall.js";
export {
  ServiceError,
  ValidationError,
  UnauthorizedError,
  PaymentRequiredError,
  ForbiddenError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  InvalidResponseError,
  errorFromResponse,
  isServiceError,
  serviceError,
  parseRetryAfter,
} from "./errors.js";
export { shouldRetry, backoffDelay, DEFAULT_RETRY } from "./retry.js";
export { fetchTransport } from "./client.js";
export { every, systemClock } from "./clock.js";
export { redactText, redactValue } from "./redact.js";
export { supportDetails } from "./supportDetails.js";
export { catalogUserMessage } from "./catalogMessages.js";
export { createFieldEntitlements, type FieldEntitlementCache } from "./fieldEntitlements.js";
export { outcomeOf } from "./enrichOperations.js";
export type * from "./types.js";
export type * from "./audienceWriteTypes.js";
export type * from "./hierarchyTypes.js";
export type * from "./insightTypes.js";
export { CONTACT_RESEARCH_NOT_OFFERED } from "./researchOperations.js";
export type { PacingStatus } from "./rateLimiter.js";
export { budgetShortfall, type BudgetReading, type TenantBudgets } from "./budgets.js";
export { errorText } from "./userText.js";
