// Briefing: a company (id, website or name typed, or the selected rows) -> what it costs in AI
// action credits, confirmed -> the briefing as formatted text; Copy; Insert into a sheet as text
// cells; a question on it (one AI action credit, also estimated and confirmed).
import { useState } from "react";
import { Button, Field, Input, Select, Textarea, makeStyles } from "@fluentui/react-components";
import { QUESTION_MAX_LENGTH } from "../../core/contract/index.js";
import { briefingCompany, briefingRows, BRIEFING_COLUMNS, type Research } from "../../core/research/index.js";
import type { EnrichmentEngine } from "../../core/enrich/index.js";
import { useConfirm } from "../ConfirmDialog.js";
import { errorText } from "../errorText.js";
import { Notice } from "../Notice.js";
import { useServices } from "../services.js";
import { BriefingView } from "./BriefingView.js";
import { companyInputs, selectedCompanies } from "./companyInputs.js";
import { ResearchEstimate, insertAndSay, ListProgressView, useSelectionSource } from "./researchParts.js";
import { usePlanAllows } from "../entitledFields.js";
import { NotInPlan } from "../NotInPlan.js";
import { useBriefings } from "./useBriefings.js";

const useStyles = makeStyles({
  row: { display: "flex", gap: "8px", marginTop: "8px", alignItems: "end", flexWrap: "wrap" },
  grow: { flexGrow: 1, minWidth: 0 },
  answer: { whiteSpace: "pre-wrap", overflowWrap: "anywhere" },
});

/** `onSpent` is told after each run that may have spent AI action credits. */
export function BriefingPanel({ research, engine, onSpent }: { research: Research; engine: EnrichmentEngine; onSpent?: () => void }) {
  const styles = useStyles();
  const services = useServices();
  const source = useSelectionSource();
  const b = useBriefings(research, engine, onSpent);
  const confirm = useConfirm();
  const [company, setCompany] = useState("");
  const [question, setQuestion] = useState("");
  const questions = usePlanAllows()("questions");
  const busy = b.step.kind !== "idle";
  const shown = b.shownBriefing;

  const fromTyped = () => {
    const inputs = companyInputs([company]);
    if (inputs.ids.length + inputs.toMatch.length === 0) return b.setMessage({ intent: "warning", text: "Type a company id, website or name." });
    void b.estimate(inputs);
  };
  const fromSelection = async () => {
    const read = await selectedCompanies(source).catch((error: unknown) => ({ ok: false as const, message: errorText(error) }));
    if (!read.ok) return b.setMessage({ intent: "warning", text: read.message });
    await b.estimate(read.inputs);
  };
  const copy = async () => {
    if (!shown) return;
    try {
      await navigator.clipboard.writeText(shown.markdown);
      b.setMessage({ intent: "success", text: "Briefing copied." });
    } catch (error) {
      b.setMessage({ intent: "warning", text: `Could not copy: ${errorText(error)}` });
    }
  };
  const insert = () =>
    insertAndSay(
      {
        workbook: services.workbook,
        sheetName: "Briefings",
        tableName: "Briefings",
        columns: BRIEFING_COLUMNS,
        rows: b.briefings.flatMap((one) => briefingRows(one)),
        ask: confirm.ask,
      },
      "lines",
      b.setMessage,
    );

  return (
    <section aria-label="Briefing">
      <div className={styles.row}>
        <Field label="Company (id, website or name)" className={styles.grow}>
          <Input value={company} onChange={(_, d) => setCompany(d.value)} onKeyDown={(e) => e.key === "Enter" && !busy && fromTyped()} />
        </Field>
        <Button appearance="primary" disabled={busy} onClick={fromTyped}>
          Get briefing
        </Button>
      </div>
      <div className={styles.row}>
        <Button disabled={busy} onClick={() => void fromSelection()}>
          Briefings for the selection
        </Button>
      </div>
      {b.step.kind === "estimate" && (
        <ResearchEstimate
          summary={b.step.summary}
          {...(b.step.estimate.blocked ? { blocked: b.step.estimate.blocked } : {})}
          confirmLabel={b.step.estimate.companies === 1 ? "Get briefing" : "Get briefings"}
          onConfirm={() => void b.confirm()}
          onCancel={b.dismiss}
        />
      )}
      {b.step.kind === "running" && <ListProgressView progress={b.step.progress} noun="briefings" onCancel={b.cancel} />}
      {b.message && (
        <Notice intent={b.message.intent} role={b.message.intent === "error" ? "alert" : "status"} testId="briefing-message">
          {b.message.text}
        </Notice>
      )}
      {b.briefings.length > 1 && (
        <Field label="Show the briefing of">
          <Select value={shown?.companyId ?? ""} onChange={(_, d) => b.show(d.value)}>
            {b.briefings.map((one) => (
              <option key={one.companyId} value={one.companyId}>
                {briefingCompany(one)}
              </option>
            ))}
          </Select>
        </Field>
      )}
      {shown && (
        <>
          <BriefingView markdown={shown.markdown} label={`Briefing on ${briefingCompany(shown)}`} fetchedAt={shown.fetchedAt} />
          <div className={styles.row}>
            <Button onClick={() => void copy()}>Copy</Button>
            <Button onClick={() => void insert()}>Insert into sheet</Button>
          </div>
          <div className={styles.row}>
            <Field label={`Ask a question about ${briefingCompany(shown)}`} className={styles.grow}>
              <Textarea value={question} maxLength={QUESTION_MAX_LENGTH} onChange={(_, d) => setQuestion(d.value)} resize="vertical" />
            </Field>
            <Button disabled={question.trim() === "" || b.questionStep.kind !== "idle" || !questions.allowed} onClick={() => void b.estimateQuestion()}>
              Ask
            </Button>
          </div>
          <NotInPlan allowance={questions} />
          {b.questionStep.kind === "estimate" && (
            <ResearchEstimate
              summary={b.questionStep.estimate.summary}
              {...(b.questionStep.estimate.blocked ? { blocked: b.questionStep.estimate.blocked } : {})}
              confirmLabel="Ask"
              onConfirm={() => void b.ask(shown.companyId, question.trim())}
              onCancel={b.dismissQuestion}
            />
          )}
          {b.questionStep.kind === "running" && <p role="status">Asking…</p>}
          {b.answer && (
            <div role="region" aria-label={`Answer about ${briefingCompany(shown)}`} data-testid="research-answer">
              <strong>{b.answer.question}</strong>
              <p className={styles.answer}>{b.answer.answer}</p>
            </div>
          )}
        </>
      )}
      {confirm.dialog}
    </section>
  );
}
