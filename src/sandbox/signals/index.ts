// Signals in the sandbox (docs/signals.md): intent, scoops, news and technologies, generated
// for every seeded company, in both profiles.
export { signalRoutes } from "./routes.js";
export { productionSignalRoutes } from "./production.js";
