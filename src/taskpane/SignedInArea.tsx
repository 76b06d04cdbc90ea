// What a signed-in user sees below the account header: usage, then tabs for company search,
// contact search, saved searches, enrichment, jobs and settings. Loaded with import() by App:
// the sign-in screen paints without the search forms and their pickers. The saved searches are
// read from the workbook here, once signed in. The contact search form is made the first time
// its tab opens, then kept: the pane starts with the company form alone (the contact form is
// over 40% of what the pane would draw at start, hidden).
import { lazy, Suspense, useState, type ReactNode } from "react";
import { Spinner, makeStyles } from "@fluentui/react-components";
import type { SavedSearchRecord } from "../office/workbook.js";
import { SavedSearchesProvider } from "./saved/useSavedSearches.js";
import { SearchTab } from "./search/SearchTab.js";
import { UsageGauge } from "./usage/UsageGauge.js";
import { ExtraPanel, EXTRA_TABS, type ExtraTab } from "./enrichAndJobsTabs.js";
import { SectionTabs, type SectionTab } from "./SectionTabs.js";
import { ErrorBoundary } from "./ErrorBoundary.js";

// Rarely opened tabs load on demand.
const SavedSearchesTab = lazy(() => import("./saved/SavedSearchesTab.js").then((m) => ({ default: m.SavedSearchesTab })));
const SignalsTab = lazy(() => import("./signals/SignalsTab.js").then((m) => ({ default: m.SignalsTab })));
const ResearchTab = lazy(() => import("./research/ResearchTab.js").then((m) => ({ default: m.ResearchTab })));
const AccountsTab = lazy(() => import("./accounts/AccountsTab.js").then((m) => ({ default: m.AccountsTab })));
const SettingsTab = lazy(() => import("./settings/SettingsTab.js").then((m) => ({ default: m.SettingsTab })));

type TabValue = "companies" | "contacts" | "signals" | "research" | "accounts" | "saved" | "settings" | ExtraTab;

const TABS: readonly SectionTab<TabValue>[] = [
  { value: "companies", label: "Companies" },
  { value: "contacts", label: "Contacts" },
  { value: "signals", label: "Signals" },
  { value: "research", label: "Research" },
  { value: "accounts", label: "Accounts" },
  { value: "saved", label: "Saved" },
  ...EXTRA_TABS,
  { value: "settings", label: "Settings" },
];

const useStyles = makeStyles({
  panel: { paddingTop: "8px" },
});

/** A tab's panel: loaded on demand, and inside its own error boundary (a failure stays in the tab). */
const lazyPanel = (label: string, node: ReactNode) => (
  <ErrorBoundary label={label}>
    <Suspense fallback={<Spinner size="tiny" label="Loading" />}>{node}</Suspense>
  </ErrorBoundary>
);

export function SignedInArea() {
  const styles = useStyles();
  const [tab, setTab] = useState<TabValue>("companies");
  const [opened, setOpened] = useState<{ search: SavedSearchRecord; at: number } | undefined>();
  // The contact form, once made, stays: what was typed there survives a switch of tabs.
  const [contactsMade, setContactsMade] = useState(false);
  const select = (value: TabValue) => {
    setTab(value);
    if (value === "contacts") setContactsMade(true);
  };

  const open = (search: SavedSearchRecord) => {
    setOpened({ search, at: Date.now() });
    select(search.kind === "company" ? "companies" : "contacts");
  };

  /** A search form, opened on the saved search the user picked when it is of this kind. */
  const searchForm = (kind: SavedSearchRecord["kind"], label: string) => {
    const picked = opened?.search.kind === kind ? opened : undefined;
    return (
      <ErrorBoundary label={label}>
        <SearchTab key={`${kind}-${picked?.at ?? 0}`} kind={kind} {...(picked ? { initial: picked.search } : {})} />
      </ErrorBoundary>
    );
  };

  return (
    <SavedSearchesProvider>
      <ErrorBoundary label="the usage figures">
        <UsageGauge />
      </ErrorBoundary>
      <SectionTabs<TabValue> tabs={TABS} selected={tab} onSelect={select} label="Task pane sections" />
      <div className={styles.panel} role="tabpanel" aria-label={tab}>
        {/* Both search forms stay once made, so switching tabs keeps what was typed. */}
        <div hidden={tab !== "companies"}>{searchForm("company", "the Companies tab")}</div>
        <div hidden={tab !== "contacts"}>{contactsMade && searchForm("contact", "the Contacts tab")}</div>
        {tab === "saved" && lazyPanel("the Saved tab", <SavedSearchesTab onEdit={open} />)}
        {tab === "signals" && lazyPanel("the Signals tab", <SignalsTab />)}
        {tab === "research" && lazyPanel("the Research tab", <ResearchTab />)}
        {tab === "accounts" && lazyPanel("the Accounts tab", <AccountsTab />)}
        {tab === "settings" && lazyPanel("the Settings tab", <SettingsTab />)}
        {EXTRA_TABS.some((t) => t.value === tab) && lazyPanel(`the ${tab === "enrich" ? "Enrich" : "Jobs"} tab`, <ExtraPanel tab={tab as ExtraTab} />)}
      </div>
    </SavedSearchesProvider>
  );
}
