// One signal search (intent, scoops or news): the contract's filters in the search form (the
// topic picker fed by the intent-topics lookup), sort, preview and "Insert into sheet".
import { useMemo, useState } from "react";
import { Button, Dropdown, Field, Option, Spinner, makeStyles } from "@fluentui/react-components";
import { SIGNAL_REQUESTS, SIGNAL_SORT_FIELDS, signalBody, summarizeIssues, validateSignalBody } from "../../core/contract/index.js";
import { SIGNAL_COLUMNS, defaultSignalColumnKeys, signalColumnsFor, signalPageFetcher, type SignalSearchFamily } from "../../core/signals/index.js";
import { ColumnCheckboxes, toggledKeys } from "../ColumnCheckboxes.js";
import { errorText } from "../errorText.js";
import { insertTarget, OutcomeMessage, ProgressView, TargetPicker, useInsertRunner, type TargetChoice } from "../insert/InsertPanel.js";
import { Notice } from "../Notice.js";
import { FilterForm } from "../search/FilterForm.js";
import { filtersFromForm, messagesByField, type FormValue, type FormValues } from "../search/formModel.js";
import { useServerIssues } from "../search/serverIssues.js";
import { useServices } from "../services.js";
import { insertSignalSearch, SIGNAL_NOUNS } from "./insertSignals.js";
import { SignalPreview, type PreviewState } from "./SignalPreview.js";
import { insertCostLine, signalImportQuestion } from "./signalPlan.js";
import { ErrorBoundary } from "../ErrorBoundary.js";

const useStyles = makeStyles({
  row: { display: "flex", gap: "8px", alignItems: "end", flexWrap: "wrap", marginTop: "8px", marginBottom: "8px" },
  wrap: { overflowWrap: "anywhere" },
});

const OPERATION = { intent: "intentSearch", scoops: "scoopSearch", news: "newsSearch" } as const;
const SORT_LABELS: Record<string, string> = {
  signalScore: "Signal score",
  signalDate: "Signal date",
  topic: "Topic",
  audienceStrength: "Audience strength",
  companyName: "Company name",
  category: "Topic category",
  originalPublishedDate: "Published",
  scoopId: "Scoop id",
  description: "Description",
  link: "Link",
  linkText: "Headline",
};
/** The pane's first order: strongest intent and newest scoops first; news has no sort (the service's order). */
const FIRST_SORT: Record<SignalSearchFamily, string | undefined> = { intent: "-signalScore", scoops: "-originalPublishedDate", news: undefined };
const TABLE_NAMES: Record<SignalSearchFamily, string> = { intent: "Intent", scoops: "Scoops", news: "News" };
const PREVIEW_SIZE = 25;

export function SignalSearch({ family }: { family: SignalSearchFamily }) {
  const styles = useStyles();
  const { runtime } = useServices();
  const operation = OPERATION[family];
  const specs = SIGNAL_REQUESTS[operation].filters;
  const [values, setValues] = useState<FormValues>({});
  const [sort, setSort] = useState<string | undefined>(FIRST_SORT[family]);
  const sortFields: readonly string[] = SIGNAL_SORT_FIELDS[operation];
  const [preview, setPreview] = useState<PreviewState | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const [attempted, setAttempted] = useState(false);
  const [searching, setSearching] = useState(false);
  const [columns, setColumns] = useState<string[]>(() => defaultSignalColumnKeys(family));
  const [target, setTarget] = useState<TargetChoice>("newSheet");
  const inserting = useInsertRunner();

  const filters = useMemo(() => filtersFromForm(specs, values), [specs, values]);
  const issues = useMemo(() => validateSignalBody(operation, signalBody(operation, filters)), [operation, filters]);
  const serverIssues = useServerIssues(issues);
  const { fields: messages, general } = messagesByField(attempted ? serverIssues.all : serverIssues.all.filter((i) => i.rule !== "required"));
  const blocked = issues.length > 0 ? summarizeIssues(issues) : undefined;
  const touched = attempted || Object.values(values).some((v) => v !== undefined && v !== "");
  const noun = SIGNAL_NOUNS[family];

  const onChange = (name: string, value: FormValue | undefined) => {
    setValues((v) => ({ ...v, [name]: value }));
    serverIssues.clearField(name);
  };

  const runSearch = async (pageNumber: number, searchSort = sort) => {
    setAttempted(true);
    if (issues.length > 0 || searching) return;
    setSearching(true);
    setProblem(undefined);
    try {
      const page = await signalPageFetcher(runtime.client, family, searchSort)(filters, pageNumber, PREVIEW_SIZE);
      setPreview({ items: page.items, totalResults: page.totalResults, pageNumber, totalPages: page.totalPages, filters, sort: searchSort });
    } catch (error) {
      serverIssues.fromError(error);
      setProblem(errorText(error));
      setPreview(undefined);
    } finally {
      setSearching(false);
    }
  };

  const insert = async () => {
    const spec = preview ?? (issues.length === 0 ? { filters, sort } : undefined);
    if (!spec) return;
    await inserting.drive((common) =>
      insertSignalSearch({
        ...common,
        family,
        filters: spec.filters,
        ...(spec.sort !== undefined ? { sort: spec.sort } : {}),
        columns: signalColumnsFor(family, columns),
        target: insertTarget(target, TABLE_NAMES[family]),
        tableName: `${TABLE_NAMES[family]}_search`,
        confirmOverwrite: inserting.confirmOverwrite,
        confirmPlan: (plan, rows) => inserting.ask(signalImportQuestion(family, plan, rows)),
      }),
    );
  };

  const stale = preview !== undefined && JSON.stringify([preview.filters, preview.sort]) !== JSON.stringify([filters, sort]);
  return (
    <section aria-label={`${TABLE_NAMES[family]} search`}>
      <FilterForm specs={specs} values={values} messages={messages} onChange={onChange} />
      <div className={styles.row}>
        {sort !== undefined && sortFields.length > 0 && (
          <Field label="Sort by">
            <Dropdown
              value={`${SORT_LABELS[sort.replace(/^-/, "")] ?? sort}${sort.startsWith("-") ? ", highest first" : ", lowest first"}`}
              selectedOptions={[sort]}
              onOptionSelect={(_, d) => {
                if (!d.optionValue) return;
                setSort(d.optionValue);
                if (preview && !stale) void runSearch(1, d.optionValue);
              }}
            >
              {sortFields.flatMap((f) => [
                <Option key={`-${f}`} value={`-${f}`}>{`${SORT_LABELS[f] ?? f}, highest first`}</Option>,
                <Option key={f} value={f}>{`${SORT_LABELS[f] ?? f}, lowest first`}</Option>,
              ])}
            </Dropdown>
          </Field>
        )}
        <Button appearance="primary" onClick={() => void runSearch(1)} disabled={searching} icon={searching ? <Spinner size="extra-tiny" /> : undefined}>
          Search
        </Button>
        {searching && <span role="status">Searching…</span>}
      </div>
      {blocked && attempted && <p role="alert">Fix before searching: {blocked}</p>}
      {general.length > 0 && <p role="alert">{general.join(" ")}</p>}
      {problem && <Notice intent="error">{problem}</Notice>}
      {stale && (
        <Notice intent="warning" role="status">
          The form has changed since this preview. Insert writes what the preview shows; search again to insert the changed form.
        </Notice>
      )}
      {preview && (
        <ErrorBoundary label="the preview">
          <SignalPreview family={family} page={preview} busy={searching} onPage={(n) => void runSearch(n, preview.sort)} />
        </ErrorBoundary>
      )}
      <section aria-label="Insert into sheet">
        <ColumnCheckboxes
          legend="Columns"
          options={SIGNAL_COLUMNS[family].map((c) => ({ key: c.key, label: c.header }))}
          chosen={columns}
          onToggle={(key, checked) => setColumns(toggledKeys(columns, key, checked))}
        />
        <TargetPicker value={target} onChange={setTarget} />
        <div className={styles.row}>
          <Button appearance="primary" disabled={inserting.busy || (!preview && issues.length > 0) || columns.length === 0} onClick={() => void insert()}>
            Insert into sheet
          </Button>
        </div>
        {/* Said once the user has started (a search pressed or a field filled), not on a fresh form. */}
        {!preview && blocked && touched && <p>Fix before inserting: {blocked}</p>}
        {preview && !stale && (
          <p className={styles.wrap} data-testid="insert-cost">
            {insertCostLine(family, preview.totalResults)}
          </p>
        )}
        {inserting.progress && <ProgressView progress={inserting.progress} noun={noun} onCancel={inserting.cancel} />}
        {inserting.outcome && <OutcomeMessage outcome={inserting.outcome} />}
      </section>
      {inserting.dialog}
    </section>
  );
}
