// What a signed-in user sees below the account header: usage, then tabs for company search,
// contact search, saved searches, enrichment, jobs and settings. Loaded with import() by App:
// the sign-in screen paints without the search forms and their pickers. The saved searches are
// read from the workbook here, once signed in.
import { lazy, Suspense, useState, type ReactNode } from "react";
import { Spinner, makeStyles } from "@fluentui/react-components";
import type { SavedSearchRecord } from "../office/workbook.js";
import { SavedSearchesProvider } from "./saved/useSavedSearches.js";
import { SearchTab } from "./search/SearchTab.js";
import { UsageGauge } from "./usage/UsageGauge.js";
import { ExtraPanel, EXTRA_TABS, type ExtraTab } from "./enrichAndJobsTabs.js";
import { SectionTabs, type SectionTab } from "./SectionTabs.js";

// Rarely opened tabs load on demand.
const SavedSearchesTab = lazy(() => import("./saved/SavedSearchesTab.js").then((m) => ({ default: m.SavedSearchesTab })));
const SignalsTab = lazy(() => import("./signals/SignalsTab.js").then((m) => ({ default: m.SignalsTab })));
const ResearchTab = lazy(() => import("./research/ResearchTab.js").then((m) => ({ default: m.ResearchTab })));
const SettingsTab = lazy(() => import("./settings/SettingsTab.js").then((m) => ({ default: m.SettingsTab })));

type TabValue = "companies" | "contacts" | "signals" | "research" | "saved" | "settings" | ExtraTab;

const TABS: readonly SectionTab<TabValue>[] = [
  { value: "companies", label: "Companies" },
  { value: "contacts", label: "Contacts" },
  { value: "signals", label: "Signals" },
  { value: "research", label: "Research" },
  { value: "saved", label: "Saved" },
  ...EXTRA_TABS,
  { value: "settings", label: "Settings" },
];

const useStyles = makeStyles({
  panel: { paddingTop: "8px" },
});

const lazyPanel = (node: ReactNode) => <Suspense fallback={<Spinner size="tiny" label="Loading" />}>{node}</Suspense>;

export function SignedInArea() {
  const styles = useStyles();
  const [tab, setTab] = useState<TabValue>("companies");
  const [opened, setOpened] = useState<{ search: SavedSearchRecord; at: number } | undefined>();

  const open = (search: SavedSearchRecord) => {
    setOpened({ search, at: Date.now() });
    setTab(search.kind === "company" ? "companies" : "contacts");
  };

  return (
    <SavedSearchesProvider>
      <UsageGauge />
      <SectionTabs<TabValue> tabs={TABS} selected={tab} onSelect={setTab} label="Task pane sections" />
      <div className={styles.panel} role="tabpanel" aria-label={tab}>
        {/* Both search tabs stay mounted so switching tabs keeps what was typed. */}
        <div hidden={tab !== "companies"}>
          <SearchTab
            key={`company-${opened?.search.kind === "company" ? opened.at : 0}`}
            kind="company"
            {...(opened?.search.kind === "company" ? { initial: opened.search } : {})}
          />
        </div>
        <div hidden={tab !== "contacts"}>
          <SearchTab
            key={`contact-${opened?.search.kind === "contact" ? opened.at : 0}`}
            kind="contact"
            {...(opened?.search.kind === "contact" ? { initial: opened.search } : {})}
          />
        </div>
        {tab === "saved" && lazyPanel(<SavedSearchesTab onEdit={open} />)}
        {tab === "signals" && lazyPanel(<SignalsTab />)}
        {tab === "research" && lazyPanel(<ResearchTab />)}
        {tab === "settings" && lazyPanel(<SettingsTab />)}
        {EXTRA_TABS.some((t) => t.value === tab) && lazyPanel(<ExtraPanel tab={tab as ExtraTab} />)}
      </div>
    </SavedSearchesProvider>
  );
}
