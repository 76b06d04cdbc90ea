// Research and lookalikes for the task pane and the cells (docs/research-addin.md).
export * from "./port.js";
export * from "./listRun.js";
export * from "./lookalikes.js";
export * from "./recommendations.js";
export * from "./contactNames.js";
export * from "./briefingStore.js";
export * from "./aiCredits.js";
export * from "./research.js";
export * from "./columns.js";
