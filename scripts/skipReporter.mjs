// A node:test reporter for scripts/test.mjs: one JSON line per test or suite that did not run
// ({"file", "name", "type", "reason"}). Node 20 leaves a skipped describe out of "# skipped"
// (its tests are never registered), so the run counts skips from here.
export default async function* skipReporter(source) {
  for await (const event of source) {
    if (event.type !== "test:pass" && event.type !== "test:fail") continue;
    const { skip, name, file, details } = event.data;
    if (skip === undefined || skip === false) continue;
    yield `${JSON.stringify({ file: file ?? null, name, type: details?.type === "suite" ? "suite" : "test", reason: typeof skip === "string" ? skip : "" })}\n`;
  }
}
