// The Signals section: intent, scoop and news searches, previewed and inserted into tables, and
// the service's insights for a list of accounts. Each keeps its form while another is shown.
import { useState } from "react";
import { Field, Radio, RadioGroup, makeStyles } from "@fluentui/react-components";
import type { SignalSearchFamily } from "../../core/signals/index.js";
import { InsightsSection } from "./InsightsSection.js";
import { SignalSearch } from "./SignalSearch.js";
import { SIGNAL_COSTS } from "./signalPlan.js";

type Choice = SignalSearchFamily | "insights";

const CHOICES: { value: SignalSearchFamily; label: string }[] = [
  { value: "intent", label: "Buyer intent" },
  { value: "scoops", label: "Scoops" },
  { value: "news", label: "News" },
];

// Four choices wrap onto a second line in a 320-350 px pane rather than push it sideways.
const useStyles = makeStyles({ choices: { flexWrap: "wrap" } });

export function SignalsTab() {
  const styles = useStyles();
  const [family, setFamily] = useState<Choice>("intent");
  return (
    <section aria-label="Signals">
      <Field label="Search for">
        <RadioGroup layout="horizontal" className={styles.choices} value={family} onChange={(_, d) => setFamily(d.value as Choice)}>
          {CHOICES.map((c) => (
            <Radio key={c.value} value={c.value} label={c.label} />
          ))}
          <Radio value="insights" label="Insights" />
        </RadioGroup>
      </Field>
      {family !== "insights" && <p data-testid="signal-costs">{SIGNAL_COSTS}</p>}
      {CHOICES.map((c) => (
        <div key={c.value} hidden={family !== c.value}>
          <SignalSearch family={c.value} />
        </div>
      ))}
      <div hidden={family !== "insights"}>
        <InsightsSection />
      </div>
    </section>
  );
}
