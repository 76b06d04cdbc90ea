// Production's dialect of the service, spoken at the transport edge (see edge.ts).
export { productionTransport, type ProductionEdgeOptions, type ProductionTransport } from "./edge.js";
export { translateJson, translateSort, translateUrl } from "./wireNames.js";
export { isEndOfPages, pageCount, errorCodesOf } from "./paging.js";
export { gatewayUserMessage } from "./gatewayMessages.js";
export { collectAudienceList, contractMeta, normalizeAudience, rowsSearchUrl } from "./studioAudiences.js";
export {
  createEntitlementCache,
  entitledFieldNames,
  entitlementLookupPath,
  type EntitlementCache,
  type EntityKind,
  type FieldPartition,
} from "./entitlements.js";
