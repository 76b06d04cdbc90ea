// What the task pane's components get from the composition root, through React context:
// the runtime (client, tokens, engine), the workbook adapter, and the user's settings store.
// Components never build a client or touch Office themselves.
import { createContext, useContext } from "react";
import type { EnvironmentSettings } from "../core/settings/environment.js";
import type { UserSettingsStore } from "../core/settings/userSettings.js";
import type { BrowserWorkbook } from "../office/browserWorkbook.js";
import type { WorkbookAdapter } from "../office/workbook.js";
import type { Runtime } from "../runtime.js";

export interface TaskPaneServices {
  mode: "excel" | "browser";
  runtime: Runtime;
  workbook: WorkbookAdapter;
  /** Present in browser mode: the page renders its tables. */
  browserWorkbook?: BrowserWorkbook;
  settings: UserSettingsStore;
  /** Rebuilds the runtime for another environment (after Settings are saved). */
  changeEnvironment(environment: EnvironmentSettings): void;
  /** True when the API address came from the page address (tests, demonstrations). */
  environmentOverridden: boolean;
  /** Calls the listener after a request that changes the account's usage; returns the unsubscribe. */
  onUsageChanged?(listener: () => void): () => void;
}

const ServicesContext = createContext<TaskPaneServices | null>(null);

export const ServicesProvider = ServicesContext.Provider;

/** The services when inside ServicesProvider, else null (parts that work from props alone). */
export function useOptionalServices(): TaskPaneServices | null {
  return useContext(ServicesContext);
}

export function useServices(): TaskPaneServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error("useServices outside ServicesProvider");
  return services;
}
