// `npm run bench`: runs every bench/*.ts module's exported bench* functions in one process,
// in file order, each printing its own figures side by side with its baseline.
// Pass names to run a subset: `npm run bench -- client enrich`. `chaos` names the fault runs:
// the cells in every calculation order (cells.ts, its last variant under faults) and the imports.
// A name selects the files it begins: `team` runs team.ts and team-relay.ts (the same team
// through the broker's relay with central pacing); `team-relay` runs that one alone.
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const ALIASES: Record<string, string[]> = { chaos: ["cells", "chaos-imports"] };
const only = process.argv.slice(2).flatMap((name) => ALIASES[name] ?? [name]);
const files = readdirSync(here)
  .filter((f) => f.endsWith(".ts") && f !== "run.ts")
  .filter((f) => only.length === 0 || only.some((name) => f.startsWith(name)))
  .sort();

console.log(`Benchmarks on ${process.platform} ${process.arch}, Node ${process.version}, ${new Date().toISOString()}`);
for (const file of files) {
  const mod = (await import(pathToFileURL(join(here, file)).href)) as Record<string, unknown>;
  for (const [name, value] of Object.entries(mod)) {
    if (name.startsWith("bench") && typeof value === "function") {
      console.log(`\n=== ${file}: ${name} ===`);
      const started = performance.now();
      await (value as () => Promise<void>)();
      console.log(`(${name} took ${((performance.now() - started) / 1000).toFixed(1)} s)`);
    }
  }
}
