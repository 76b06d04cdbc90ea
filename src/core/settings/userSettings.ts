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
function parseUserSettings(raw: string | null, isEnvironmentSettings: (value: unknown) => value is EnvironmentSettings, defaults: UserSettings): UserSettings {
  if (!raw) return defaults;
  try {
    const parsed = JSON.parse(raw) as { environment?: unknown };
    return isEnvironmentSettings(parsed.environment) ? { environment: parsed.environment } : defaults;
  } catch {
    return defaults;
  }
}

/**
 * The user's settings in `storage`. `defaults` stand when nothing (readable) is stored; the
 * sandbox presets in it are the ones this build serves (the task pane passes its dev server's).
 */
export function createUserSettingsStore(storage: KeyValueItems, defaults: UserSettings = DEFAULT_USER_SETTINGS): UserSettingsStore {
  return {
    load: async () => parseUserSettings(await storage.getItem(USER_SETTINGS_KEY), await shapeCheck(), defaults),
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
