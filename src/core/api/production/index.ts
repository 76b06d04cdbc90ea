// Production's dialect of the service, spoken at the transport edge (see edge.ts).
export { productionTransport, type ProductionEdgeOptions, type ProductionTransport } from "./edge.js";
export { translateJson, translateName, translateSort, translateUrl, PRODUCTION_WIRE_NAMES } from "./wireNames.js";
export { isEndOfPages, pageCount, errorCodesOf, PAST_THE_END_CODE } from "./paging.js";
export { gatewayUserMessage } from "./gatewayMessages.js";
export { collectAudienceList, contractMeta, normalizeAudience, rowsSearchUrl, TEXT_DATA_TYPE } from "./studioAudiences.js";
export {
  createEntitlementCache,
  entitledFieldNames,
  entitlementLookupPath,
  unentitledFieldMessage,
  type EntitlementCache,
  type EntityKind,
  type FieldPartition,
} from "./entitlements.js";
