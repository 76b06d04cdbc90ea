// One kind of sandbox feature: a Fastify plugin over the app's shared dependencies (the context,
// the stores, the searcher, the limiter), registered on the app itself (not encapsulated) so its
// routes share the app's API hook, validation and error handler. The app lists every plugin
// once (plugins.ts).
import type { FastifyInstance, FastifyPluginAsync } from "fastify";
import type { RouteDependencies } from "./routeDependencies.js";

/** A feature's routes (and hooks) over the shared dependencies. */
export type SandboxFeature = (app: FastifyInstance, d: RouteDependencies) => Promise<void> | void;

export type SandboxPlugin = FastifyPluginAsync<RouteDependencies>;

/** A feature as a Fastify plugin of the app's own scope (as fastify-plugin marks one). */
export function sandboxPlugin(name: string, feature: SandboxFeature): SandboxPlugin {
  const plugin: SandboxPlugin = async (app, d) => {
    await feature(app, d);
  };
  Object.assign(plugin, { [Symbol.for("skip-override")]: true, [Symbol.for("fastify.display-name")]: name });
  return plugin;
}
