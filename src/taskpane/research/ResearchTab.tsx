// The Research section: briefings and questions (AI action credits, always estimated and
// confirmed first), lookalikes of the selected companies, and recommended contacts at the
// selected accounts (both free). Each keeps its state while another is shown. Today's AI action
// credits against the user's own daily AI limit are shown and set here.
import { useMemo, useState } from "react";
import { Field, Radio, RadioGroup, Text, makeStyles } from "@fluentui/react-components";
import type { Research } from "../../core/research/index.js";
import { useServices } from "../services.js";
import { DailyCapRow, useDailyCap } from "../DailyCap.js";
import { ErrorBoundary } from "../ErrorBoundary.js";
import { BriefingPanel } from "./BriefingPanel.js";
import { LookalikesPanel } from "./LookalikesPanel.js";
import { RecommendationsPanel } from "./RecommendationsPanel.js";
import { usePlanAllows } from "../entitledFields.js";
import { NotInPlan } from "../NotInPlan.js";

type Part = "briefing" | "lookalikes" | "contacts";

const PARTS: { value: Part; label: string }[] = [
  { value: "briefing", label: "Briefing" },
  { value: "lookalikes", label: "Lookalikes" },
  { value: "contacts", label: "Recommended contacts" },
];

const useStyles = makeStyles({
  fieldset: { minWidth: 0, marginTop: "12px" },
});

const count = (n: number) => n.toLocaleString("en-US");

/** Today's AI action credits against the user's daily AI limit, and the limit itself. */
function AiLimit({ research, version }: { research: Research; version: number }) {
  const styles = useStyles();
  const source = useMemo(() => ({ status: () => research.aiSpendStatus(), setCap: (cap: number) => research.setDailyAiCap(cap) }), [research]);
  const cap = useDailyCap(source, "AI action credits", version);
  const daily = cap.today;
  return (
    <fieldset className={styles.fieldset}>
      <legend>AI action credits</legend>
      {daily && (
        <Text as="p">
          Today: {count(daily.used)} of {count(daily.cap)} used. Briefings and questions cost one each; a briefing fetched before on this device is reused free
          (another device or browser pays for it again). Cells never spend them.
        </Text>
      )}
      <DailyCapRow label="AI action credits per day" cap={cap} />
    </fieldset>
  );
}

export function ResearchTab() {
  const { runtime } = useServices();
  const [chosen, setPart] = useState<Part>("briefing");
  const [runs, setRuns] = useState(0);
  // Briefings the plan lacks are greyed with the reason; the lookalikes are shown instead.
  const allowed = usePlanAllows();
  const briefing = allowed("briefing");
  const part = chosen === "briefing" && !briefing.allowed ? "lookalikes" : chosen;
  return (
    <section aria-label="Research">
      <Field label="Research">
        <RadioGroup value={part} onChange={(_, d) => setPart(d.value as Part)}>
          {PARTS.map((p) => (
            <Radio key={p.value} value={p.value} label={p.label} disabled={p.value === "briefing" && !briefing.allowed} />
          ))}
        </RadioGroup>
      </Field>
      <NotInPlan allowance={briefing} />
      <NotInPlan allowance={allowed("questions")} />
      <div hidden={part !== "briefing"}>
        <ErrorBoundary label="the briefing part">
          <BriefingPanel research={runtime.research} engine={runtime.engine} onSpent={() => setRuns((n) => n + 1)} />
        </ErrorBoundary>
      </div>
      <div hidden={part !== "lookalikes"}>
        <ErrorBoundary label="the lookalikes part">
          <LookalikesPanel research={runtime.research} engine={runtime.engine} />
        </ErrorBoundary>
      </div>
      <div hidden={part !== "contacts"}>
        <ErrorBoundary label="the contacts part">
          <RecommendationsPanel research={runtime.research} engine={runtime.engine} />
        </ErrorBoundary>
      </div>
      <AiLimit research={runtime.research} version={runs} />
    </section>
  );
}
