// The Signals section: intent, scoop and news searches, previewed and inserted into tables.
// Each search keeps its form while another is shown. Below them, insights for a list of accounts.
import { useState } from "react";
import { Field, Radio, RadioGroup } from "@fluentui/react-components";
import type { SignalSearchFamily } from "../../core/signals/index.js";
import { SignalSearch } from "./SignalSearch.js";
import { InsightsSection } from "./InsightsSection.js";
import { SIGNAL_COSTS } from "./signalPlan.js";

const CHOICES: { value: SignalSearchFamily; label: string }[] = [
  { value: "intent", label: "Buyer intent" },
  { value: "scoops", label: "Scoops" },
  { value: "news", label: "News" },
];

export function SignalsTab() {
  const [family, setFamily] = useState<SignalSearchFamily>("intent");
  return (
    <section aria-label="Signals">
      <Field label="Search for">
        <RadioGroup layout="horizontal" value={family} onChange={(_, d) => setFamily(d.value as SignalSearchFamily)}>
          {CHOICES.map((c) => (
            <Radio key={c.value} value={c.value} label={c.label} />
          ))}
        </RadioGroup>
      </Field>
      <p data-testid="signal-costs">{SIGNAL_COSTS}</p>
      {CHOICES.map((c) => (
        <div key={c.value} hidden={family !== c.value}>
          <SignalSearch family={c.value} />
        </div>
      ))}
      <InsightsSection />
    </section>
  );
}
