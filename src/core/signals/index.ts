// Signals for many companies at once (docs/signals.md): the intent plan chooser, scoop batches
// and the values cells and columns show.
export * from "./intentPlan.js";
export * from "./scoopBatches.js";
export * from "./values.js";
export * from "./columns.js";
export * from "./importSignals.js";
export * from "./signalRecords.js";
