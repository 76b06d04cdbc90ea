/* global OfficeRuntime */
// The user's own storage: OfficeRuntime.storage inside Office (shared by the task pane and the
// functions of the shared runtime), the page's localStorage in browser mode, memory otherwise.
import type { UserStorage } from "../core/settings/userSettings.js";

export function userStorage(): UserStorage {
  if (typeof OfficeRuntime !== "undefined" && OfficeRuntime.storage) {
    const storage = OfficeRuntime.storage;
    return { getItem: (key) => storage.getItem(key), setItem: (key, value) => storage.setItem(key, value) };
  }
  if (typeof localStorage !== "undefined") {
    return {
      getItem: async (key) => localStorage.getItem(key),
      setItem: async (key, value) => localStorage.setItem(key, value),
    };
  }
  const map = new Map<string, string>();
  return { getItem: async (key) => map.get(key) ?? null, setItem: async (key, value) => void map.set(key, value) };
}
