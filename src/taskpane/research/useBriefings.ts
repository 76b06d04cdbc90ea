// The Briefing section's state: companies -> an estimate the user confirms -> briefings fetched
// (or reused: never paid twice) with progress and Cancel; a question on the briefing shown, also
// estimated and confirmed; the outcome in words through the pane's one error road. Both runs are
// the pane's one run hook's (their estimates, progress and outcome); the section's message is the
// briefing run's outcome, or what was said since (a question refused, a briefing copied).
import { useState } from "react";
import type { EnrichmentEngine } from "../../core/enrich/index.js";
import type { AiEstimate, ListProgress, Research, StoredBriefing } from "../../core/research/index.js";
import { errorText } from "../errorText.js";
import { useRun, type RunState } from "../run/useRun.js";
import { matchingCredits, matchingText, missesText, resolveCompanies, type CompanyInputs } from "./companyInputs.js";
import { failuresText } from "./outcomeText.js";

export type BriefingStep =
  | { kind: "idle" }
  | { kind: "estimating" }
  | { kind: "estimate"; estimate: AiEstimate; summary: string; inputs: CompanyInputs }
  | { kind: "running"; progress: ListProgress };

export type QuestionStep = { kind: "idle" } | { kind: "estimating" } | { kind: "estimate"; estimate: AiEstimate } | { kind: "running" };

/** The steps before a run: the estimate being made, then shown for Confirm. */
type Before<T> = Exclude<T, { kind: "idle" } | { kind: "running" }>;

/** The step the section shows, read from its run hook: the progress of the run under way, else the step before one. */
function stepOf(run: RunState<ListProgress, Message, Before<BriefingStep>>): BriefingStep {
  if (run.running) return { kind: "running", progress: run.progress ?? { done: 0, total: 0 } };
  return run.step ?? { kind: "idle" };
}

function questionStepOf(run: RunState<never, void, Before<QuestionStep>>): QuestionStep {
  return run.running ? { kind: "running" } : (run.step ?? { kind: "idle" });
}

export interface Message {
  intent: "success" | "warning" | "error" | "info";
  text: string;
}

const count = (n: number) => n.toLocaleString("en-US");

/** Said when a run brought nothing and the results of an earlier one stay shown. */
export const EARLIER = " The results shown are the earlier ones.";

export function useBriefings(research: Research, engine: EnrichmentEngine, onSpent?: () => void) {
  const [briefings, setBriefings] = useState<StoredBriefing[]>([]);
  const [shown, setShown] = useState<string | undefined>();
  /** The last answer on each company: an answer belongs to its briefing's company. */
  const [answers, setAnswers] = useState<ReadonlyMap<string, { question: string; answer: string }>>(new Map());
  const runner = useRun<ListProgress, Message, Before<BriefingStep>>();
  const asking = useRun<never, void, Before<QuestionStep>>();
  const step = stepOf(runner);
  const setMessage = (message: Message | undefined) => (message ? runner.settle(message) : runner.clear());

  /** Says what the briefings cost (only those not fetched yet; matching websites and names too) and waits for Confirm. */
  const estimate = async (inputs: CompanyInputs) => {
    runner.prepare({ kind: "estimating" });
    try {
      const [credits, estimate] = await Promise.all([matchingCredits(engine, inputs.toMatch), research.estimateBriefings(inputs.ids, inputs.toMatch.length)]);
      runner.prepare({ kind: "estimate", estimate, summary: `${estimate.summary}${matchingText(inputs.toMatch.length, credits)}`, inputs });
    } catch (error) {
      runner.clear();
      runner.settle({ intent: "error", text: errorText(error) });
    }
  };

  const confirm = async () => {
    if (step.kind !== "estimate") return;
    const { inputs } = step;
    await runner.start(async ({ signal, report }) => fetchBriefings(inputs, signal, report), { done: 0, total: inputs.ids.length + inputs.toMatch.length });
  };

  /** Confirm's work: the briefings fetched (or reused), with progress, and the outcome said. */
  const fetchBriefings = async (inputs: CompanyInputs, signal: AbortSignal, report: (progress: ListProgress) => void): Promise<Message> => {
    try {
      const resolved = await resolveCompanies(engine, inputs);
      const run = await research.briefings(resolved.ids, { signal, onProgress: report });
      // A run that brought no briefing leaves the ones shown in place.
      const kept = run.briefings.length === 0 && briefings.length > 0;
      if (run.briefings.length > 0) {
        setBriefings(run.briefings);
        setShown(run.briefings[0]!.companyId);
      }
      const failed = failuresText(
        "Not fetched",
        run.failures.map((f) => ({ item: f.companyId, error: f.error })),
      );
      const reused = run.reused > 0 ? ` (${count(run.reused)} reused, not paid again)` : "";
      const text = `${run.cancelled ? "Cancelled: " : ""}${count(run.briefings.length)} ${run.briefings.length === 1 ? "briefing" : "briefings"}${reused}.${failed}${missesText(resolved.misses)}${kept ? EARLIER : ""}`;
      return { intent: failed || resolved.misses.length > 0 ? "warning" : run.cancelled ? "info" : "success", text };
    } catch (error) {
      return { intent: "error", text: errorText(error) };
    } finally {
      onSpent?.();
    }
  };

  const estimateQuestion = async () => {
    asking.prepare({ kind: "estimating" });
    try {
      asking.prepare({ kind: "estimate", estimate: await research.estimateQuestion() });
    } catch (error) {
      asking.clear();
      runner.settle({ intent: "error", text: errorText(error) });
    }
  };

  const ask = (companyId: string, question: string) => asking.start(() => askOne(companyId, question));

  /** Ask's work: the answer kept with its company, or the refusal said. */
  const askOne = async (companyId: string, question: string) => {
    try {
      const answer = await research.ask(companyId, question);
      setAnswers((known) => new Map(known).set(companyId, { question, answer }));
    } catch (error) {
      runner.settle({ intent: "error", text: errorText(error) });
    } finally {
      onSpent?.();
    }
  };

  const shownBriefing = briefings.find((b) => b.companyId === shown);
  return {
    step,
    briefings,
    shownBriefing,
    show: setShown,
    message: runner.outcome,
    setMessage,
    estimate,
    confirm,
    dismiss: runner.clear,
    cancel: runner.cancel,
    questionStep: questionStepOf(asking),
    answer: shownBriefing ? answers.get(shownBriefing.companyId) : undefined,
    estimateQuestion,
    ask,
    dismissQuestion: asking.clear,
  };
}
