// Starts the task pane: asks Office which host this is (none means browser mode), picks the
// workbook adapter, reads the user's settings, builds the runtime through the composition root
// (loaded with import(), alongside the workbook adapter, so the service client, the enrichment
// engine and the contract's validators are not in the page's first JavaScript) and renders the app. In browser mode a page address like ?api=http://127.0.0.1:4010 points
// the session at a sandbox (demonstrations and tests) with its development tokens.
import { StrictMode, useEffect, useMemo, useState } from "react";
import { createRoot } from "react-dom/client";
import { FluentProvider, webLightTheme } from "@fluentui/react-components";
import { sandboxEnvironment, type EnvironmentSettings } from "../core/settings/environment.js";
import { httpUrl } from "../core/sheet/httpUrl.js";
import { createUserSettingsStore, type UserSettingsStore } from "../core/settings/userSettings.js";
import type { BrowserWorkbook } from "../office/browserWorkbook.js";
import { userStorage } from "../office/hostStorage.js";
import type { WorkbookAdapter } from "../office/workbook.js";
import { officeHost, supportsEntityCards } from "../office/hostCapabilities.js";
import type { TokenSourceFactory } from "../runtime.js";
import { App } from "./App.js";
import { DEPLOYED_START_ENVIRONMENT } from "./deployment.js";
import { ServicesProvider, type TaskPaneServices } from "./services.js";

/** A sandbox address from the page address, honoured in browser mode only. */
function sandboxOverride(search: string): EnvironmentSettings | undefined {
  const url = httpUrl(new URLSearchParams(search).get("api") ?? "");
  if (!url) return undefined;
  return sandboxEnvironment(url.origin);
}

/** The composition root (src/runtime.ts), loaded with import() at start-up. */
type RuntimeModule = typeof import("../runtime.js");

interface BootResult {
  runtimeModule: RuntimeModule;
  mode: "excel" | "browser";
  environment: EnvironmentSettings;
  overridden: boolean;
  workbook: WorkbookAdapter;
  browserWorkbook?: BrowserWorkbook;
  settings: UserSettingsStore;
}

function Root({ boot }: { boot: BootResult }) {
  const { cellFunctionsWiring, devTokenSource, sharedRuntime, signInTokenSource } = boot.runtimeModule;
  const [environment, setEnvironment] = useState(boot.environment);
  const tokenSource: TokenSourceFactory = boot.overridden ? (env) => devTokenSource(env) : signInTokenSource(boot.mode === "excel" ? "office" : "browser");
  const runtime = useMemo(() => sharedRuntime({ environment, tokenSource }), [environment]); // tokenSource is fixed per page
  useEffect(() => {
    // The cell functions of this shared runtime use the same engine (one cache, one rate limit)
    // and the same job poller as the Jobs panel; in browser mode too, where a host that offers
    // custom functions (or a test) may calculate them.
    let live = true;
    import("../functions/functions.js").then(
      ({ configureFunctions, configureJobStatus }) => {
        if (!live) return;
        const wiring = cellFunctionsWiring(runtime, { supportsEntityCards });
        configureFunctions(wiring.functions);
        configureJobStatus(wiring.jobStatus);
      },
      (error: unknown) => console.error("The cell functions could not be connected", error),
    );
    return () => {
      live = false;
    };
  }, [runtime, cellFunctionsWiring]);
  const services: TaskPaneServices = {
    mode: boot.mode,
    runtime,
    workbook: boot.workbook,
    ...(boot.browserWorkbook ? { browserWorkbook: boot.browserWorkbook } : {}),
    settings: boot.settings,
    changeEnvironment: setEnvironment,
    environmentOverridden: boot.overridden,
    onUsageChanged: (listener) => runtime.onUsageChanged(listener),
  };
  return (
    <ServicesProvider value={services}>
      <App />
    </ServicesProvider>
  );
}

async function start(container: HTMLElement): Promise<void> {
  const host = await officeHost();
  const browser = host === null;
  // Nothing stored: the sandbox (of the profile) this dev server serves (a saved environment stays as saved).
  const settings = createUserSettingsStore(userStorage(), { environment: DEPLOYED_START_ENVIRONMENT });
  const stored = await settings.load();
  const override = browser ? sandboxOverride(window.location.search) : undefined;
  // Each mode loads only its own workbook adapter; the composition root loads at the same time.
  const loadingRuntime = import("../runtime.js");
  let browserWorkbook: BrowserWorkbook | undefined;
  let workbook: WorkbookAdapter;
  if (browser) {
    const [{ BrowserWorkbook, memoryStorage }] = await Promise.all([import("../office/browserWorkbook.js"), loadingRuntime]);
    browserWorkbook = new BrowserWorkbook(typeof localStorage !== "undefined" ? localStorage : memoryStorage());
    workbook = browserWorkbook;
  } else {
    const [{ ExcelWorkbook }] = await Promise.all([import("../office/excelWorkbook.js"), loadingRuntime]);
    workbook = new ExcelWorkbook();
  }
  const boot: BootResult = {
    runtimeModule: await loadingRuntime,
    mode: browser ? "browser" : "excel",
    environment: override ?? stored.environment,
    overridden: override !== undefined,
    workbook,
    ...(browserWorkbook ? { browserWorkbook } : {}),
    settings,
  };
  document.documentElement.dataset.mode = boot.mode;
  createRoot(container).render(
    <StrictMode>
      <FluentProvider theme={webLightTheme}>
        <Root boot={boot} />
      </FluentProvider>
    </StrictMode>,
  );
}

const container = document.getElementById("root");
if (container) {
  start(container).catch((error: unknown) => {
    container.textContent = `BizData could not start: ${error instanceof Error ? error.message : String(error)}`;
  });
}
