// Audience-enrichment jobs: polling many on one timer, the user's remembered job list, and
// reading a finished job's rows.
export * from "./poller.js";
export * from "./trackedJob.js";
export * from "./storage.js";
export * from "./tracker.js";
export * from "./rows.js";
export * from "./format.js";
export * from "./startRequest.js";
export * from "./stream.js";
