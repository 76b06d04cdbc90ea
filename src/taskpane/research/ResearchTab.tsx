// The Research section: briefings and questions (AI action credits, always estimated and
// confirmed first), lookalikes of the selected companies, and recommended contacts at the
// selected accounts (both free). Each keeps its state while another is shown. Today's AI action
// credits against the user's own daily AI limit are shown and set here.
import { useEffect, useState } from "react";
import { Button, Field, Input, Radio, RadioGroup, Text, makeStyles } from "@fluentui/react-components";
import type { Research } from "../../core/research/index.js";
import type { SpendState } from "../../core/enrich/index.js";
import { errorText } from "../errorText.js";
import { useServices } from "../services.js";
import { BriefingPanel } from "./BriefingPanel.js";
import { LookalikesPanel } from "./LookalikesPanel.js";
import { RecommendationsPanel } from "./RecommendationsPanel.js";

type Part = "briefing" | "lookalikes" | "contacts";

const PARTS: { value: Part; label: string }[] = [
  { value: "briefing", label: "Briefing" },
  { value: "lookalikes", label: "Lookalikes" },
  { value: "contacts", label: "Recommended contacts" },
];

const useStyles = makeStyles({
  row: { display: "flex", gap: "8px", marginTop: "8px", alignItems: "end", flexWrap: "wrap" },
  fieldset: { minWidth: 0, marginTop: "12px" },
});

const count = (n: number) => n.toLocaleString("en-US");

/** Today's AI action credits against the user's daily AI limit, and the limit itself. */
function AiLimit({ research, version }: { research: Research; version: number }) {
  const styles = useStyles();
  const [daily, setDaily] = useState<SpendState | undefined>();
  const [capText, setCapText] = useState("");
  const [message, setMessage] = useState<string | undefined>();
  // The limit's box is filled once; today's count is read again after each run (`version`).
  useEffect(() => {
    research.aiSpendStatus().then(
      (status) => setCapText(String(status.cap)),
      () => undefined,
    );
  }, [research]);
  useEffect(() => {
    research.aiSpendStatus().then(setDaily, (error: unknown) => setMessage(`Could not read today's AI count: ${errorText(error)}`));
  }, [research, version]);
  const save = async () => {
    const cap = Number(capText);
    if (capText.trim() === "" || !Number.isSafeInteger(cap) || cap < 0) return setMessage("Enter a whole number of 0 or more.");
    try {
      await research.setDailyAiCap(cap);
      setDaily(await research.aiSpendStatus());
      setMessage(`Saved: up to ${count(cap)} AI action credits a day.`);
    } catch (error) {
      setMessage(`Could not save: ${errorText(error)}`);
    }
  };
  return (
    <fieldset className={styles.fieldset}>
      <legend>AI action credits</legend>
      {daily && (
        <Text as="p">
          Today: {count(daily.used)} of {count(daily.cap)} used. Briefings and questions cost one each; a briefing fetched before is reused free. Cells never
          spend them.
        </Text>
      )}
      <div className={styles.row}>
        <Field label="AI action credits per day">
          <Input type="number" min={0} value={capText} onChange={(_, d) => setCapText(d.value)} />
        </Field>
        <Button onClick={() => void save()}>Save</Button>
      </div>
      {message && (
        <Text as="p" role="status">
          {message}
        </Text>
      )}
    </fieldset>
  );
}

export function ResearchTab() {
  const { runtime } = useServices();
  const [part, setPart] = useState<Part>("briefing");
  const [runs, setRuns] = useState(0);
  return (
    <section aria-label="Research">
      <Field label="Research">
        <RadioGroup value={part} onChange={(_, d) => setPart(d.value as Part)}>
          {PARTS.map((p) => (
            <Radio key={p.value} value={p.value} label={p.label} />
          ))}
        </RadioGroup>
      </Field>
      <div hidden={part !== "briefing"}>
        <BriefingPanel research={runtime.research} engine={runtime.engine} onSpent={() => setRuns((n) => n + 1)} />
      </div>
      <div hidden={part !== "lookalikes"}>
        <LookalikesPanel research={runtime.research} engine={runtime.engine} />
      </div>
      <div hidden={part !== "contacts"}>
        <RecommendationsPanel research={runtime.research} engine={runtime.engine} />
      </div>
      <AiLimit research={runtime.research} version={runs} />
    </section>
  );
}
