// Requirement sets: every member of Office, Excel, OfficeRuntime and CustomFunctions that src/
// (not the sandbox or the broker) uses, with the `[Api set: …]` of the official typings, is within
// the sets manifest.xml requires, or guarded by a run-time check (docs/excel-host.md). Read with
// the TypeScript compiler (test/office/apiSets.ts); the test prints what it found.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { XMLParser } from "fast-xml-parser";
import type ts from "typescript";
import { apiUses, createProgram, OPTIONAL_READ, parseApiSetTag, setText, sourceFiles, unguardedUses, type ApiSet, type ApiUse } from "./apiSets.js";

const root = join(import.meta.dirname, "..", "..");

/** The sets manifest.xml requires (<Requirements><Sets><Set Name MinVersion>). */
function declaredSets(xml: string): ApiSet[] {
  const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", isArray: (name) => name === "Set" }).parse(xml);
  const sets = parsed.OfficeApp.Requirements.Sets;
  return (sets.Set as Array<{ Name: string; MinVersion?: string }>).map((set) => ({
    name: set.Name,
    version: set.MinVersion ?? sets.DefaultMinVersion ?? "1.1",
  }));
}

/** Files the check reads: those of src/ that name a host namespace, and the capability module. */
function checkedFiles(): string[] {
  const host = /\b(Office|Excel|OfficeRuntime|CustomFunctions)\./;
  return sourceFiles(join(root, "src"), ["sandbox", "broker"]).filter((file) => host.test(readFileSync(file, "utf8")) || file.endsWith("hostCapabilities.ts"));
}

/** In-memory files beside the real ones, for the cases the check must catch or let pass. */
const PROBES: Record<string, string> = {
  unguarded: `export async function f(format: Excel.ConditionalFormat) { format.changeRuleToCustom("=A1>0"); }`,
  guarded: `export async function f(format: Excel.ConditionalFormat) {
    if (!Office.context.requirements.isSetSupported("ExcelApi", "1.17")) return false;
    return Excel.run(async () => { format.changeRuleToCustom("=A1>0"); return true; });
  }`,
  tooLowGuard: `export function f(format: Excel.ConditionalFormat) {
    if (Office.context.requirements.isSetSupported("ExcelApi", "1.16")) format.changeRuleToCustom("=A1>0");
  }`,
  capability: `import { supportsEntityCards } from "./hostCapabilities.js";
  export function f(range: Excel.Range) { return supportsEntityCards() ? range.valuesAsJson : range.values; }`,
  optionalRead: `export function f(invocation: CustomFunctions.Invocation) { return invocation.isInValuePreview === "true"; }`,
};
const probePath = (name: string) => join(root, "src/office", `requirementSetProbe_${name}.ts`);

let program: ts.Program;
let uses: ApiUse[];
const declared = declaredSets(readFileSync(join(root, "manifest.xml"), "utf8"));

before(() => {
  const files = checkedFiles();
  program = createProgram(root, files, Object.fromEntries(Object.entries(PROBES).map(([name, text]) => [probePath(name), text])));
  uses = apiUses(program, root, files);
});

/** One line per member and set: where, how often, and whether declared or how guarded. */
function summary(found: readonly ApiUse[]): string[] {
  const lines = new Map<string, ApiUse[]>();
  for (const use of found) {
    const key = `${setText(use.set).padEnd(28)} ${use.member}`;
    lines.set(key, [...(lines.get(key) ?? []), use]);
  }
  return [...lines].sort().map(([key, all]) => {
    const guards = [...new Set(all.map((use) => use.guard ?? "-"))].join(", ");
    return `${key} x${all.length} [guard: ${guards}] ${all[0]!.file}:${all[0]!.line}`;
  });
}

function probeUses(name: keyof typeof PROBES): ApiUse[] {
  return apiUses(program, root, [probePath(name)]);
}

describe("requirement sets used by src/", () => {
  it("reads the sets manifest.xml requires", () => {
    assert.deepEqual(declared.map(setText), ["SharedRuntime 1.1", "ExcelApi 1.9", "CustomFunctionsRuntime 1.3"]);
  });

  it("uses nothing above the manifest's sets without a run-time guard", () => {
    console.log(`Requirement sets: manifest requires ${declared.map(setText).join(", ")}; src/ uses:\n${summary(uses).join("\n")}`);
    assert.ok(uses.length > 20, "the check finds the add-in's Excel calls");
    assert.deepEqual(unguardedUses(uses, declared), [], "add an isSetSupported check (or a hostCapabilities function) and a fallback");
  });

  it("flags an unguarded ExcelApi 1.17 call, and one guarded only for 1.16", () => {
    for (const name of ["unguarded", "tooLowGuard"] as const) {
      assert.deepEqual(unguardedUses(probeUses(name), declared), [
        `src/office/requirementSetProbe_${name}.ts:${name === "unguarded" ? 1 : 2} Excel.ConditionalFormat.changeRuleToCustom (ExcelApi 1.17)`,
      ]);
    }
  });

  it("accepts isSetSupported in an enclosing function, a hostCapabilities function, or an optional property read", () => {
    assert.deepEqual(
      probeUses("guarded").map((use) => [use.member, use.guard]),
      [["Excel.ConditionalFormat.changeRuleToCustom", "isSetSupported"]],
    );
    const capability = probeUses("capability");
    assert.deepEqual(
      capability.map((use) => [use.member, setText(use.set), use.guard]),
      [
        ["Excel.Range.valuesAsJson", "ExcelApi 1.16", "supportsEntityCards"],
        ["Excel.Range.values", "ExcelApi 1.1", "supportsEntityCards"],
      ],
    );
    assert.deepEqual(unguardedUses(capability, declared), []);
    assert.deepEqual(
      probeUses("optionalRead").map((use) => [use.member, use.guard]),
      [["CustomFunctions.Invocation.isInValuePreview", OPTIONAL_READ]],
    );
  });

  it("reads the base set of a typings tag, for Excel's sets only", () => {
    assert.deepEqual(parseApiSetTag("x\n[Api set: ExcelApi 1.16]"), [{ name: "ExcelApi", version: "1.16" }]);
    assert.deepEqual(parseApiSetTag("[Api set: SharedRuntime 1.1, Mailbox 1.10]"), [{ name: "SharedRuntime", version: "1.1" }]);
    assert.deepEqual(parseApiSetTag("[Api set: ExcelApi 1.1 for get, 1.8 for set]"), [{ name: "ExcelApi", version: "1.1" }]);
    assert.deepEqual(parseApiSetTag("no tag"), []);
  });
});
