// The kinds the pipeline knows, by name: the built-in ones (builtInKinds.ts) and any an engine
// is given (its `kinds` option), each one declaration (kindDeclaration.ts). An engine reads its
// kinds from its own EnrichmentKinds, which also remembers the field names cells typed, so
// nothing about kinds is shared between engines. Also how a cell names a record (its id).
import type { OutputFieldSpec, RecordKind } from "../contract/index.js";
import { BUILT_IN_KINDS } from "./builtInKinds.js";
import type { EnrichmentKind } from "./kindDeclaration.js";

export type { EnrichClient, EnrichmentKind, KindRequestOptions, SealedRequest } from "./kindDeclaration.js";

/** A built-in kind of record: the contract's RecordKind, a signal of a company (docs/signals.md), or its hashtags. */
export type EntityKind = keyof typeof BUILT_IN_KINDS;

/** A kind's name: a built-in EntityKind, or a kind an engine was given (its `kinds` option). */
export type KindName = string;

/**
 * Every declared kind by name: the built-in ones, and any declared with declareKind. Each engine,
 * the cells, Enrich selection and the pane's lists read kinds from here (plus an engine's own
 * `kinds` option), so a kind is its declaration and nothing else in the add-in.
 */
const DECLARED: Record<string, EnrichmentKind> = { ...BUILT_IN_KINDS };

/** The declared kinds' declarations, by name (the built-in ones always among them). */
export const ENRICHMENT_KINDS: Readonly<Record<EntityKind, EnrichmentKind>> & Readonly<Record<KindName, EnrichmentKind | undefined>> = DECLARED as Record<
  EntityKind,
  EnrichmentKind
>;

/**
 * Declares a kind for the whole add-in, the way the built-in ones are: engines, cells, Enrich
 * selection and the pane's lists see it. Returns how to withdraw it (a test's kind). A built-in
 * kind cannot be declared again.
 */
export function declareKind(declaration: EnrichmentKind): () => void {
  if (declaration.kind in BUILT_IN_KINDS || DECLARED[declaration.kind]) throw new Error(`A kind called "${declaration.kind}" is declared already`);
  DECLARED[declaration.kind] = declaration;
  return () => {
    if (DECLARED[declaration.kind] === declaration) delete DECLARED[declaration.kind];
  };
}

/** Every declared kind, the built-in ones first, in the order they were declared. */
export const declaredKinds = (): EnrichmentKind[] => Object.values(DECLARED);

/** A declared kind's declaration (an unknown name is a programming error). */
export function declaredKind(kind: KindName): EnrichmentKind {
  const declaration = DECLARED[kind];
  if (!declaration) throw new Error(`No kind of enrichment is called "${kind}"`);
  return declaration;
}

/** The built-in kinds' output fields. */
export const OUTPUT_FIELDS = Object.fromEntries(Object.entries(BUILT_IN_KINDS).map(([kind, declaration]) => [kind, declaration.outputFields])) as Record<
  EntityKind,
  Readonly<Record<string, OutputFieldSpec>>
>;

/** Whether a kind is a record of the contract (company, contact) rather than a signal of a company. */
export const isRecordKind = (kind: string): kind is RecordKind => kind === "company" || kind === "contact";

export function fieldNames(kind: KindName): string[] {
  return Object.keys(declaredKind(kind).outputFields);
}

export function fieldSpec(kind: KindName, field: string): OutputFieldSpec | undefined {
  return DECLARED[kind]?.outputFields[field];
}

/**
 * A record id as the service takes it: a positive whole number. Cells hand in numbers or
 * text ("123", " 123 "); anything else (empty, 12.5, -3, "abc", TRUE) is not an id.
 */
export function parseRecordId(raw: unknown): number | undefined {
  let value: number;
  if (typeof raw === "number") value = raw;
  else if (typeof raw === "string" && /^\s*\d+\s*$/.test(raw)) value = Number(raw.trim());
  else return undefined;
  if (!Number.isSafeInteger(value) || value < 1) return undefined;
  return value;
}

export type FieldResolution = { ok: true; fields: string[] } | { ok: false; unknown: string };

/** Field names from what a user typed, for a built-in kind (the engine's own EnrichmentKinds remembers texts). */
export function resolveFieldNames(kind: KindName, input: unknown): FieldResolution {
  const declaration = declaredKind(kind);
  return resolveNames(declaration, lowerCaseIndex(declaration), typeof input === "string" ? splitNames(input, []) : collectNames(input, []));
}

const MAX_REMEMBERED_TEXTS = 1000;

/** An engine's kinds: the built-in ones and those it was given, by name. */
export class EnrichmentKinds {
  private readonly byName = new Map<string, EnrichmentKind>();
  /** Every cell of a sheet names the same few fields: each text is resolved once per kind. */
  private readonly resolvedText = new Map<string, Map<string, FieldResolution>>();
  private readonly lowerCase = new Map<string, Map<string, string>>();

  /** `extra`: the engine's own kinds; every other lookup reads the declared kinds (declareKind). */
  constructor(extra: readonly EnrichmentKind[] = []) {
    for (const declaration of extra) this.byName.set(declaration.kind, declaration);
  }

  has(kind: string): boolean {
    return this.byName.has(kind) || DECLARED[kind] !== undefined;
  }

  of(kind: string): EnrichmentKind {
    const declaration = this.byName.get(kind) ?? DECLARED[kind];
    if (!declaration) throw new Error(`No kind of enrichment is called "${kind}"`);
    return declaration;
  }

  fieldNames(kind: string): string[] {
    return Object.keys(this.of(kind).outputFields);
  }

  fieldSpec(kind: string, field: string): OutputFieldSpec | undefined {
    return this.of(kind).outputFields[field];
  }

  /**
   * Field names from what a user typed: one name, comma-separated names, or a range/array of
   * names (empty cells skipped). Matching ignores case and surrounding spaces; duplicates are kept
   * so a spilled row lines up with what was asked. Callers must not change the returned array.
   */
  resolveFieldNames(kind: string, input: unknown): FieldResolution {
    const declaration = this.of(kind);
    const index = this.lowerCase.get(kind) ?? lowerCaseIndex(declaration);
    this.lowerCase.set(kind, index);
    if (typeof input !== "string") return resolveNames(declaration, index, collectNames(input, []));
    const texts = this.resolvedText.get(kind) ?? new Map<string, FieldResolution>();
    this.resolvedText.set(kind, texts);
    const known = texts.get(input);
    if (known) return known;
    const resolved = resolveNames(declaration, index, splitNames(input, []));
    if (texts.size < MAX_REMEMBERED_TEXTS) texts.set(input, resolved);
    return resolved;
  }
}

function collectNames(value: unknown, names: string[]): string[] {
  if (Array.isArray(value)) {
    for (const item of value) collectNames(item, names);
    return names;
  }
  if (value === null || value === undefined) return names;
  return splitNames(String(value), names);
}

function splitNames(text: string, names: string[]): string[] {
  for (const part of text.split(",")) {
    const trimmed = part.trim();
    if (trimmed !== "") names.push(trimmed);
  }
  return names;
}

/** A kind's field names by their lower case. */
const lowerCaseIndex = (declaration: EnrichmentKind) => new Map(Object.keys(declaration.outputFields).map((name) => [name.toLowerCase(), name]));

function resolveNames(declaration: EnrichmentKind, lowerCase: ReadonlyMap<string, string>, names: readonly string[]): FieldResolution {
  const fields: string[] = [];
  for (const name of names) {
    const canonical = declaration.fieldsAsWritten ? name : lowerCase.get(name.toLowerCase());
    if (canonical === undefined) return { ok: false, unknown: name };
    fields.push(canonical);
  }
  return { ok: true, fields };
}

/** The distinct valid ids of a selection in first-seen order, and how many cells were not ids or blank. */
export function scanSelectedIds(rawIds: readonly unknown[]): { ids: number[]; invalidCount: number; blankCount: number } {
  const ids: number[] = [];
  const seen = new Set<number>();
  let invalidCount = 0;
  let blankCount = 0;
  for (const raw of rawIds) {
    if (raw === null || raw === undefined || (typeof raw === "string" && raw.trim() === "")) {
      blankCount += 1;
      continue;
    }
    const id = parseRecordId(raw);
    if (id === undefined) invalidCount += 1;
    else if (!seen.has(id)) {
      seen.add(id);
      ids.push(id);
    }
  }
  return { ids, invalidCount, blankCount };
}
