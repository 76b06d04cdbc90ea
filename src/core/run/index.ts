export * from "./bulkRun.js";
