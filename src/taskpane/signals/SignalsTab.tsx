// The Signals section: intent, scoop and news searches, previewed and inserted into tables.
// Each search keeps its form while another is shown. Below them, insights for a list of accounts.
import { useState } from "react";
import { Field, Radio, RadioGroup } from "@fluentui/react-components";
import type { SignalSearchFamily } from "../../core/signals/index.js";
import { SignalSearch } from "./SignalSearch.js";
import { InsightsSection } from "./InsightsSection.js";
import { SIGNAL_COSTS } from "./signalPlan.js";
import { usePlanAllows } from "../entitledFields.js";
import { NotInPlan } from "../NotInPlan.js";

const CHOICES: { value: SignalSearchFamily; label: string }[] = [
  { value: "intent", label: "Buyer intent" },
  { value: "scoops", label: "Scoops" },
  { value: "news", label: "News" },
];

export function SignalsTab() {
  const [chosen, setFamily] = useState<SignalSearchFamily>("intent");
  // A kind the plan lacks is greyed with its reason; the first kind it allows is shown instead.
  const allowed = usePlanAllows();
  const family = allowed(chosen).allowed ? chosen : (CHOICES.find((c) => allowed(c.value).allowed)?.value ?? chosen);
  return (
    <section aria-label="Signals">
      <Field label="Search for">
        <RadioGroup layout="horizontal" value={family} onChange={(_, d) => setFamily(d.value as SignalSearchFamily)}>
          {CHOICES.map((c) => (
            <Radio key={c.value} value={c.value} label={c.label} disabled={!allowed(c.value).allowed} />
          ))}
        </RadioGroup>
      </Field>
      {CHOICES.map((c) => (
        <NotInPlan key={c.value} allowance={allowed(c.value)} />
      ))}
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
