// A company or contact search: the filter form with inline validation, sort and page size,
// the preview, "Insert into sheet" and "Save search".
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { Button, Dropdown, Field, Input, Option, Spinner, makeStyles } from "@fluentui/react-components";
import {
  COMPANY_FILTERS,
  COMPANY_SORT_FIELDS,
  CONTACT_FILTERS,
  CONTACT_SORT_FIELDS,
  DEFAULT_COMPANY_SORT,
  DEFAULT_CONTACT_SORT,
  summarizeIssues,
  type CompanySearchFilters,
  type ContactSearchFilters,
  type FilterSpec,
} from "../../core/contract/index.js";
import { defaultColumnKeys, type SearchKind } from "../../core/sheet/index.js";
import type { SavedSearchRecord } from "../../office/workbook.js";
import { InsertPanel } from "../insert/InsertPanel.js";
import { errorText, type SearchSpec } from "../insert/insertSearch.js";
import { useConfirm } from "../ConfirmDialog.js";
import { Notice } from "../Notice.js";
import { useSavedSearches } from "../saved/useSavedSearches.js";
import { useServices } from "../services.js";
import { fieldId, PICKER_POSITIONING } from "./FilterField.js";
import { FilterForm } from "./FilterForm.js";
import { filtersFromForm, formFromFilters, messagesByField, validateFilters, type FormValue, type FormValues } from "./formModel.js";
import { ResultsPreview, type PreviewPage } from "./ResultsPreview.js";
import { useServerIssues } from "./serverIssues.js";
import { markUnderManagement } from "./underManagement.js";

const useStyles = makeStyles({
  row: { display: "flex", gap: "8px", alignItems: "end", flexWrap: "wrap", marginTop: "8px", marginBottom: "8px" },
  grow: { flexGrow: 1 },
  // Scrolled to after a search: leave the tab strip's height above it.
  results: { scrollMarginTop: "8px" },
});

const SORT_LABELS: Record<string, string> = {
  name: "Name",
  employeeCount: "Employee count",
  revenue: "Revenue",
  contactAccuracyScore: "Accuracy score",
  lastName: "Last name",
  companyName: "Company name",
  relevance: "Relevance",
};
const PAGE_SIZES = ["10", "25", "50", "100"];
const matchText = (n: number, kind: SearchKind) =>
  `${n.toLocaleString("en-US")} ${kind === "company" ? (n === 1 ? "company" : "companies") : n === 1 ? "contact" : "contacts"}`;

export interface SearchTabProps {
  kind: SearchKind;
  /** A saved search to start from. */
  initial?: SavedSearchRecord;
}

export function SearchTab({ kind, initial }: SearchTabProps) {
  const styles = useStyles();
  const { runtime } = useServices();
  const saved = useSavedSearches();
  const specs: Record<string, FilterSpec> = kind === "company" ? COMPANY_FILTERS : CONTACT_FILTERS;
  const sortFields: readonly string[] = kind === "company" ? COMPANY_SORT_FIELDS : CONTACT_SORT_FIELDS;
  const defaultSort = kind === "company" ? DEFAULT_COMPANY_SORT : DEFAULT_CONTACT_SORT;
  const initialSort = initial?.sort ?? defaultSort;

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
  const [saveName, setSaveName] = useState(initial?.name ?? "");
  const [saveMessage, setSaveMessage] = useState<string | undefined>();
  // Each search the user asks for (not paging): an earlier insert's message then goes.
  const [searchRun, setSearchRun] = useState(0);
  // The table the last insert wrote, for the search it wrote: saving that search links the table.
  const [lastInsert, setLastInsert] = useState<{ searched: string; tableName: string } | undefined>();
  // Search (button or Enter) brings the results into view once they are there.
  const results = useRef<HTMLDivElement>(null);
  const reveal = useRef(false);
  // Set at once (not on the next render), so a second click cannot start a second search.
  const running = useRef(false);
  const confirm = useConfirm();

  const filters = useMemo(() => filtersFromForm(specs, values), [specs, values]);
  const issues = useMemo(() => validateFilters(kind, filters, specs), [kind, filters, specs]);
  const serverIssues = useServerIssues(issues);
  const { fields: messages, general } = messagesByField(serverIssues.all);
  const sort = `${descending ? "-" : ""}${sortField}`;
  const search: SearchSpec = { kind, filters, sort };
  const searchKey = (s: { filters: Record<string, unknown>; sort: string }) => JSON.stringify([s.filters, s.sort]);
  const stale = preview !== undefined && preview.searched !== searchKey({ filters, sort });

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
      const first = messagesByField(issues);
      const firstField = Object.keys(first.fields)[0];
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
      setPreview({
        kind,
        items: page.items,
        totalResults: page.totalResults,
        pageNumber: page.pageNumber || pageNumber,
        totalPages: page.totalPages,
        searched: searchKey({ filters, sort: searchedSort }),
        spec: { kind, filters, sort: searchedSort },
      });
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
  }, [searching]);

  const saveSearch = async () => {
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

  const blocked = issues.length > 0 ? summarizeIssues(issues) : undefined;
  const previewed = preview && preview.kind === kind ? preview.spec : undefined;

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

  return (
    <section aria-label={kind === "company" ? "Company search" : "Contact search"} onKeyDown={searchOnEnter}>
      <FilterForm specs={specs} values={values} messages={messages} onChange={onChange} />
      <div className={styles.row}>
        <Field label="Sort by">
          <Dropdown
            positioning={PICKER_POSITIONING}
            value={SORT_LABELS[sortField] ?? sortField}
            selectedOptions={[sortField]}
            onOptionSelect={(_, d) => d.optionValue && changeSort({ field: d.optionValue })}
          >
            {sortFields.map((f) => (
              <Option key={f} value={f}>
                {SORT_LABELS[f] ?? f}
              </Option>
            ))}
          </Dropdown>
        </Field>
        <Field label="Order">
          <Dropdown
            positioning={PICKER_POSITIONING}
            value={descending ? "Descending" : "Ascending"}
            selectedOptions={[descending ? "desc" : "asc"]}
            onOptionSelect={(_, d) => changeSort({ descending: d.optionValue === "desc" })}
          >
            <Option value="asc">Ascending</Option>
            <Option value="desc">Descending</Option>
          </Dropdown>
        </Field>
        <Field label="Page size">
          <Dropdown
            positioning={PICKER_POSITIONING}
            value={pageSize}
            selectedOptions={[pageSize]}
            onOptionSelect={(_, d) => d.optionValue && changePageSize(d.optionValue)}
          >
            {PAGE_SIZES.map((s) => (
              <Option key={s} value={s}>
                {s}
              </Option>
            ))}
          </Dropdown>
        </Field>
      </div>
      <div className={styles.row}>
        <Button
          appearance="primary"
          onClick={() => void runSearch(1, { fresh: true })}
          disabled={searching}
          icon={searching ? <Spinner size="extra-tiny" /> : undefined}
          aria-describedby={blocked ? `${kind}-search-blocked` : undefined}
        >
          Search
        </Button>
        {searching && <span role="status">Searching…</span>}
        {Object.keys(filters).length > 0 && (
          <Button appearance="subtle" onClick={resetFilters}>
            Reset all filters
          </Button>
        )}
      </div>
      {blocked && (attempted || Object.keys(messages).length > 0) && (
        <p id={`${kind}-search-blocked`} role="alert">
          Fix before searching: {blocked}
        </p>
      )}
      <div ref={results} className={styles.results}>
        {general.length > 0 && <p role="alert">{general.join(" ")}</p>}
        {searchProblem && <Notice intent="error">{searchProblem}</Notice>}
        {stale && (
          <Notice intent="warning" role="status" testId="preview-stale">
            The form has changed since this preview. Insert writes what the preview shows ({matchText(preview.totalResults, kind)}); search again to preview and
            insert the changed form.
          </Notice>
        )}
        {preview && preview.kind === kind && <ResultsPreview page={preview} busy={searching} onPage={(n) => void runSearch(n)} />}
      </div>
      <InsertPanel
        kind={kind}
        search={previewed ?? (blocked ? { problem: `Fix before inserting: ${blocked}` } : search)}
        columns={columns}
        onColumnsChange={setColumns}
        searchRun={searchRun}
        {...(preview && preview.kind === kind ? { answer: preview.items } : {})}
        onInserted={(outcome) => {
          if (!outcome.table) return;
          const written = previewed ?? search;
          setLastInsert({ searched: searchKey({ filters: written.filters, sort: written.sort ?? "" }), tableName: outcome.table.tableName });
          const match = saved.list.find((s) => s.name === saveName.trim() && s.kind === kind);
          if (match) void saved.update(match.id, { tableName: outcome.table.tableName });
        }}
      />
      <div className={styles.row}>
        <Field label="Search name" className={styles.grow}>
          <Input value={saveName} onChange={(_, d) => setSaveName(d.value)} />
        </Field>
        <Button onClick={() => void saveSearch()} disabled={issues.length > 0}>
          Save search
        </Button>
      </div>
      {saveMessage && <p role="status">{saveMessage}</p>}
      {confirm.dialog}
    </section>
  );
}
