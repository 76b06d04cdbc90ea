// A company or contact search's state and effects: the form and its checks, sort and page size,
// the preview (and the search it shows), and saving the search (linked to the table the last
// insert wrote). The views (SearchTab.tsx) show what this holds.
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import {
  COMPANY_FILTERS,
  CONTACT_FILTERS,
  DEFAULT_COMPANY_SORT,
  DEFAULT_CONTACT_SORT,
  summarizeIssues,
  type CompanySearchFilters,
  type ContactSearchFilters,
  type FilterSpec,
} from "../../core/contract/index.js";
import { defaultColumnKeys, type SearchKind } from "../../core/sheet/index.js";
import type { SavedSearchRecord } from "../../office/workbook.js";
import { errorText } from "../errorText.js";
import type { InsertOutcome, SearchSpec } from "../insert/insertSearch.js";
import { useConfirm } from "../ConfirmDialog.js";
import { useSavedSearches } from "../saved/useSavedSearches.js";
import { useServices } from "../services.js";
import { fieldId } from "./FilterField.js";
import { filtersFromForm, formFromFilters, messagesByField, validateFilters, type FormValue, type FormValues } from "./formModel.js";
import type { PreviewPage } from "./ResultsPreview.js";
import { useServerIssues } from "./serverIssues.js";
import { markUnderManagement } from "./underManagement.js";

/** Tells one search (filters and order) from another. */
const searchKey = (s: { filters: Record<string, unknown>; sort: string }) => JSON.stringify([s.filters, s.sort]);

/** The saved search's name and message, and the table the last insert wrote (saving that search links it). */
function useSaveSearch(kind: SearchKind, initial: SavedSearchRecord | undefined) {
  const saved = useSavedSearches();
  const [saveName, setSaveName] = useState(initial?.name ?? "");
  const [saveMessage, setSaveMessage] = useState<string | undefined>();
  // The table the last insert wrote, for the search it wrote: saving that search links the table.
  const [lastInsert, setLastInsert] = useState<{ searched: string; tableName: string } | undefined>();
  const confirm = useConfirm();

  const saveSearch = async (search: SearchSpec, columns: string[]) => {
    const { filters, sort = "" } = search;
    const name = saveName.trim();
    if (!name) {
      setSaveMessage("Give the search a name first.");
      return;
    }
    const existing = saved.list.find((s) => s.name.toLowerCase() === name.toLowerCase());
    if (
      existing &&
      !(await confirm.ask({
        title: "Replace the saved search?",
        text: `This workbook already has a search named "${existing.name}". Replace it with this one?`,
        no: "Keep it",
        yes: "Replace",
      }))
    ) {
      setSaveMessage(`Not saved: "${existing.name}" was kept. Choose another name to keep both.`);
      return;
    }
    // Saved right after inserting this very search: the search refreshes that table.
    const linked = lastInsert && lastInsert.searched === searchKey({ filters, sort }) ? lastInsert.tableName : undefined;
    try {
      await saved.save({ name, kind, filters, sort, columns, ...(linked ? { tableName: linked } : {}) });
      setSaveMessage(
        linked ? `Saved "${name}" in this workbook, linked to table ${linked}: its Refresh replaces that table's rows.` : `Saved "${name}" in this workbook.`,
      );
    } catch (error) {
      setSaveMessage(`Could not save: ${errorText(error)}`);
    }
  };

  /** A table was written for `written`: remembered, and the saved search of this name now refreshes it. */
  const inserted = (outcome: InsertOutcome, written: SearchSpec) => {
    if (!outcome.table) return;
    setLastInsert({ searched: searchKey({ filters: written.filters, sort: written.sort ?? "" }), tableName: outcome.table.tableName });
    const match = saved.list.find((s) => s.name === saveName.trim() && s.kind === kind);
    if (match) void saved.update(match.id, { tableName: outcome.table.tableName });
  };

  return { saveName, setSaveName, saveMessage, saveSearch, inserted, dialog: confirm.dialog };
}

export function useSearchTab(kind: SearchKind, initial: SavedSearchRecord | undefined) {
  const { runtime } = useServices();
  const specs: Record<string, FilterSpec> = kind === "company" ? COMPANY_FILTERS : CONTACT_FILTERS;
  const initialSort = initial?.sort ?? (kind === "company" ? DEFAULT_COMPANY_SORT : DEFAULT_CONTACT_SORT);
  const [values, setValues] = useState<FormValues>(() => (initial ? formFromFilters(specs, initial.filters) : {}));
  const [sortField, setSortField] = useState(initialSort.replace(/^-/, ""));
  const [descending, setDescending] = useState(initialSort.startsWith("-"));
  const [pageSize, setPageSize] = useState("25");
  const [columns, setColumns] = useState<string[]>(initial?.columns.length ? initial.columns : defaultColumnKeys(kind));
  // The preview remembers the search it shows: a changed form is told apart from it, and Insert
  // writes that search (what the user sees), not a form edited since.
  const [preview, setPreview] = useState<(PreviewPage & { searched: string; spec: SearchSpec }) | undefined>();
  const [searching, setSearching] = useState(false);
  const [searchProblem, setSearchProblem] = useState<string | undefined>();
  const [attempted, setAttempted] = useState(false);
  // Each search the user asks for (not paging): an earlier insert's message then goes.
  const [searchRun, setSearchRun] = useState(0);
  // Search (button or Enter) brings the results into view once they are there.
  const results = useRef<HTMLDivElement>(null);
  const reveal = useRef(false);
  // Set at once (not on the next render), so a second click cannot start a second search.
  const running = useRef(false);
  const saving = useSaveSearch(kind, initial);

  const filters = useMemo(() => filtersFromForm(specs, values), [specs, values]);
  const issues = useMemo(() => validateFilters(kind, filters, specs), [kind, filters, specs]);
  const serverIssues = useServerIssues(issues);
  const { fields: messages, general } = messagesByField(serverIssues.all);
  const sort = `${descending ? "-" : ""}${sortField}`;
  const search: SearchSpec = { kind, filters, sort };
  const stale = preview !== undefined && preview.searched !== searchKey({ filters, sort });
  const shown = preview && preview.kind === kind ? preview : undefined;

  const resetFilters = () => {
    setValues({});
    serverIssues.clear();
    setAttempted(false);
  };
  const onChange = (name: string, value: FormValue | undefined) => {
    setValues((v) => ({ ...v, [name]: value }));
    serverIssues.clearField(name);
  };

  const runSearch = async (pageNumber: number, change: { sort?: string; pageSize?: string; fresh?: boolean } = {}) => {
    if (running.current) return;
    setAttempted(true);
    if (issues.length > 0) {
      const firstField = Object.keys(messagesByField(issues).fields)[0];
      if (firstField) document.getElementById(fieldId(firstField))?.focus();
      return;
    }
    running.current = true;
    if (change.fresh) {
      setSearchRun((n) => n + 1);
      reveal.current = true;
    }
    setSearching(true);
    setSearchProblem(undefined);
    const searchedSort = change.sort ?? sort;
    try {
      const options = { page: pageNumber, size: Number(change.pageSize ?? pageSize), sort: searchedSort };
      const page =
        kind === "company"
          ? await runtime.client.searchCompanies(filters as CompanySearchFilters, options)
          : await runtime.client.searchContacts(filters as ContactSearchFilters, options);
      markUnderManagement(runtime.engine, kind, page.items);
      const searched = searchKey({ filters, sort: searchedSort });
      const { items, totalResults, totalPages } = page;
      setPreview({ kind, items, totalResults, pageNumber: page.pageNumber || pageNumber, totalPages, searched, spec: { kind, filters, sort: searchedSort } });
    } catch (error) {
      // A 400 from the service points at its field: show it there.
      serverIssues.fromError(error);
      setSearchProblem(errorText(error));
      // Results of an earlier search must not look like the answer to this one.
      setPreview(undefined);
    } finally {
      running.current = false;
      setSearching(false);
    }
  };

  // After a search from the button or Enter: the results (or the problem) scroll into view.
  useEffect(() => {
    if (searching || !reveal.current) return;
    reveal.current = false;
    results.current?.scrollIntoView?.({ block: "start" });
    // The keyboard follows: the next Tab goes on from the results, toward Insert.
    results.current?.focus({ preventScroll: true });
  }, [searching]);

  // Enter in a text field runs the search (pickers keep Enter for choosing).
  const searchOnEnter = (e: KeyboardEvent<HTMLElement>) => {
    const target = e.target as HTMLElement;
    if (e.key !== "Enter" || target.tagName !== "INPUT" || target.getAttribute("role") === "combobox") return;
    e.preventDefault();
    void runSearch(1, { fresh: true });
  };
  const changeSort = (next: { field?: string; descending?: boolean }) => {
    const field = next.field ?? sortField;
    const desc = next.descending ?? descending;
    setSortField(field);
    setDescending(desc);
    // The preview follows the order at once (when it still shows the form's filters).
    if (preview && !stale) void runSearch(1, { sort: `${desc ? "-" : ""}${field}` });
  };
  const changePageSize = (size: string) => {
    setPageSize(size);
    if (preview && !stale) void runSearch(1, { pageSize: size });
  };

  const blocked = issues.length > 0 ? summarizeIssues(issues) : undefined;
  const previewed = shown?.spec;
  const saveSearch = () => saving.saveSearch(search, columns);
  const inserted = (outcome: InsertOutcome) => saving.inserted(outcome, previewed ?? search);
  const insertSearch = previewed ?? (blocked ? { problem: `Fix before inserting: ${blocked}` } : search);
  return {
    specs,
    values,
    onChange,
    messages,
    general,
    filters,
    issues,
    blocked,
    attempted,
    resetFilters,
    sortField,
    descending,
    changeSort,
    pageSize,
    changePageSize,
    columns,
    setColumns,
    searching,
    searchProblem,
    preview,
    shown,
    stale,
    searchRun,
    results,
    searchOnEnter,
    runSearch,
    saving,
    saveSearch,
    inserted,
    insertSearch,
  };
}

export type SearchTabState = ReturnType<typeof useSearchTab>;
