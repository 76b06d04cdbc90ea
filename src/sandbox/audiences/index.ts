// The audiences feature: tables, seeded audiences, routes and the background job engine.
import type { SandboxFeature } from "../plugin.js";
import { recordMatchers } from "../routes/enrich.js";
import { JobEngine } from "./engine.js";
import { registerAudienceRoutes } from "./routes.js";
import { seedAudiences } from "./seed.js";
import { AudienceStore } from "./store.js";
import { registerAudienceWriteRoutes } from "./writeRoutes.js";
import { AudienceWrites } from "./writes.js";

export const audiencesFeature: SandboxFeature = async (app, { ctx, operations }) => {
  const store = new AudienceStore(ctx.db);
  seedAudiences(store, ctx.records, ctx.options.seed);
  const engine = new JobEngine({
    store,
    records: ctx.records,
    credits: ctx.credits,
    rowsPerSecond: () => ctx.options.jobRowsPerSecond,
    clock: ctx.clock,
    matchers: recordMatchers(ctx.db),
    onTick: () => ctx.jobEvents.dispatchEvent(new Event("jobs")),
  });
  registerAudienceRoutes(app, { ctx, store, engine, operations });
  const writes = new AudienceWrites(store, () => new Date(ctx.clock.now()).toISOString());
  registerAudienceWriteRoutes(app, { store, writes, operations });
  // Stop the loop before the database closes; jobs left RUNNING resume on the next start.
  app.addHook("onClose", async () => engine.stop());
  engine.start();
};
