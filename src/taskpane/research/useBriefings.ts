// The Briefing section's state: companies -> an estimate the user confirms -> briefings fetched
// (or reused: never paid twice) with progress and Cancel; a question on the briefing shown, also
// estimated and confirmed; the outcome in words through the pane's one error road.
import { useState } from "react";
import type { EnrichmentEngine } from "../../core/enrich/index.js";
import type { AiEstimate, ListProgress, Research, StoredBriefing } from "../../core/research/index.js";
import { errorText } from "../errorText.js";
import { useRun } from "../run/useRun.js";
import { matchingCredits, matchingText, missesText, resolveCompanies, type CompanyInputs } from "./companyInputs.js";
import { failuresText } from "./outcomeText.js";

export type BriefingStep =
  | { kind: "idle" }
  | { kind: "estimating" }
  | { kind: "estimate"; estimate: AiEstimate; summary: string; inputs: CompanyInputs }
  | { kind: "running"; progress: ListProgress };

export type QuestionStep = { kind: "idle" } | { kind: "estimating" } | { kind: "estimate"; estimate: AiEstimate } | { kind: "running" };

export interface Message {
  intent: "success" | "warning" | "error" | "info";
  text: string;
}

const count = (n: number) => n.toLocaleString("en-US");

/** Said when a run brought nothing and the results of an earlier one stay shown. */
export const EARLIER = " The results shown are the earlier ones.";

export function useBriefings(research: Research, engine: EnrichmentEngine, onSpent?: () => void) {
  const [step, setStep] = useState<BriefingStep>({ kind: "idle" });
  const [briefings, setBriefings] = useState<StoredBriefing[]>([]);
  const [shown, setShown] = useState<string | undefined>();
  const [message, setMessage] = useState<Message | undefined>();
  const [questionStep, setQuestionStep] = useState<QuestionStep>({ kind: "idle" });
  /** The last answer on each company: an answer belongs to its briefing's company. */
  const [answers, setAnswers] = useState<ReadonlyMap<string, { question: string; answer: string }>>(new Map());
  const runner = useRun();

  /** Says what the briefings cost (only those not fetched yet; matching websites and names too) and waits for Confirm. */
  const estimate = async (inputs: CompanyInputs) => {
    setMessage(undefined);
    setStep({ kind: "estimating" });
    try {
      const [credits, estimate] = await Promise.all([matchingCredits(engine, inputs.toMatch), research.estimateBriefings(inputs.ids, inputs.toMatch.length)]);
      setStep({ kind: "estimate", estimate, summary: `${estimate.summary}${matchingText(inputs.toMatch.length, credits)}`, inputs });
    } catch (error) {
      setStep({ kind: "idle" });
      setMessage({ intent: "error", text: errorText(error) });
    }
  };

  const confirm = async () => {
    if (step.kind !== "estimate") return;
    const { inputs } = step;
    await runner.start(async ({ signal }) => fetchBriefings(inputs, signal));
  };

  /** Confirm's work: the briefings fetched (or reused), with progress, and the outcome said. */
  const fetchBriefings = async (inputs: CompanyInputs, signal: AbortSignal) => {
    setStep({ kind: "running", progress: { done: 0, total: inputs.ids.length + inputs.toMatch.length } });
    try {
      const resolved = await resolveCompanies(engine, inputs);
      const run = await research.briefings(resolved.ids, { signal, onProgress: (progress) => setStep({ kind: "running", progress }) });
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
      setMessage({ intent: failed || resolved.misses.length > 0 ? "warning" : run.cancelled ? "info" : "success", text });
    } catch (error) {
      setMessage({ intent: "error", text: errorText(error) });
    } finally {
      setStep({ kind: "idle" });
      onSpent?.();
    }
  };

  const estimateQuestion = async () => {
    setQuestionStep({ kind: "estimating" });
    try {
      setQuestionStep({ kind: "estimate", estimate: await research.estimateQuestion() });
    } catch (error) {
      setQuestionStep({ kind: "idle" });
      setMessage({ intent: "error", text: errorText(error) });
    }
  };

  const ask = async (companyId: string, question: string) => {
    setQuestionStep({ kind: "running" });
    try {
      const answer = await research.ask(companyId, question);
      setAnswers((known) => new Map(known).set(companyId, { question, answer }));
    } catch (error) {
      setMessage({ intent: "error", text: errorText(error) });
    } finally {
      setQuestionStep({ kind: "idle" });
      onSpent?.();
    }
  };

  const shownBriefing = briefings.find((b) => b.companyId === shown);
  return {
    step,
    briefings,
    shownBriefing,
    show: setShown,
    message,
    setMessage,
    estimate,
    confirm,
    dismiss: () => setStep({ kind: "idle" }),
    cancel: runner.cancel,
    questionStep,
    answer: shownBriefing ? answers.get(shownBriefing.companyId) : undefined,
    estimateQuestion,
    ask,
    dismissQuestion: () => setQuestionStep({ kind: "idle" }),
  };
}
