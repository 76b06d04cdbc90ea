// MOUNT POINT for the panels other parts of the add-in contribute: enrichment of the selection
// (src/taskpane/enrich/) and audience enrichment jobs (src/taskpane/jobs/). Each loads on demand.
// To mount a panel, replace its placeholder below with a React.lazy import of the panel.
import type { ReactNode } from "react";

export type ExtraTab = "enrich" | "jobs";

export const EXTRA_TABS: readonly { value: ExtraTab; label: string }[] = [
  { value: "enrich", label: "Enrich" },
  { value: "jobs", label: "Jobs" },
];

const PLACEHOLDERS: Record<ExtraTab, ReactNode> = {
  enrich: <p>Enriching the selected cells is not part of this build yet.</p>,
  jobs: <p>Audience enrichment jobs are not part of this build yet.</p>,
};

export function ExtraPanel({ tab }: { tab: ExtraTab }) {
  return <>{PLACEHOLDERS[tab]}</>;
}
