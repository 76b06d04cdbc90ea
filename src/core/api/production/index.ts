// Production's dialect of the service, spoken at the transport edge (see edge.ts); its names,
// codes and documents are the contract's (core/contract/production.ts).
export { productionTransport } from "./edge.js";
export { translateJson, translateSort, translateUrl } from "./wireNames.js";
export { isPastLastPage, pageCount } from "./paging.js";
export { collectAudienceList, contractMeta, normalizeAudience } from "./studioAudiences.js";
