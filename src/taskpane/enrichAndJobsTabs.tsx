// The Enrich and Jobs tabs: enrichment of the selected cells (src/taskpane/enrich/) and audience
// enrichment jobs (src/taskpane/jobs/). Each panel loads on demand so the first load stays small;
// the job list itself comes from the runtime (src/runtime.ts composes the tracker).
import { lazy, useEffect, useState } from "react";
import { Spinner } from "@fluentui/react-components";
import type { JobTracker } from "../core/jobs/index.js";
import { browserSelectionSource } from "../office/browserSelection.js";
import { createExcelSelectionSource } from "../office/enrichSelection.js";
import { readSelectedCellValues } from "../office/jobsSelection.js";
import { createExcelAudienceSheet } from "../office/audienceSheet.js";
import { browserAudienceSheet } from "../office/browserAudienceSheet.js";
import { errorText } from "./errorText.js";
import { useServices } from "./services.js";
import { creditsOf } from "./usage/usageFeed.js";

export type ExtraTab = "enrich" | "jobs";

export const EXTRA_TABS: readonly { value: ExtraTab; label: string }[] = [
  { value: "enrich", label: "Enrich" },
  { value: "jobs", label: "Jobs" },
];

const EnrichSelectionPanel = lazy(() => import("./enrich/EnrichSelectionPanel.js").then((m) => ({ default: m.EnrichSelectionPanel })));
const JobsPanel = lazy(() => import("./jobs/JobsPanel.js").then((m) => ({ default: m.JobsPanel })));

function EnrichTab() {
  const services = useServices();
  // In the browser, the "selection" is the table column picked on the page.
  const [source] = useState(() =>
    services.browserWorkbook ? browserSelectionSource(services.browserWorkbook) : services.mode === "excel" ? createExcelSelectionSource() : undefined,
  );
  if (!source) return <p>Enriching selected cells needs a workbook.</p>;
  const creditsLeft = () => services.runtime.client.usage().then((u) => creditsOf(u.entries)?.usageRemaining);
  const candidates = async (name: string) =>
    (await services.runtime.client.searchCompanies({ companyName: name }, { size: 3 })).items.map((c) => ({
      id: c.id,
      name: c.attributes.name ?? name,
      ...(c.attributes.country ? { country: c.attributes.country } : {}),
      ...(c.attributes.website ? { website: c.attributes.website } : {}),
    }));
  const creditsUsed = () => services.runtime.client.usage().then((u) => creditsOf(u.entries)?.currentUsage);
  return (
    <EnrichSelectionPanel
      engine={services.runtime.engine}
      source={source}
      entitledFields={services.runtime.entitledFields}
      creditsLeft={creditsLeft}
      creditsUsed={creditsUsed}
      candidates={candidates}
      {...(services.browserWorkbook
        ? {
            instructions: (
              <p>
                Pick the column of ids by clicking its header in a table below, choose fields, then Check selection. New columns are added at the table&apos;s
                right end.
              </p>
            ),
          }
        : {})}
    />
  );
}

function JobsTab() {
  const services = useServices();
  const { runtime } = services;
  const [tracker, setTracker] = useState<JobTracker | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const [audienceSheet] = useState(() =>
    services.browserWorkbook ? browserAudienceSheet(services.browserWorkbook) : services.mode === "excel" ? createExcelAudienceSheet() : undefined,
  );
  useEffect(() => {
    let live = true;
    let opened: JobTracker | undefined;
    runtime.openJobTracker().then(
      (t) => {
        opened = t;
        if (live) setTracker(t);
      },
      (error: unknown) => live && setProblem(errorText(error)),
    );
    return () => {
      live = false;
      opened?.close();
    };
  }, [runtime]);
  if (problem) return <p role="alert">{problem}</p>;
  if (!tracker) return <Spinner size="tiny" label="Loading your jobs" />;
  // What the estimate before a job shows beside its cost: the account's credits and today's limit.
  const allowance = async () => {
    const [usage, spend] = await Promise.allSettled([runtime.client.usage(), runtime.engine.spendStatus()]);
    const creditsLeft = usage.status === "fulfilled" ? creditsOf(usage.value.entries)?.usageRemaining : undefined;
    return {
      ...(creditsLeft !== undefined ? { creditsLeft } : {}),
      ...(spend.status === "fulfilled" ? { daily: { cap: spend.value.cap, used: spend.value.used } } : {}),
    };
  };
  return (
    <JobsPanel
      allowance={allowance}
      client={runtime.client}
      tracker={tracker}
      workbook={services.workbook}
      {...(services.mode === "excel" ? { readSelectedCells: readSelectedCellValues } : {})}
      {...(audienceSheet
        ? {
            audienceSend: {
              client: runtime.client,
              sheet: audienceSheet,
              ...(services.browserWorkbook ? { instructions: "Pick the table by clicking any column header of it below, then Read table." } : {}),
            },
          }
        : {})}
    />
  );
}

export function ExtraPanel({ tab }: { tab: ExtraTab }) {
  return tab === "enrich" ? <EnrichTab /> : <JobsTab />;
}
