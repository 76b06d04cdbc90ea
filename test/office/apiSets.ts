// Which Office API requirement sets the add-in's source uses, read with the TypeScript compiler:
// every member of Office, Excel, OfficeRuntime and CustomFunctions the code touches, with the
// `[Api set: Name x.y]` its official typings (@types/office-js, @types/office-runtime,
// @types/custom-functions-runtime) give it, and whether the use is guarded by a run-time check
// (`isSetSupported("Name", "x.y")` in an enclosing function, or a call there to a capability
// function of src/office/hostCapabilities.ts that asks for that set).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

export interface ApiSet {
  name: string;
  version: string;
}

export interface ApiUse {
  /** File relative to the project root, and 1-based line. */
  file: string;
  line: number;
  /** What the code names, e.g. "Excel.Table.resize". */
  member: string;
  set: ApiSet;
  /** How the use is guarded: "isSetSupported" or the capability function's name; undefined when not. */
  guard?: string;
}

/** Typings whose members are the host's API. */
const TYPINGS = /[\\/]@types[\\/](office-js|office-runtime|custom-functions-runtime)[\\/]/;
/** Sets of other Office hosts, which tags such as "SharedRuntime 1.1, Mailbox 1.10" also name. */
const OTHER_HOSTS = /^(Mailbox|Word|PowerPoint|OneNote|Outlook|Visio|Project)/;
/**
 * The guard of a read of a property the typings declare optional: where the set is missing the
 * value is undefined, which the strict type check makes the code handle (its fallback).
 */
export const OPTIONAL_READ = "optional property read";
/** The capability module: its exported functions are the named guards. */
export const CAPABILITIES_FILE = "src/office/hostCapabilities.ts";

/** "1.16" > "1.4": versions compared number by number. */
export function compareVersions(a: string, b: string): number {
  const [x, y] = [a.split(".").map(Number), b.split(".").map(Number)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The sets a `[Api set: …]` tag names first (its base requirement), this host's only. */
export function parseApiSetTag(doc: string): ApiSet[] {
  const tag = /\[Api set: ([^\]]*)\]/.exec(doc);
  if (!tag) return [];
  const sets: ApiSet[] = [];
  for (const part of tag[1]!.split(",")) {
    const match = /^\s*([A-Za-z]+)\s+(\d+\.\d+)/.exec(part);
    if (match && !OTHER_HOSTS.test(match[1]!)) sets.push({ name: match[1]!, version: match[2]! });
  }
  return sets;
}

/** The .ts/.tsx files under `dir`, skipping the folders named in `skip`. */
export function sourceFiles(dir: string, skip: readonly string[]): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) {
      if (!skip.includes(name)) out.push(...sourceFiles(full, skip));
    } else if (/\.tsx?$/.test(name) && !name.endsWith(".d.ts")) out.push(full);
  }
  return out;
}

/** A program over `files` with the project's compiler options; `extra` adds in-memory files. */
export function createProgram(root: string, files: string[], extra: Record<string, string> = {}): ts.Program {
  const config = ts.readConfigFile(join(root, "tsconfig.json"), (path) => readFileSync(path, "utf8"));
  const { options: projectOptions } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  // Only the files given and the host's typings: the host's types are global, so imports need not
  // be followed (an imported value's type is then unknown, and so not the host's).
  const options = { ...projectOptions, noResolve: true, types: ["office-js", "office-runtime", "custom-functions-runtime"] };
  const host = ts.createCompilerHost(options, true);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (name) => name in extra || fileExists.call(host, name);
  host.readFile = (name) => extra[name] ?? readFile.call(host, name);
  host.getSourceFile = (name, language, ...rest) =>
    name in extra ? ts.createSourceFile(name, extra[name]!, language, true) : getSourceFile.call(host, name, language, ...rest);
  return ts.createProgram([...files, ...Object.keys(extra)], options, host);
}

/** The sets a call asks for with `isSetSupported("Name", "x.y")` (or a helper in `askers` that calls it), or none. */
function askedSets(call: ts.CallExpression, askers: ReadonlySet<string> = new Set()): ApiSet[] {
  const callee = call.expression;
  const name = ts.isPropertyAccessExpression(callee) ? callee.name.text : ts.isIdentifier(callee) ? callee.text : "";
  const [set, version] = call.arguments;
  if ((name !== "isSetSupported" && !askers.has(name)) || !set || !ts.isStringLiteralLike(set)) return [];
  return [{ name: set.text, version: version && ts.isStringLiteralLike(version) ? version.text : "1.1" }];
}

const isAskingCall = (call: ts.CallExpression): boolean =>
  (ts.isPropertyAccessExpression(call.expression) || ts.isIdentifier(call.expression)) &&
  (ts.isPropertyAccessExpression(call.expression) ? call.expression.name.text : call.expression.getText()) === "isSetSupported";

/** Every call under `node`, depth first. */
function callsUnder(node: ts.Node): ts.CallExpression[] {
  const calls: ts.CallExpression[] = [];
  const visit = (child: ts.Node): void => {
    if (ts.isCallExpression(child)) calls.push(child);
    ts.forEachChild(child, visit);
  };
  visit(node);
  return calls;
}

/** The capability functions of src/office/hostCapabilities.ts by name, and the sets each asks for. */
function capabilityFunctions(program: ts.Program, root: string): Map<string, ApiSet[]> {
  const file = program.getSourceFile(join(root, CAPABILITIES_FILE));
  if (!file) throw new Error(`${CAPABILITIES_FILE} is not in the program`);
  const functions = file.statements.filter((s): s is ts.FunctionDeclaration => ts.isFunctionDeclaration(s) && s.name !== undefined);
  // Helpers such as hasSet(name, version) that pass their arguments on to isSetSupported.
  const askers = new Set(functions.filter((f) => callsUnder(f).some(isAskingCall)).map((f) => f.name!.text));
  return new Map(functions.map((f) => [f.name!.text, callsUnder(f).flatMap((call) => askedSets(call, askers))]));
}

/** A declaration's JSDoc as text: the comment and its tags (the typings put `[Api set: …]` in @remarks). */
function docText(comment: ts.SymbolDisplayPart[], tags: ts.JSDocTagInfo[]): string {
  return [ts.displayPartsToString(comment), ...tags.map((tag) => ts.displayPartsToString(tag.text))].join("\n");
}

/** The host-API member a property access names and the sets its typings tag it with. */
function hostMember(checker: ts.TypeChecker, node: ts.PropertyAccessExpression): { member: string; sets: ApiSet[]; optionalRead: boolean } | undefined {
  let symbol = checker.getSymbolAtLocation(node.name);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const declarations = symbol?.declarations ?? [];
  if (!symbol || !declarations.some((d) => TYPINGS.test(d.getSourceFile().fileName))) return undefined;
  const call = ts.isCallExpression(node.parent) && node.parent.expression === node ? node.parent : undefined;
  const signature = call ? checker.getResolvedSignature(call) : undefined;
  const fromSignature = signature ? docText(signature.getDocumentationComment(checker), signature.getJsDocTags()) : "";
  const doc = fromSignature.includes("[Api set:") ? fromSignature : docText(symbol.getDocumentationComment(checker), symbol.getJsDocTags(checker));
  const optional = declarations.some((d) => (ts.isPropertySignature(d) || ts.isPropertyDeclaration(d)) && d.questionToken !== undefined);
  return { member: checker.getFullyQualifiedName(symbol), sets: parseApiSetTag(doc), optionalRead: optional && !isWritten(node) };
}

/** Whether a property access is the target of an assignment. */
function isWritten(node: ts.PropertyAccessExpression): boolean {
  const parent = node.parent;
  return (
    ts.isBinaryExpression(parent) &&
    parent.left === node &&
    parent.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
    parent.operatorToken.kind <= ts.SyntaxKind.LastAssignment
  );
}

const covers = (asked: ApiSet, needed: ApiSet) => asked.name === needed.name && compareVersions(asked.version, needed.version) >= 0;

/**
 * The capability function a call names: one imported from hostCapabilities (imports are not
 * followed, so the import itself says where it comes from) or, inside that file, its own.
 */
function capabilityCalled(checker: ts.TypeChecker, call: ts.CallExpression, root: string): string | undefined {
  if (!ts.isIdentifier(call.expression)) return undefined;
  const declaration = checker.getSymbolAtLocation(call.expression)?.declarations?.[0];
  if (declaration && ts.isImportSpecifier(declaration)) {
    const from = declaration.parent.parent.parent.moduleSpecifier;
    const imported = (declaration.propertyName ?? declaration.name).text;
    return ts.isStringLiteral(from) && /\/hostCapabilities(\.js|\.ts)?$/.test(from.text) ? imported : undefined;
  }
  const inCapabilities = declaration && relative(root, declaration.getSourceFile().fileName).split("\\").join("/") === CAPABILITIES_FILE;
  return inCapabilities && ts.isFunctionDeclaration(declaration) ? declaration.name?.text : undefined;
}

/** How `node` is guarded for `set`: a check in one of its enclosing functions, or undefined. */
function guardOf(checker: ts.TypeChecker, capabilities: Map<string, ApiSet[]>, root: string, node: ts.Node, set: ApiSet): string | undefined {
  for (let scope = node.parent; scope; scope = scope.parent) {
    if (!ts.isFunctionLike(scope)) continue;
    for (const call of callsUnder(scope)) {
      if (askedSets(call).some((asked) => covers(asked, set))) return "isSetSupported";
      const capability = capabilityCalled(checker, call, root);
      if (capability && capabilities.get(capability)?.some((asked) => covers(asked, set))) return capability;
    }
  }
  return undefined;
}

/** Every use of a tagged host-API member in `files` (absolute paths in `program`). */
export function apiUses(program: ts.Program, root: string, files: string[]): ApiUse[] {
  const checker = program.getTypeChecker();
  const capabilities = capabilityFunctions(program, root);
  const uses: ApiUse[] = [];
  for (const path of files) {
    const source = program.getSourceFile(path);
    if (!source) throw new Error(`${path} is not in the program`);
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAccessExpression(node)) {
        const found = hostMember(checker, node);
        for (const set of found?.sets ?? []) {
          const line = source.getLineAndCharacterOfPosition(node.name.getStart(source)).line + 1;
          const guard = found!.optionalRead ? OPTIONAL_READ : guardOf(checker, capabilities, root, node, set);
          uses.push({ file: relative(root, path).split("\\").join("/"), line, member: found!.member, set, ...(guard ? { guard } : {}) });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return uses;
}

/** "ExcelApi 1.9": a set as the manifest and the typings write it. */
export const setText = (set: ApiSet): string => `${set.name} ${set.version}`;

/** Whether a declared set (the manifest's requirements) covers a use. */
export function isDeclared(declared: readonly ApiSet[], set: ApiSet): boolean {
  return declared.some((d) => covers(d, set));
}

/** The uses above the declared sets with no guard: each a line "file:line member (Set x.y)". */
export function unguardedUses(uses: readonly ApiUse[], declared: readonly ApiSet[]): string[] {
  return uses.filter((use) => !use.guard && !isDeclared(declared, use.set)).map((use) => `${use.file}:${use.line} ${use.member} (${setText(use.set)})`);
}
