// Saved searches (filters, sort, columns and the table they fill), kept in the workbook through
// the workbook adapter, shared by the search tabs and the Saved tab. Never tokens or endpoints.
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import type { SavedSearchRecord } from "../../office/workbook.js";
import { errorText } from "../errorText.js";
import { useServices } from "../services.js";

export interface SavedSearches {
  list: SavedSearchRecord[];
  problem?: string;
  save(search: Omit<SavedSearchRecord, "id" | "savedAt">): Promise<SavedSearchRecord>;
  update(id: string, change: Partial<Omit<SavedSearchRecord, "id">>): Promise<void>;
  remove(id: string): Promise<void>;
}

const Ctx = createContext<SavedSearches | null>(null);

function newId(): string {
  return typeof crypto !== "undefined" && "randomUUID" in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

export function SavedSearchesProvider({ children }: { children: ReactNode }) {
  const { workbook } = useServices();
  const [list, setList] = useState<SavedSearchRecord[]>([]);
  const [problem, setProblem] = useState<string | undefined>();

  useEffect(() => {
    let live = true;
    workbook.loadSavedSearches().then(
      (loaded) => live && setList(loaded),
      (error: unknown) => live && setProblem(`Saved searches could not be read: ${errorText(error)}`),
    );
    return () => {
      live = false;
    };
  }, [workbook]);

  const store = useCallback(
    async (next: SavedSearchRecord[]) => {
      await workbook.storeSavedSearches(next);
      setList(next);
    },
    [workbook],
  );

  const value = useMemo<SavedSearches>(
    () => ({
      list,
      ...(problem ? { problem } : {}),
      save: async (search) => {
        // Saving under an existing name replaces that search.
        const existing = list.find((s) => s.name.toLowerCase() === search.name.toLowerCase());
        const record: SavedSearchRecord = { ...search, id: existing?.id ?? newId(), savedAt: new Date().toISOString() };
        if (existing?.tableName && !record.tableName) record.tableName = existing.tableName;
        await store([...list.filter((s) => s.id !== record.id), record]);
        return record;
      },
      update: async (id, change) => store(list.map((s) => (s.id === id ? { ...s, ...change } : s))),
      remove: async (id) => store(list.filter((s) => s.id !== id)),
    }),
    [list, problem, store],
  );
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function useSavedSearches(): SavedSearches {
  const value = useContext(Ctx);
  if (!value) throw new Error("useSavedSearches outside SavedSearchesProvider");
  return value;
}
