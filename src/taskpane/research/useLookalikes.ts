// The Lookalikes section's state: the selected seed companies -> similar companies (free: one
// request per seed, merged and deduplicated, leaving out the seeds and the companies already in
// the sheet) with progress and Cancel -> a table. Websites among the seeds are matched first
// through the pipeline, which may cost credits: then the user confirms the estimate first. The
// estimate, the run's progress and its outcome (the section's message) are the pane's one run hook's.
import { useState } from "react";
import { cellContent, splitHeader, type EnrichmentEngine, type SelectionSource } from "../../core/enrich/index.js";
import type { LookalikeFilters, ListProgress, MergedLookalike, Research } from "../../core/research/index.js";
import { errorText } from "../errorText.js";
import { useRun, type RunState } from "../run/useRun.js";
import { companyInputs, matchingCredits, matchingText, missesText, resolveCompanies, type CompanyInputs } from "./companyInputs.js";
import { failuresText } from "./outcomeText.js";
import { EARLIER, type Message } from "./useBriefings.js";

export type LookalikeStep =
  | { kind: "idle" }
  | { kind: "estimate"; summary: string; inputs: CompanyInputs; exclude: string[]; note: string }
  | { kind: "running"; progress: ListProgress };

type Estimate = Extract<LookalikeStep, { kind: "estimate" }>;

/** The step the section shows, read from its run hook: the progress of the run under way, else the estimate to confirm. */
function stepOf(run: RunState<ListProgress, Message, Estimate>): LookalikeStep {
  if (run.running) return { kind: "running", progress: run.progress ?? { done: 0, total: 0 } };
  return run.step ?? { kind: "idle" };
}

const count = (n: number) => n.toLocaleString("en-US");

export function useLookalikes(research: Research, engine: EnrichmentEngine) {
  const [found, setFound] = useState<MergedLookalike[] | undefined>();
  const runner = useRun<ListProgress, Message, Estimate>();
  const step = stepOf(runner);
  const setMessage = (message: Message | undefined) => (message ? runner.settle(message) : runner.clear());

  const run = (inputs: CompanyInputs, exclude: string[], limit: number, filters: LookalikeFilters, note: string) =>
    runner.start(({ signal, report }) => find(inputs, exclude, limit, filters, note, signal, report), {
      done: 0,
      total: inputs.ids.length + inputs.toMatch.length,
    });

  /** The run's work: websites matched, then the lookalikes of every seed, with progress, and the outcome said. */
  const find = async (
    inputs: CompanyInputs,
    exclude: string[],
    limit: number,
    filters: LookalikeFilters,
    note: string,
    signal: AbortSignal,
    report: (progress: ListProgress) => void,
  ): Promise<Message> => {
    const websites = inputs.toMatch.filter((s) => !isName(s));
    try {
      // Names go to the service as names; websites are matched to their ids first.
      const resolved = await resolveCompanies(engine, { ids: inputs.ids, toMatch: websites, invalid: inputs.invalid });
      const seeds = [...resolved.ids, ...inputs.toMatch.filter(isName)];
      const result = await research.lookalikes({
        seeds,
        exclude,
        limit,
        ...filters,
        signal,
        onProgress: report,
      });
      // A run where no seed answered leaves the companies shown in place.
      const kept = result.seedsAsked === result.failures.length && found !== undefined;
      if (result.seedsAsked > result.failures.length) setFound(result.companies);
      const failed = failuresText(
        "No answer for",
        result.failures.map((f) => ({ item: f.seed, error: f.error })),
      );
      const text = `${result.cancelled ? "Cancelled: " : ""}${count(result.companies.length)} similar companies from ${count(result.seedsAsked)} seed ${result.seedsAsked === 1 ? "company" : "companies"}, the seeds and ${count(new Set(exclude).size)} companies already in the sheet left out.${note}${failed}${missesText(resolved.misses)}${kept ? EARLIER : ""}`;
      return { intent: failed || note || resolved.misses.length > 0 ? "warning" : "success", text };
    } catch (error) {
      return { intent: "error", text: errorText(error) };
    }
  };

  /**
   * Reads the seeds and the company ids already in the sheet (`inSheet`; when they cannot be read,
   * only the seeds are left out, and the message says so); free work starts at once, matching
   * websites that may cost credits waits for Confirm.
   */
  const start = async (source: SelectionSource | undefined, inSheet: () => Promise<string[]>, limit: number, filters: LookalikeFilters) => {
    setMessage(undefined);
    try {
      if (!source) return setMessage({ intent: "warning", text: "Reading the selection needs a workbook." });
      const read = await source.readIds();
      if (!read.ok) return setMessage({ intent: "warning", text: read.message });
      const values = splitHeader(read.selection.values).values;
      const inputs = companyInputs(values);
      if (inputs.ids.length + inputs.toMatch.length === 0)
        return setMessage({ intent: "warning", text: "The selection holds no company: select cells with company ids, websites or names." });
      const sheet = await inSheet().then(
        (ids) => ({ ids, note: "" }),
        (error: unknown) => ({
          ids: [] as string[],
          note: ` The companies already in the sheet could not be read (${errorText(error)}): only the seeds were left out.`,
        }),
      );
      const exclude = [...sheet.ids, ...inputs.ids];
      const websites = inputs.toMatch.filter((s) => !isName(s));
      const credits = await matchingCredits(engine, websites);
      if (credits === 0) return await run(inputs, exclude, limit, filters, sheet.note);
      const seeds = inputs.ids.length + inputs.toMatch.length;
      runner.prepare({
        kind: "estimate",
        inputs,
        exclude,
        note: sheet.note,
        summary: `${count(seeds)} seed ${seeds === 1 ? "company" : "companies"}: lookalikes are free (one request per seed).${matchingText(websites.length, credits, "website")}`,
      });
    } catch (error) {
      setMessage({ intent: "error", text: errorText(error) });
    }
  };

  return {
    step,
    found,
    message: runner.outcome,
    setMessage,
    start,
    confirm: (limit: number, filters: LookalikeFilters) =>
      step.kind === "estimate" ? run(step.inputs, step.exclude, limit, filters, step.note) : Promise.resolve(undefined),
    dismiss: runner.clear,
    cancel: runner.cancel,
  };
}

/** A seed given by name (sent to the service as a name), not a website. */
const isName = (input: string) => cellContent(input) === "name";
