// Per-user settings: which environment the add-in talks to. They live in the user's own
// storage (OfficeRuntime.storage in Office, localStorage in a browser), never in the workbook,
// so a shared workbook never carries anyone's endpoints or sign-in details.
import { environmentProblems, PRODUCTION_ENVIRONMENT, SANDBOX_ENVIRONMENT, type EnvironmentSettings } from "./environment.js";

export interface UserSettings {
  environment: EnvironmentSettings;
}

export const DEFAULT_USER_SETTINGS: UserSettings = { environment: SANDBOX_ENVIRONMENT };

/** Async key-value storage owned by the user (OfficeRuntime.storage has this shape). */
export interface UserStorage {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
}

export const USER_SETTINGS_KEY = "bizdata.userSettings";

export interface UserSettingsStore {
  load(): Promise<UserSettings>;
  /** Saves settings after checking them; returns the problems instead when there are any. */
  save(settings: UserSettings): Promise<string[]>;
}

function isEnvironment(value: unknown): value is EnvironmentSettings {
  if (!value || typeof value !== "object") return false;
  const env = value as Partial<EnvironmentSettings>;
  return (
    (env.kind === "sandbox" || env.kind === "production" || env.kind === "custom") &&
    typeof env.label === "string" &&
    typeof env.apiBaseUrl === "string" &&
    typeof env.audiencesBaseUrl === "string" &&
    !!env.signIn &&
    typeof env.signIn.authority === "string" &&
    typeof env.signIn.clientId === "string" &&
    Array.isArray(env.signIn.scopes)
  );
}

/** Reads stored settings; anything unreadable falls back to the defaults. */
export function parseUserSettings(raw: string | null): UserSettings {
  if (!raw) return DEFAULT_USER_SETTINGS;
  try {
    const parsed = JSON.parse(raw) as { environment?: unknown };
    return isEnvironment(parsed.environment) ? { environment: parsed.environment } : DEFAULT_USER_SETTINGS;
  } catch {
    return DEFAULT_USER_SETTINGS;
  }
}

export function createUserSettingsStore(storage: UserStorage): UserSettingsStore {
  return {
    load: async () => parseUserSettings(await storage.getItem(USER_SETTINGS_KEY)),
    save: async (settings) => {
      const problems = settings.environment.kind === "sandbox" ? [] : environmentProblems(settings.environment);
      if (problems.length > 0) return problems;
      await storage.setItem(USER_SETTINGS_KEY, JSON.stringify({ environment: settings.environment }));
      return [];
    },
  };
}

/** The preset environments a user picks from (custom starts from production's shape). */
export const ENVIRONMENT_PRESETS: readonly EnvironmentSettings[] = [SANDBOX_ENVIRONMENT, PRODUCTION_ENVIRONMENT];
