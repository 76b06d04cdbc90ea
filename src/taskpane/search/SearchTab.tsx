// A company or contact search: the filter form with inline validation, sort and page size,
// the preview, "Insert into sheet" and "Save search". The state and the requests are
// useSearchTab's; the views here show what it holds.
import { Button, Dropdown, Field, Input, Option, Spinner, makeStyles } from "@fluentui/react-components";
import { COMPANY_SORT_FIELDS, CONTACT_SORT_FIELDS } from "../../core/contract/index.js";
import type { SearchKind } from "../../core/sheet/index.js";
import { usePlanAllows, useRefusedFilters } from "../entitledFields.js";
import { NotInPlan } from "../NotInPlan.js";
import type { SavedSearchRecord } from "../../office/workbook.js";
import { InsertPanel } from "../insert/InsertPanel.js";
import { Notice } from "../Notice.js";
import { PICKER_POSITIONING } from "./FilterField.js";
import { FilterForm } from "./FilterForm.js";
import { ResultsPreview } from "./ResultsPreview.js";
import { useSearchTab, type SearchTabState } from "./useSearchTab.js";
import { ErrorBoundary } from "../ErrorBoundary.js";

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
  const state = useSearchTab(kind, initial);
  const { filters, blocked, messages, searching, preview, shown, saving } = state;
  const kindAllowed = usePlanAllows()(kind);
  const refusedFilter = useRefusedFilters(kind);
  return (
    <section aria-label={kind === "company" ? "Company search" : "Contact search"} onKeyDown={state.searchOnEnter}>
      <NotInPlan allowance={kindAllowed} id={`${kind}-not-in-plan`} />
      <FilterForm specs={state.specs} values={state.values} messages={messages} onChange={state.onChange} refused={refusedFilter} />
      <SortControls kind={kind} state={state} />
      <div className={styles.row}>
        <Button
          appearance="primary"
          onClick={() => void state.runSearch(1, { fresh: true })}
          disabled={searching || !kindAllowed.allowed}
          icon={searching ? <Spinner size="extra-tiny" /> : undefined}
          aria-describedby={blocked ? `${kind}-search-blocked` : undefined}
        >
          Search
        </Button>
        {searching && <span role="status">Searching…</span>}
        {Object.keys(filters).length > 0 && (
          <Button appearance="subtle" onClick={state.resetFilters}>
            Reset all filters
          </Button>
        )}
      </div>
      {blocked && (state.attempted || Object.keys(messages).length > 0) && (
        <p id={`${kind}-search-blocked`} role="alert">
          Fix before searching: {blocked}
        </p>
      )}
      <div ref={state.results} className={styles.results} tabIndex={-1} role="region" aria-label="Search results">
        {state.general.length > 0 && <p role="alert">{state.general.join(" ")}</p>}
        {state.searchProblem && <Notice intent="error">{state.searchProblem}</Notice>}
        {state.stale && preview && (
          <Notice intent="warning" role="status" testId="preview-stale">
            The form has changed since this preview. Insert writes what the preview shows ({matchText(preview.totalResults, kind)}); search again to preview and
            insert the changed form.
          </Notice>
        )}
        {shown && (
          <ErrorBoundary label="the preview">
            <ResultsPreview page={shown} busy={searching} onPage={(n) => void state.runSearch(n)} />
          </ErrorBoundary>
        )}
      </div>
      <InsertPanel
        kind={kind}
        search={state.insertSearch}
        columns={state.columns}
        onColumnsChange={state.setColumns}
        searchRun={state.searchRun}
        {...(shown ? { answer: shown.items } : {})}
        onInserted={state.inserted}
      />
      <div className={styles.row}>
        <Field label="Search name" className={styles.grow}>
          <Input value={saving.saveName} onChange={(_, d) => saving.setSaveName(d.value)} />
        </Field>
        <Button onClick={() => void state.saveSearch()} disabled={state.issues.length > 0}>
          Save search
        </Button>
      </div>
      {saving.saveMessage && <p role="status">{saving.saveMessage}</p>}
      {saving.dialog}
    </section>
  );
}

/** Sort by, order and page size: a change re-runs the search the preview shows. */
function SortControls({ kind, state }: { kind: SearchKind; state: SearchTabState }) {
  const styles = useStyles();
  const { sortField, descending, changeSort, pageSize } = state;
  const sortFields: readonly string[] = kind === "company" ? COMPANY_SORT_FIELDS : CONTACT_SORT_FIELDS;
  return (
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
          onOptionSelect={(_, d) => d.optionValue && state.changePageSize(d.optionValue)}
        >
          {PAGE_SIZES.map((s) => (
            <Option key={s} value={s}>
              {s}
            </Option>
          ))}
        </Dropdown>
      </Field>
    </div>
  );
}
