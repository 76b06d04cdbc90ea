// What a cell shows when it cannot show a value: an Excel error code and a sentence a
// sales-ops user understands. Problems are values; the functions layer maps them to
// CustomFunctions.Error. Also what is wrong with the fields a cell or a selection names, among
// them fields outside the signed-in account's entitlement (production): a cell asking one gets a
// clear message before any request is made, so the request for the other cells of its 25-record
// batch never carries it.
import { SERVICE_KINDS, cellError, failureOf, refusals, rowStatus, type CellErrorCode, type Failure, type FailureReason } from "../errors/failure.js";
import type { ServiceErrorKind } from "../api/types.js";
import { declaredKind, type EnrichmentKind, type EntityKind, type FieldResolution, type KindName } from "./enrichKinds.js";

export type { CellErrorCode };

export type ProblemKind =
  | "invalidId" // #VALUE!: the id is not a whole number; no request is made
  | "unknownField" // #VALUE!: the field name is not one the service knows
  | "noFields" // #VALUE!: no field named
  | "noMatch" // the service has no record with this id
  | "creditLimit" // the account has no credits left for new records
  | "aiCredits" // the account has no AI action credits left
  | "aiDailyLimit" // the user's own daily AI limit is used up
  | "spendCap" // the user's own daily cap of new records is reached
  | "signIn" // not signed in, or the sign-in expired
  | "forbidden" // the account lacks a scope or role
  | "unentitled" // the account is not entitled to an output field
  | "invalidInput" // the service refused the input
  | "unavailable" // network or server failure after retries, or an unexpected answer
  | "cancelled" // the user cancelled
  | "preview"; // the formula is still being typed: no request is made

export interface CellProblem {
  kind: ProblemKind;
  code: CellErrorCode;
  message: string;
  /** The service's reference id of the failed request (a row's status shows it). */
  reference?: string;
}

function problem(kind: ProblemKind, message: string, code: CellErrorCode = "#N/A"): CellProblem {
  return { kind, code, message };
}

const PROBLEM_KINDS: Record<FailureReason, ProblemKind> = {
  signIn: "signIn",
  forbidden: "forbidden",
  noCredits: "creditLimit",
  aiCredits: "aiCredits",
  aiDailyLimit: "aiDailyLimit",
  dailyCap: "spendCap",
  notInPlan: "unentitled",
  invalidInput: "invalidInput",
  unavailable: "unavailable",
  cancelled: "cancelled",
};

/** A failure of the error factory (core/errors/failure.ts) as what a cell shows. */
export function cellProblem(failure: Failure): CellProblem {
  const { code, message } = cellError(failure);
  return { kind: PROBLEM_KINDS[failure.reason], code, message, ...(failure.reference ? { reference: failure.reference } : {}) };
}

/** A problem as a row's status: its message and the service's reference id (the factory's rowStatus). */
export function problemRowStatus(problem: Pick<CellProblem, "message" | "reference">): string {
  return rowStatus({ short: problem.message, ...(problem.reference ? { reference: problem.reference } : {}) });
}

/** A kind, by its built-in name or its declaration: its words are the declaration's (kindDeclaration.ts). */
export type KindWords = KindName | Pick<EnrichmentKind, "noun" | "idLabel">;
const words = (kind: KindWords) => (typeof kind === "string" ? declaredKind(kind) : kind);
const noun = (kind: KindWords) => words(kind).noun;

/** A problem no later request can escape (signed out, no permission, no credits) stops a list's run. */
export const STOPPING_PROBLEMS: ReadonlySet<ProblemKind> = new Set(["signIn", "forbidden", "creditLimit", "aiCredits", "aiDailyLimit"]);

export const problems = {
  invalidId: (kind: KindWords) => problem("invalidId", `${words(kind).idLabel} must be a whole number`, "#VALUE!"),
  unknownField: (kind: KindWords, name: string, valid: readonly string[]) =>
    problem("unknownField", `Unknown ${noun(kind)} field "${name}". Valid fields: ${valid.join(", ")}`, "#VALUE!"),
  noFields: () => problem("noFields", 'Name at least one field, e.g. "name"', "#VALUE!"),
  noMatch: (kind: KindWords, id: number, status?: string) =>
    problem("noMatch", status ? `No ${noun(kind)} data for id ${id} (${status})` : `No ${noun(kind)} with id ${id}`),
  creditLimit: () => cellProblem(refusals.noCredits()),
  spendCap: (cap: number) => cellProblem(refusals.dailyCap(cap)),
  signIn: () => cellProblem(refusals.signIn()),
  preview: () => problem("preview", "Press Enter to look this up"),
  cancelled: () => cellProblem(refusals.cancelled()),
  unentitled: (fields: readonly string[]) => cellProblem(refusals.notInPlan(fields)),
  invalidInput: (kind: KindWords, id: number, status: string) => problem("invalidInput", `The service did not accept ${noun(kind)} id ${id} (${status})`),
  unexpectedStatus: (kind: KindWords, id: number, status: string) =>
    problem("unavailable", `No ${noun(kind)} data for id ${id}: the service answered ${status}`),
  unavailable: (reason: string) => cellProblem(refusals.unavailable(reason)),
};

/** The shape of the client's ServiceError that this layer reads (structural, so core stays decoupled). */
interface ServiceErrorLike {
  kind: ServiceErrorKind;
  status?: number;
}

export function isServiceErrorLike(error: unknown): error is ServiceErrorLike {
  return (
    typeof error === "object" && error !== null && typeof (error as { kind?: unknown }).kind === "string" && SERVICE_KINDS.has((error as { kind: string }).kind)
  );
}

/** Maps a failed request (after the client's retries), or any refusal, to what each of its cells shows: the error factory's cell error. */
export function problemFromError(error: unknown): CellProblem {
  return cellProblem(failureOf(error));
}

// ---------- the fields a cell or a selection names ----------

/** The account's entitled output fields (contract names); undefined when every field may be asked. */
export type FieldEntitlements = (kind: EntityKind) => Promise<ReadonlySet<string> | undefined>;

/** The asked fields outside the entitlement (none when the lookup cannot tell: the service decides). */
export async function unentitledFields(entitlements: FieldEntitlements | undefined, kind: EnrichmentKind, fields: readonly string[]): Promise<string[]> {
  if (!entitlements) return [];
  let entitled: ReadonlySet<string> | undefined;
  try {
    // A kind the account's lookup does not know is answered undefined: the service decides.
    entitled = await entitlements(kind.kind as EntityKind);
  } catch {
    return [];
  }
  return entitled ? fields.filter((field) => !entitled.has(field)) : [];
}

/** The problem for asking fields outside the entitlement, or undefined when all may be asked. */
async function unentitledProblem(
  entitlements: FieldEntitlements | undefined,
  kind: EnrichmentKind,
  fields: readonly string[],
): Promise<CellProblem | undefined> {
  const refused = await unentitledFields(entitlements, kind, fields);
  return refused.length > 0 ? problems.unentitled(refused) : undefined;
}

/** What is wrong with the fields a cell or a selection names: unknown, none, or not entitled. */
export async function fieldsProblem(
  entitlements: FieldEntitlements | undefined,
  kind: EnrichmentKind,
  resolved: FieldResolution,
): Promise<CellProblem | undefined> {
  if (!resolved.ok) return problems.unknownField(kind, resolved.unknown, Object.keys(kind.outputFields));
  if (resolved.fields.length === 0) return problems.noFields();
  return unentitledProblem(entitlements, kind, resolved.fields);
}

export interface SelectionFields {
  /** Every field named, in order. */
  named: string[];
  /** The fields to ask the service for. */
  asked: string[];
  /** Named fields the account may not use. */
  refused: string[];
  /** Set when nothing can be asked: unknown fields, none named, or none entitled. */
  problem?: CellProblem;
}

/** The fields of an Enrich selection: the entitled ones are asked for every row, the others only reported. */
export async function selectionFields(entitlements: FieldEntitlements | undefined, kind: EnrichmentKind, resolved: FieldResolution): Promise<SelectionFields> {
  if (!resolved.ok) return { named: [], asked: [], refused: [], problem: (await fieldsProblem(entitlements, kind, resolved)) ?? problems.noFields() };
  const refused = await unentitledFields(entitlements, kind, resolved.fields);
  const asked = resolved.fields.filter((field) => !refused.includes(field));
  const named = [...resolved.fields];
  if (asked.length > 0) return { named, asked, refused };
  return { named, asked, refused, problem: refused.length > 0 ? problems.unentitled(refused) : problems.noFields() };
}
