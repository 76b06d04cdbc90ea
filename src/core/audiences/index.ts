// Audiences from a sheet (docs/audiences-addin.md): the mapping, the plan, the send, its result
// on the sheet, and bringing the enriched columns back.
export * from "./port.js";
export * from "./mapping.js";
export * from "./links.js";
export * from "./target.js";
export * from "./plan.js";
export * from "./upload.js";
export * from "./send.js";
export * from "./sendResults.js";
export * from "./sheetPort.js";
export * from "./bringBack.js";
export * from "./existing.js";
