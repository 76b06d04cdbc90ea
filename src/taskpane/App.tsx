// The task pane: the account header (or the sign-in screen), then, signed in, the search and
// other tabs (SignedInArea, loaded with import() so the first paint needs little JavaScript).
// In browser mode the inserted tables show below.
import { lazy, Suspense, useEffect, useState, type ReactNode } from "react";
import { makeStyles, PortalMountNodeProvider, tokens } from "@fluentui/react-components";
import { SignInPanel } from "./auth/SignInPanel.js";
import { useAccount } from "./auth/useAccount.js";
import { ErrorBoundary } from "./ErrorBoundary.js";
import { LoadingSpinner } from "./LoadingSpinner.js";
import { useServices } from "./services.js";
import { useHasStorageProblems } from "./storageProblems.js";

const loadSignedInArea = () => import("./SignedInArea.js").then((m) => ({ default: m.SignedInArea }));
const SignedInArea = lazy(loadSignedInArea);
const SettingsTab = lazy(() => import("./settings/SettingsTab.js").then((m) => ({ default: m.SettingsTab })));
const StorageNotice = lazy(() => import("./StorageNotice.js").then((m) => ({ default: m.StorageNotice })));
const BrowserWorkbookView = lazy(() => import("./workbook/BrowserWorkbookView.js").then((m) => ({ default: m.BrowserWorkbookView })));

const useStyles = makeStyles({
  root: { padding: "8px 12px", fontFamily: tokens.fontFamilyBase, maxWidth: "960px" },
  title: { fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold, margin: 0 },
});

/** A part loaded on demand, inside its own error boundary: a failure in it never blanks the pane. */
const lazyPanel = (label: string, node: ReactNode) => (
  <ErrorBoundary label={label}>
    <Suspense fallback={<LoadingSpinner label="Loading" />}>{node}</Suspense>
  </ErrorBoundary>
);

export function App() {
  const styles = useStyles();
  const services = useServices();
  const { account } = useAccount(services.runtime.tokens);
  // Popups (picker lists, menus, dialogs) open inside the pane's main landmark, not at the end
  // of the page, so everything on the page is inside a landmark (axe's region rule).
  const [main, setMain] = useState<HTMLElement | null>(null);
  const storageProblems = useHasStorageProblems(services.runtime.storageNotices);

  useEffect(() => {
    // Fetch the search tabs right after the first paint, while the user signs in. A failure
    // shows again (and is reported) when the lazy component loads them.
    loadSignedInArea().catch((error: unknown) => console.error("The search tabs could not be loaded", error));
  }, []);

  return (
    <main className={styles.root} ref={setMain}>
      <PortalMountNodeProvider value={main ?? undefined}>
        <h1 className={styles.title}>BizData</h1>
        {storageProblems && (
          <Suspense fallback={null}>
            <StorageNotice notices={services.runtime.storageNotices} />
          </Suspense>
        )}
        {/* Keyed by the environment: a sign-in problem with the previous one does not stay after a switch. */}
        <ErrorBoundary label="the sign-in area">
          <SignInPanel
            key={`${services.runtime.environment.label}|${services.runtime.environment.apiBaseUrl}`}
            tokenSource={services.runtime.tokens}
            environment={services.runtime.environment}
          />
        </ErrorBoundary>
        {!account && lazyPanel("the settings", <SettingsTab />)}
        {account && lazyPanel("the tabs", <SignedInArea />)}
        {services.browserWorkbook && (
          <>
            <h2>Workbook</h2>
            {lazyPanel("the workbook", <BrowserWorkbookView workbook={services.browserWorkbook} />)}
          </>
        )}
      </PortalMountNodeProvider>
    </main>
  );
}
