// Per-user settings: which environment the add-in talks to. They live in the user's own
// storage (OfficeRuntime.storage in Office, localStorage in a browser), never in the workbook,
// so a shared workbook never carries anyone's endpoints or sign-in details.
import { environmentProblems, SANDBOX_ENVIRONMENT, type EnvironmentSettings } from "./environment.js";
import type { KeyValueItems } from "../storage/keyValue.js";

export interface UserSettings {
  environment: EnvironmentSettings;
}

export const DEFAULT_USER_SETTINGS: UserSettings = { environment: SANDBOX_ENVIRONMENT };

export const USER_SETTINGS_KEY = "bizdata.userSettings";

export interface UserSettingsStore {
  load(): Promise<UserSettings>;
  /** Saves settings after checking them; returns the problems instead when there are any. */
  save(settings: UserSettings): Promise<string[]>;
}

/** The stored shape's check (environmentSchema.ts, loaded on demand). */
const shapeCheck = () => import("./environmentSchema.js").then((m) => m.isEnvironmentSettings);

/** Reads stored settings; anything unreadable falls back to the defaults. */
function parseUserSettings(raw: string | null, isEnvironmentSettings: (value: unknown) => value is EnvironmentSettings): UserSettings {
  if (!raw) return DEFAULT_USER_SETTINGS;
  try {
    const parsed = JSON.parse(raw) as { environment?: unknown };
    return isEnvironmentSettings(parsed.environment) ? { environment: parsed.environment } : DEFAULT_USER_SETTINGS;
  } catch {
    return DEFAULT_USER_SETTINGS;
  }
}

export function createUserSettingsStore(storage: KeyValueItems): UserSettingsStore {
  return {
    load: async () => parseUserSettings(await storage.getItem(USER_SETTINGS_KEY), await shapeCheck()),
    save: async (settings) => {
      // The sandbox presets are fixed and local (plain http in tests): only their shape is checked.
      const preset = settings.environment.kind === "sandbox" || settings.environment.kind === "sandboxProduction";
      const isEnvironmentSettings = await shapeCheck();
      const problems = [
        ...(isEnvironmentSettings(settings.environment) ? [] : ["The settings are incomplete. Choose an environment again."]),
        ...(preset ? [] : environmentProblems(settings.environment)),
      ];
      if (problems.length > 0) return problems;
      await storage.setItem(USER_SETTINGS_KEY, JSON.stringify({ environment: settings.environment }));
      return [];
    },
  };
}
