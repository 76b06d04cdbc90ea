// The steps of "Enrich selection" between reading the selection and writing it back, for a
// column of ids and for a list to match alike: what it would cost (shown before the user
// confirms), then the run through the pipeline with progress and cancel, giving the columns to
// write and, when matching, the rows that did not match (by the sheet's row numbers) so they can
// be corrected and retried. The task pane's one selection panel drives these steps.
import { fieldNumberFormat } from "../sheet/columns.js";
import { shownValues } from "./answers.js";
import type { CellValue, EnrichIdsProgress, EnrichmentEngine, InputAnswer, SelectionPlan } from "./engineTypes.js";
import { declaredKind, fieldSpec, isRecordKind, type KindName } from "./enrichKinds.js";
import { problemRowStatus } from "./problems.js";
import { buildOutputColumns, type OutputColumns, type SelectedColumn } from "./selection.js";
import { firstRowOf, rowInputs, splitSelection, type SelectionMode } from "./selectionInputs.js";

export interface SelectionEnrichmentPlan {
  kind: KindName;
  fields: string[];
  selection: SelectedColumn;
  mode: SelectionMode;
  header: string | undefined;
  /** Data rows (below the header). */
  values: unknown[];
  /** One pipeline input per data row. */
  inputs: unknown[];
  /** The sheet's row number of the first data row. */
  firstRow: number;
  plan: SelectionPlan;
}

export interface UnmatchedRow {
  /** The sheet's row number. */
  row: number;
  /** Index among the data rows. */
  index: number;
  value: string;
  reason: string;
}

export interface SelectionRunResult {
  output: OutputColumns;
  /** Matching: the rows not matched, with why. */
  unmatched: UnmatchedRow[];
  cancelled: boolean;
}

export const MATCH_STATUS_HEADER = "Match status";
const MATCHED = "Matched";

const isBlank = (raw: unknown) => raw === null || raw === undefined || (typeof raw === "string" && raw.trim() === "");

export async function planSelectionEnrichment(
  engine: EnrichmentEngine,
  kind: KindName,
  selection: SelectedColumn,
  fields: readonly string[],
  mode: SelectionMode = { by: "id" },
): Promise<SelectionEnrichmentPlan> {
  const split = splitSelection(selection.values, mode);
  const offset = split.header === undefined ? 0 : 1;
  const inputs = rowInputs(kind, mode, split.values, offset);
  const plan = await engine.planInputs(kind, inputs, fields);
  return {
    kind,
    fields: [...fields],
    selection,
    mode,
    header: split.header,
    values: split.values,
    inputs,
    firstRow: firstRowOf(selection.address) + offset,
    plan,
  };
}

export interface SelectionRunOptions {
  signal?: AbortSignal;
  onProgress?: (progress: EnrichIdsProgress) => void;
  retryMisses?: boolean;
  /**
   * The credits the service says the account has used so far (its usage), when it can be read:
   * read before and after the run, it settles today's count with what the run truly cost.
   */
  creditsUsed?: () => Promise<number | undefined>;
}

/** Today's count and the service's credits used, at one moment (undefined when either cannot be read). */
async function spendFigures(engine: EnrichmentEngine, creditsUsed: SelectionRunOptions["creditsUsed"]) {
  if (!creditsUsed) return undefined;
  const [status, credits] = await Promise.all([engine.spendStatus(), creditsUsed().catch(() => undefined)]);
  return credits === undefined ? undefined : { counted: status.used, credits };
}

/**
 * Runs the plan. With `creditsUsed`, what today's count took for the run and the service did not
 * charge (records the organization already had under management) goes back afterwards: the
 * count, the plan of the next run and the account's gauge tell the same story.
 */
export async function runSelectionEnrichment(
  engine: EnrichmentEngine,
  planned: SelectionEnrichmentPlan,
  options: SelectionRunOptions = {},
): Promise<SelectionRunResult> {
  const before = await spendFigures(engine, options.creditsUsed);
  const result = await enrichRows(engine, planned, options);
  const after = before && (await spendFigures(engine, options.creditsUsed));
  if (before && after) await engine.settleCharges(after.counted - before.counted, after.credits - before.credits);
  return result;
}

async function enrichRows(engine: EnrichmentEngine, planned: SelectionEnrichmentPlan, options: SelectionRunOptions): Promise<SelectionRunResult> {
  const rows = planned.values.map((value, index) => ({ value, index })).filter(({ value }) => !isBlank(value));
  const answers = await engine.enrichInputs(
    planned.kind,
    rows.map(({ index }) => planned.inputs[index]),
    planned.fields,
    {
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(options.retryMisses ? { retryMisses: true } : {}),
    },
  );
  const byRow = new Map<number, InputAnswer>();
  rows.forEach(({ index }, at) => {
    const answer = answers[at];
    if (answer) byRow.set(index, answer);
  });
  const cancelled = options.signal?.aborted ?? false;
  if (planned.mode.by === "id") return { output: buildOutputColumns(planned.kind, planned.fields, planned.values, byRow), unmatched: [], cancelled };
  return { ...matchOutput(planned, byRow), cancelled };
}

const headerKey = (text: string) => text.toLowerCase().replace(/[^a-z]/g, "");

/**
 * The fields a list to match starts with, less those the list has a column of already (by
 * header: "Website", "Country"): the output does not repeat the list's own columns (but for the
 * first, when the list has them all: a match asks at least one field).
 */
export function matchFieldsBeside(kind: KindName, headers: readonly string[]): string[] {
  const own = new Set(headers.map(headerKey).filter((h) => h !== ""));
  const defaults = declaredKind(kind).matchDefaultFields;
  const left = defaults.filter((f) => !own.has(headerKey(f)) && !own.has(headerKey(fieldSpec(kind, f)?.label ?? f)));
  // A match asks at least one field: the first (the service's name for what it matched) stays then.
  return left.length > 0 ? left : defaults.slice(0, 1);
}

/** What a blank row of a list to match says: what it lacks. */
export function missingInputText(planned: Pick<SelectionEnrichmentPlan, "kind" | "mode">): string {
  const content = planned.mode.by === "match" ? planned.mode.content : "id";
  if (content === "website") return "No website in this row";
  if (content === "email") return "No email address in this row";
  if (content === "name") return planned.kind === "contact" ? "No person's name in this row" : "No company name in this row";
  return "No id in this row";
}

/** The blank rows of a list to match, by data row index: those above its last filled row (the empty rows after it are no part of it). */
export function blankListRows(planned: Pick<SelectionEnrichmentPlan, "mode" | "values">): number[] {
  if (planned.mode.by !== "match") return [];
  let last = -1;
  planned.values.forEach((value, index) => {
    if (!isBlank(value)) last = index;
  });
  return planned.values.flatMap((value, index) => (index < last && isBlank(value) ? [index] : []));
}

/** The rows of a list that cannot be matched as they are: blank, or not a website/name/email (each row's status says why). */
export function unmatchableRows(planned: SelectionEnrichmentPlan): number {
  return planned.mode.by === "match" ? planned.plan.invalidCount + blankListRows(planned).length : planned.plan.invalidCount;
}

/** Matching writes the found id, a match status and the fields; a row that missed says why. */
function matchOutput(planned: SelectionEnrichmentPlan, byRow: ReadonlyMap<number, InputAnswer>): Omit<SelectionRunResult, "cancelled"> {
  const { kind, fields } = planned;
  const headers = [kind === "company" ? "Company ID" : "Person ID", MATCH_STATUS_HEADER, ...fields.map((f) => fieldSpec(kind, f)?.label ?? f)];
  const numberFormats = [
    "0",
    "General",
    ...fields.map((field) => (isRecordKind(kind) ? fieldNumberFormat(kind, field, fieldSpec(kind, field)?.type) : "General")),
  ];
  const rows: CellValue[][] = [];
  const unmatched: UnmatchedRow[] = [];
  const counts = { enriched: 0, problems: 0, blank: 0, matched: 0, unmatched: 0 };
  const blanks = new Set(blankListRows(planned));
  const missing = missingInputText(planned);
  planned.values.forEach((value, index) => {
    const answer = byRow.get(index);
    if (!answer && blanks.has(index)) {
      counts.unmatched += 1;
      unmatched.push({ row: planned.firstRow + index, index, value: "", reason: missing });
      rows.push(["", missing, ...fields.map(() => "")]);
      return;
    }
    if (!answer) {
      counts.blank += 1;
      rows.push(headers.map(() => ""));
      return;
    }
    if (answer.id === undefined) {
      counts.unmatched += 1;
      const reason = answer.result.ok ? "Not matched" : problemRowStatus(answer.result.problem);
      unmatched.push({ row: planned.firstRow + index, index, value: String(value), reason });
      rows.push(["", reason, ...fields.map(() => "")]);
      return;
    }
    counts.matched += 1;
    const { result } = answer;
    if (result.ok) {
      counts.enriched += 1;
      rows.push([answer.id, MATCHED, ...shownValues(result)]);
    } else {
      counts.problems += 1;
      rows.push([answer.id, `${MATCHED}; fields not read: ${problemRowStatus(result.problem)}`, ...fields.map(() => "")]);
    }
  });
  return { output: { headers, rows, numberFormats, counts, columnProblems: [] }, unmatched };
}

/** What a retry changed: the rows that missed before and match now, and the ones still missing. */
export function retryChanges(before: readonly UnmatchedRow[], after: readonly UnmatchedRow[]): { nowMatched: UnmatchedRow[]; stillUnmatched: UnmatchedRow[] } {
  const still = new Set(after.map((row) => row.index));
  return { nowMatched: before.filter((row) => !still.has(row.index)), stillUnmatched: [...after] };
}
