// The task pane: account and usage on top, then tabs for company search, contact search, saved
// searches, enrichment, jobs and settings. In browser mode the inserted tables show below.
import { lazy, Suspense, useState, type ReactNode } from "react";
import { Spinner, Tab, TabList, makeStyles, tokens } from "@fluentui/react-components";
import type { SavedSearchRecord } from "../office/workbook.js";
import { SignInPanel } from "./auth/SignInPanel.js";
import { useAccount } from "./auth/useAccount.js";
import { SavedSearchesProvider } from "./saved/useSavedSearches.js";
import { SearchTab } from "./search/SearchTab.js";
import { useServices } from "./services.js";
import { UsageGauge } from "./usage/UsageGauge.js";
import { ExtraPanel, EXTRA_TABS, type ExtraTab } from "./extraTabs.js";

// Rarely opened tabs load on demand, keeping the first load small.
const SavedSearchesTab = lazy(() => import("./saved/SavedSearchesTab.js").then((m) => ({ default: m.SavedSearchesTab })));
const SettingsTab = lazy(() => import("./settings/SettingsTab.js").then((m) => ({ default: m.SettingsTab })));
const BrowserWorkbookView = lazy(() => import("./workbook/BrowserWorkbookView.js").then((m) => ({ default: m.BrowserWorkbookView })));

type TabValue = "companies" | "contacts" | "saved" | "settings" | ExtraTab;

const useStyles = makeStyles({
  root: { padding: "8px 12px", fontFamily: tokens.fontFamilyBase, maxWidth: "960px" },
  title: { fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold, margin: 0 },
  panel: { paddingTop: "8px" },
});

const lazyPanel = (node: ReactNode) => <Suspense fallback={<Spinner size="tiny" label="Loading" />}>{node}</Suspense>;

export function App() {
  const styles = useStyles();
  const services = useServices();
  const [tab, setTab] = useState<TabValue>("companies");
  const [opened, setOpened] = useState<{ search: SavedSearchRecord; at: number } | undefined>();
  const { account } = useAccount(services.runtime.tokens);

  const open = (search: SavedSearchRecord) => {
    setOpened({ search, at: Date.now() });
    setTab(search.kind === "company" ? "companies" : "contacts");
  };

  return (
    <SavedSearchesProvider>
      <main className={styles.root}>
        <h1 className={styles.title}>BizData</h1>
        <SignInPanel tokenSource={services.runtime.tokens} environment={services.runtime.environment} />
        {!account && lazyPanel(<SettingsTab />)}
        {account && (
          <>
        <UsageGauge />
        <TabList selectedValue={tab} onTabSelect={(_, d) => setTab(d.value as TabValue)} aria-label="Task pane sections">
          <Tab value="companies">Companies</Tab>
          <Tab value="contacts">Contacts</Tab>
          <Tab value="saved">Saved</Tab>
          {EXTRA_TABS.map((t) => (
            <Tab key={t.value} value={t.value}>
              {t.label}
            </Tab>
          ))}
          <Tab value="settings">Settings</Tab>
        </TabList>
        <div className={styles.panel} role="tabpanel" aria-label={tab}>
          {/* Both search tabs stay mounted so switching tabs keeps what was typed. */}
          <div hidden={tab !== "companies"}>
            <SearchTab key={`company-${opened?.search.kind === "company" ? opened.at : 0}`} kind="company" {...(opened?.search.kind === "company" ? { initial: opened.search } : {})} />
          </div>
          <div hidden={tab !== "contacts"}>
            <SearchTab key={`contact-${opened?.search.kind === "contact" ? opened.at : 0}`} kind="contact" {...(opened?.search.kind === "contact" ? { initial: opened.search } : {})} />
          </div>
          {tab === "saved" && lazyPanel(<SavedSearchesTab onEdit={open} />)}
          {tab === "settings" && lazyPanel(<SettingsTab />)}
          {EXTRA_TABS.some((t) => t.value === tab) && lazyPanel(<ExtraPanel tab={tab as ExtraTab} />)}
        </div>
          </>
        )}
        {services.browserWorkbook && (
          <>
            <h2>Workbook</h2>
            {lazyPanel(<BrowserWorkbookView workbook={services.browserWorkbook} />)}
          </>
        )}
      </main>
    </SavedSearchesProvider>
  );
}
