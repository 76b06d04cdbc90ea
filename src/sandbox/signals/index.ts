// Signals in the sandbox (docs/signals.md): intent, scoops, news and technologies, generated
// for every seeded company, and its hashtags, in both profiles.
export { signalRoutes } from "./routes.js";
export { productionSignalRoutes } from "./production.js";
export { declareKindData, type KindData } from "./kindData.js";
