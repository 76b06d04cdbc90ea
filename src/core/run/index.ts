export * from "./bulkRun.js";
export * from "./lanes.js";
