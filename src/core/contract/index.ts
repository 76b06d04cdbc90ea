// The contract: TypeBox schemas of every request and document, and the shared validator.
export * from "./common.js";
export { timerClock, type Clock } from "./clock.js";
export * from "./fields.js";
export * from "./search.js";
export * from "./enrich.js";
export * from "./account.js";
export * from "./validate.js";
export * from "./validateSearch.js";
export * from "./rowSearch.js";
export * from "./production.js";
export * from "./signals.js";
export * from "./signalDocuments.js";
export * from "./research.js";
export * from "./audienceWrite.js";
export * from "./audienceWriteCells.js";
export * from "./hashtags.js";
export * from "./operations.js";
