// The Accounts tab (docs/accounts.md): a list rolled up by corporate family (its ultimate parent
// beside each row comes from Enrich selection's "Corporate family of the companies"; the summary
// per family is inserted here) and buying committees of the selected accounts.
import { useState } from "react";
import { Field, Radio, RadioGroup } from "@fluentui/react-components";
import { ErrorBoundary } from "../ErrorBoundary.js";
import { CommitteesPanel, useCommitteeSources } from "./CommitteesPanel.js";
import { FamilySummaryPanel } from "./FamilySummaryPanel.js";

type Part = "families" | "committees";

export function AccountsTab() {
  const [part, setPart] = useState<Part>("families");
  const sources = useCommitteeSources();
  return (
    <section aria-label="Accounts">
      <Field label="Accounts">
        <RadioGroup value={part} onChange={(_, d) => setPart(d.value as Part)}>
          <Radio value="families" label="Account families" />
          <Radio value="committees" label="Buying committees" />
        </RadioGroup>
      </Field>
      <div hidden={part !== "families"}>
        <ErrorBoundary label="the account families part">
          <FamilySummaryPanel />
        </ErrorBoundary>
      </div>
      <div hidden={part !== "committees"}>
        <ErrorBoundary label="the buying committees part">
          <CommitteesPanel sources={sources} />
        </ErrorBoundary>
      </div>
    </section>
  );
}
