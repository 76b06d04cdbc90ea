// The one state machine of "Enrich selection", for a column of ids and a list to match alike:
// idle -> busy (reading, checking) -> planned (what it costs, confirm) -> running (progress,
// Cancel) -> finished (what was written; unmatched rows to correct and retry), held by the pane's
// one run hook (its steps before the run, progress and outcome). Writing asks before covering
// data; a second run on the same column offers to update the first run's columns rather than add
// a copy beside them.
import { useRef } from "react";
import {
  planSelectionEnrichment,
  retryChanges,
  runSelectionEnrichment,
  withCandidates,
  type CandidateSearch,
  shiftColumns,
  type EnrichIdsProgress,
  type EnrichmentEngine,
  type EntityKind,
  type SelectedColumn,
  type SelectionEnrichmentPlan,
  type SelectionMode,
  type SelectionRunResult,
  type SelectionSource,
  type UnmatchedRow,
  type WriteColumnsResult,
} from "../../core/enrich/index.js";
import { errorText } from "../errorText.js";
import { useRun, type RunState } from "../run/useRun.js";

/** The steps before a run: reading or checking the selection, then the plan to confirm. */
export type Before = { name: "busy"; what: string } | { name: "planned"; planned: SelectionEnrichmentPlan; credits?: number };

/** What a run (or a check that failed before one) ended with: its message, and the rows not matched. */
export interface Finished {
  intent: "success" | "warning" | "error";
  message: string;
  unmatched: UnmatchedRow[];
  planned?: SelectionEnrichmentPlan;
}

export type Phase = { name: "idle" } | Before | { name: "running"; progress: EnrichIdsProgress } | ({ name: "finished" } & Finished);

/** The phase the panel shows, read from the run hook's state. */
function phaseOf(run: RunState<EnrichIdsProgress, Finished, Before>): Phase {
  if (run.running && run.progress) return { name: "running", progress: run.progress };
  if (run.step) return run.step;
  return run.outcome ? { name: "finished", ...run.outcome } : { name: "idle" };
}

/** What the pane asks the user while writing. */
export interface WriteQuestions {
  overwrite(address: string): Promise<boolean>;
  /** True: update the first run's columns; false: add new columns beside them. */
  updateFirstRun(written: string): Promise<boolean>;
}

interface RunOptions {
  /** Columns between the selection and the output (the picked neighbours). */
  shift: number;
  /** The rows a retry starts from (and that the message compares against). */
  retryOf?: UnmatchedRow[];
}

/** Where a run wrote for a selection, so a second run or a retry can update those columns. */
interface Written {
  address: string;
  runs: number;
}

const count = (n: number) => n.toLocaleString("en-US");
const plural = (n: number, one: string, many = `${one}s`) => `${count(n)} ${n === 1 ? one : many}`;

/** The account's credits, as its usage says: left (to warn before a run) and used (to settle a run with what it cost). */
export interface AccountCredits {
  creditsLeft?: () => Promise<number | undefined>;
  creditsUsed?: () => Promise<number | undefined>;
  /** Companies whose name fits (a search: no credit), listed in an ambiguous row's status. */
  candidates?: CandidateSearch;
}

export function useSelectionRun(
  engine: EnrichmentEngine,
  source: SelectionSource,
  questions: WriteQuestions,
  { creditsLeft, creditsUsed, candidates }: AccountCredits = {},
) {
  const runner = useRun<EnrichIdsProgress, Finished, Before>();
  const written = useRef(new Map<string, Written>());
  const finished = (intent: Finished["intent"], message: string, unmatched: UnmatchedRow[] = [], planned?: SelectionEnrichmentPlan): Finished => ({
    intent,
    message,
    unmatched,
    ...(planned ? { planned } : {}),
  });
  /** Says how it ended without a run (a check or a read that failed): the step ends with it. */
  const finish = (intent: Finished["intent"], message: string) => {
    runner.clear();
    runner.settle(finished(intent, message));
  };
  /** Shows what is being read or checked. */
  const busyWith = (what: string) => runner.prepare({ name: "busy", what });

  const plan = async (kind: EntityKind, selection: SelectedColumn, fields: readonly string[], mode: SelectionMode) => {
    busyWith("Checking the selection");
    try {
      const [planned, credits] = await Promise.all([
        planSelectionEnrichment(engine, kind, selection, fields, mode),
        // The account's figure is advice only: without it the plan still shows.
        creditsLeft ? creditsLeft().catch(() => undefined) : Promise.resolve(undefined),
      ]);
      runner.prepare({ name: "planned", planned, ...(credits !== undefined ? { credits } : {}) });
    } catch (error) {
      finish("error", `Could not check the selection: ${errorText(error)}`);
    }
  };

  const write = async (planned: SelectionEnrichmentPlan, result: SelectionRunResult, options: RunOptions): Promise<WriteColumnsResult | undefined> => {
    const key = planned.selection.address;
    const before = written.current.get(key);
    const base = shiftColumns(key, options.shift);
    const request = {
      address: base,
      ...(planned.header !== undefined ? { headers: outputHeaders(planned, result.output.headers) } : {}),
      rows: result.output.rows,
      numberFormats: result.output.numberFormats,
    };
    let target: WriteColumnsResult;
    if (before && (options.retryOf || (await questions.updateFirstRun(before.address)))) {
      // A retry, or the user's choice: the first run's columns are rewritten, nothing beside them.
      target = await source.writeColumns({ ...request, at: before.address, overwrite: true });
    } else {
      const runs = (before?.runs ?? 0) + 1;
      // A second set of columns for the same selection: its headers say which run they are.
      const headers = before && request.headers ? request.headers.map((h) => `${h} (${runs})`) : request.headers;
      const address = before ? shiftColumns(base, result.output.headers.length * (runs - 1)) : base;
      const fresh = { ...request, address, ...(headers ? { headers } : {}) };
      target = await source.writeColumns({ ...fresh, overwrite: false });
      if (target.status === "notEmpty") {
        if (!(await questions.overwrite(target.address))) return undefined;
        target = await source.writeColumns({ ...fresh, overwrite: true });
      }
      written.current.set(key, { address: target.address, runs });
      return target;
    }
    written.current.set(key, { address: target.address, runs: before.runs });
    return target;
  };

  const run = (planned: SelectionEnrichmentPlan, options: RunOptions = { shift: 0 }) =>
    runner.start(({ signal, report }) => enrich(planned, options, signal, report), {
      recordsDone: 0,
      recordsTotal: planned.plan.unique,
      requestsDone: 0,
      requestsTotal: planned.plan.requests,
    });

  /** A run's work: the plan enriched with progress, written beside the selection, and the outcome said. */
  const enrich = async (
    planned: SelectionEnrichmentPlan,
    options: RunOptions,
    signal: AbortSignal,
    report: (p: EnrichIdsProgress) => void,
  ): Promise<Finished> => {
    try {
      const result = await runSelectionEnrichment(engine, planned, {
        signal,
        onProgress: report,
        ...(creditsUsed ? { creditsUsed } : {}),
        ...(options.retryOf && !options.retryOf.some((row) => String(planned.values[row.index]) !== row.value) ? { retryMisses: true } : {}),
      });
      if (candidates) await withCandidates(planned, result, candidates);
      const target = await write(planned, result, options);
      if (!target) {
        return finished(
          "warning",
          `Nothing written: cells beside ${planned.selection.address} hold data. Select a column with empty cells to its right, or allow writing over them.`,
          result.unmatched,
          planned,
        );
      }
      return finished(...summary(planned, result, target.address, options.retryOf), result.unmatched, planned);
    } catch (error) {
      return finished("error", `Enrichment stopped: ${errorText(error)}`);
    }
  };

  /** Runs the unmatched rows again with the user's corrections (by data row index) on top of the sheet's values. */
  const retry = async (
    planned: SelectionEnrichmentPlan,
    unmatched: UnmatchedRow[],
    corrections: ReadonlyMap<number, string>,
    shift: number,
    mode: SelectionMode,
  ) => {
    busyWith("Reading the list again");
    try {
      // Cells edited in the sheet count too; the pane's corrections win.
      const reread = await source.readIds();
      const sheet = reread.ok && reread.selection.address === planned.selection.address ? reread.selection.values : planned.selection.values;
      const offset = planned.header === undefined ? 0 : 1;
      const values = sheet.map((value, at) => corrections.get(at - offset) ?? value);
      const again = await planSelectionEnrichment(engine, planned.kind, { address: planned.selection.address, values }, planned.fields, mode);
      await run(again, { shift, retryOf: unmatched });
    } catch (error) {
      finish("error", `Could not retry: ${errorText(error)}`);
    }
  };

  const phase = phaseOf(runner);
  return {
    phase,
    plan,
    run,
    retry,
    cancel: runner.cancel,
    /** Back to idle: the plan or the message goes (a run under way goes on). */
    reset: runner.clear,
    busyWith,
    finish,
    busy: phase.name === "busy" || phase.name === "running",
  };
}

/** What a matched column was matched from, in its header. */
const MATCHED_BY: Record<string, string> = { website: "website", name: "name", email: "email" };

/**
 * The headers a run writes: a list's matched id and match status say what they were matched
 * from ("Company ID (by website)"), so they never repeat a table's own "Company ID" (which a
 * table would number "Company ID 2") and two lists matched side by side stay apart.
 */
export function outputHeaders(planned: Pick<SelectionEnrichmentPlan, "mode">, headers: readonly string[]): string[] {
  if (planned.mode.by !== "match") return [...headers];
  const by = ` (by ${MATCHED_BY[planned.mode.content] ?? planned.mode.content})`;
  return headers.map((h, i) => (i < 2 ? `${h}${by}` : h));
}

function summary(
  planned: SelectionEnrichmentPlan,
  result: SelectionRunResult,
  address: string,
  retryOf: UnmatchedRow[] | undefined,
): ["success" | "warning", string] {
  const { output, cancelled } = result;
  const parts = [`Wrote ${plural(output.headers.length, "column")} to ${address}`];
  if (planned.mode.by === "match") {
    if (retryOf) {
      const { nowMatched, stillUnmatched } = retryChanges(retryOf, result.unmatched);
      parts[0] = `Retried ${plural(retryOf.length, "row")}: ${count(nowMatched.length)} now matched${
        nowMatched.length > 0
          ? ` (row${nowMatched.length === 1 ? "" : "s"} ${nowMatched
              .slice(0, 10)
              .map((r) => r.row)
              .join(", ")}${nowMatched.length > 10 ? ", …" : ""})`
          : ""
      }, ${count(stillUnmatched.length)} still not matched; updated ${address}`;
    } else parts[0] += `: ${count(output.counts.matched)} matched`;
    if (!retryOf && output.counts.unmatched > 0) parts.push(`${count(output.counts.unmatched)} not matched (listed below)`);
  } else {
    parts[0] += `: ${plural(output.counts.enriched, "row")} enriched`;
    if (output.counts.problems > 0) parts.push(`${count(output.counts.problems)} with a problem (see "Enrichment status")`);
  }
  for (const column of output.columnProblems) parts.push(`"${column.header}" not filled: ${column.message.replace(/\.$/, "")}`);
  if (cancelled) parts.push("cancelled before the end; rows not reached say Cancelled");
  const warn = output.counts.problems > 0 || output.counts.unmatched > 0 || cancelled || output.columnProblems.length > 0;
  return [warn ? "warning" : "success", `${parts.join("; ")}.`];
}
