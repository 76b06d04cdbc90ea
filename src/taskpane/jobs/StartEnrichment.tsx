// Starting an audience enrichment: pick an audience, the scope (whole audience, or rows picked
// from the audience, taken from selected cells, or pasted), optionally columns. The state and the
// requests are useStartEnrichment's; the views here show what it holds.
import { Button, Checkbox, Field, Label, Radio, RadioGroup, Select, Spinner, Text, Textarea, makeStyles } from "@fluentui/react-components";
import type { Audience } from "../../core/contract/index.js";
import { ColumnCheckboxes } from "../ColumnCheckboxes.js";
import { Notice } from "../Notice.js";
import { fillableColumns } from "./fillableColumns.js";
import { JobEstimateView } from "./JobEstimateView.js";
import { chosenText, issueText, NO_AUDIENCES } from "./startWording.js";
import { inputValue, toggled, useStartEnrichment, type StartEnrichmentProps, type StartEnrichmentState } from "./useStartEnrichment.js";

export { chosenText, issueText, NO_AUDIENCES };
export type { StartClient, StartEnrichmentProps } from "./useStartEnrichment.js";

const useStyles = makeStyles({
  form: { display: "flex", flexDirection: "column", gap: "10px", minWidth: 0 },
  // A long audience name must not widen the pane: the closed list shows what fits.
  select: { minWidth: 0, maxWidth: "100%" },
  rows: { maxHeight: "200px", overflowY: "auto", border: "1px solid #e0e0e0", padding: "4px" },
  line: { display: "flex", gap: "8px", alignItems: "center", flexWrap: "wrap" },
});

export function StartEnrichment(props: StartEnrichmentProps) {
  const state = useStartEnrichment(props);
  const { audiences, loadProblem, loadAudiences } = state;
  if (loadProblem) {
    return (
      <Notice
        intent="error"
        role="alert"
        actions={
          <Button size="small" onClick={() => void loadAudiences()}>
            Try again
          </Button>
        }
      >
        {loadProblem}
      </Notice>
    );
  }
  if (!audiences) return <Spinner size="tiny" label="Loading audiences..." />;
  if (audiences.length === 0) {
    return (
      <Notice
        intent="info"
        actions={
          <Button size="small" onClick={() => void loadAudiences()}>
            Refresh audiences
          </Button>
        }
      >
        {NO_AUDIENCES}
      </Notice>
    );
  }
  return <StartEnrichmentForm state={state} audiences={audiences} />;
}

/** The choice, its problems and the estimate (or the button that asks for it). */
function StartEnrichmentForm({ state, audiences }: { state: StartEnrichmentState; audiences: Audience[] }) {
  const styles = useStyles();
  const { audience, audienceId, setAudienceId, scope, setScope, busy, estimating, plan } = state;
  return (
    <form
      className={styles.form}
      aria-label="Start an audience enrichment"
      onSubmit={(e) => {
        e.preventDefault();
        void state.estimate();
      }}
    >
      <Field label="Audience">
        <Select className={styles.select} value={audienceId} onChange={(_, d) => setAudienceId(d.value)}>
          {audiences.map((a) => (
            <option key={a.id} value={a.id}>
              {`${a.attributes.name} (${a.attributes.recordCount.toLocaleString("en-US")} ${a.attributes.type === "CONTACT" ? "contacts" : "companies"})`}
            </option>
          ))}
        </Select>
      </Field>

      <Field label="Rows to enrich">
        <RadioGroup value={scope} onChange={(_, d) => setScope(d.value === "ROW" ? "ROW" : "AUDIENCE")}>
          <Radio value="AUDIENCE" label="The whole audience" />
          <Radio value="ROW" label="Chosen rows" />
        </RadioGroup>
      </Field>

      {scope === "ROW" && audience && <RowChoice state={state} audience={audience} />}
      {audience && <ColumnChoice state={state} audience={audience} />}
      <StartNotices issues={state.issues} notice={state.notice} />
      {plan && audience ? (
        <JobEstimateView
          audienceName={audience.attributes.name}
          estimate={plan.estimate}
          allowance={plan.allowance}
          busy={busy}
          onStart={() => void state.start()}
          onBack={state.back}
        />
      ) : (
        <div className={styles.line}>
          <Button appearance="primary" type="submit" disabled={busy || estimating !== undefined || !audience}>
            Start enrichment
          </Button>
          <Button onClick={() => void state.loadAudiences()} disabled={busy || estimating !== undefined}>
            Refresh audiences
          </Button>
        </div>
      )}
      {estimating && <Spinner size="tiny" label={estimating} />}
    </form>
  );
}

/** The rows of a ROW scope: picked from the audience's pages, taken from the sheet, or pasted. */
function RowChoice({ state, audience }: { state: StartEnrichmentState; audience: Audience }) {
  const styles = useStyles();
  const { rowPage, picked, setPicked, page, setPage, fromCells } = state;
  return (
    <>
      <Label>Pick rows</Label>
      <div className={styles.rows} role="group" aria-label="Rows of the audience">
        {!rowPage && <Spinner size="tiny" label="Loading rows..." />}
        {rowPage?.rows.map((row) => (
          <Checkbox
            key={row.id}
            checked={picked.has(row.id)}
            onChange={(_, d) => setPicked((p) => toggled(p, row.id, d.checked === true))}
            label={`${inputValue(audience, row) || "(empty)"} · ${row.id.slice(0, 8)}`}
          />
        ))}
      </div>
      {rowPage && rowPage.totalPages > 1 && (
        <div className={styles.line}>
          <Button size="small" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
            Previous rows
          </Button>
          <Text size={200}>{`Page ${page} of ${rowPage.totalPages}`}</Text>
          <Button size="small" disabled={page >= rowPage.totalPages} onClick={() => setPage((p) => p + 1)}>
            Next rows
          </Button>
        </div>
      )}
      {state.canTakeSelection && (
        <div className={styles.line}>
          <Button size="small" onClick={() => void state.takeSelection()}>
            Use row ids from selected cells
          </Button>
          {fromCells.length > 0 && <Text size={200}>{`${fromCells.length} from the sheet`}</Text>}
        </div>
      )}
      <Field label="Or paste row ids (one per line)">
        <Textarea value={state.pasted} onChange={(_, d) => state.setPasted(d.value)} resize="vertical" />
      </Field>
      <Text size={200} aria-live="polite" data-testid="chosen-rows">
        {chosenText(state.rowIds, state.rowNames)}
      </Text>
    </>
  );
}

/** The audience's columns to fill (none ticked: all); nothing when it has none a job fills on request. */
function ColumnChoice({ state, audience }: { state: StartEnrichmentState; audience: Audience }) {
  const enrichable = fillableColumns(audience.attributes.columns);
  if (enrichable.length === 0) return null;
  return (
    <ColumnCheckboxes
      legend="Columns to fill (none ticked: all)"
      options={enrichable.map((c) => ({ key: c.id, label: c.attributes.name }))}
      chosen={state.columns}
      onToggle={(id, checked) => state.setColumns((s) => toggled(s, id, checked))}
    />
  );
}

/** The choice's problems, then the last notice. */
function StartNotices({ issues, notice }: Pick<StartEnrichmentState, "issues" | "notice">) {
  return (
    <>
      {issues.length > 0 && (
        <Notice intent="error" role="alert">
          <ul>
            {issues.map((text, i) => (
              <li key={i}>{text}</li>
            ))}
          </ul>
        </Notice>
      )}
      {notice && (
        <Notice intent={notice.intent} role={notice.intent === "error" ? "alert" : "status"}>
          {notice.text}
        </Notice>
      )}
    </>
  );
}
