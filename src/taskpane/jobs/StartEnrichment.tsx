// Starting an audience enrichment: pick an audience, the scope (whole audience, or rows picked
// from the audience, taken from selected cells, or pasted), optionally columns. The request is
// checked with the contract's validator before it is sent; 204, 402 and 404 get plain answers.
import { useCallback, useEffect, useMemo, useState } from "react";
import { Button, Checkbox, Field, Label, Radio, RadioGroup, Select, Spinner, Text, Textarea, makeStyles } from "@fluentui/react-components";
import type { Audience, AudienceRow } from "../../core/contract/index.js";
import { isServiceError } from "../../core/api/errors.js";
import type { ServiceClient } from "../../core/api/types.js";
import { checkEnrichmentChoice, rowIdsFromCells, type EnrichmentChoice, type JobTracker } from "../../core/jobs/index.js";
import { Notice } from "../Notice.js";
import { estimateJob, type JobEstimate } from "./jobEstimate.js";
import { chosenText, issueText, NO_AUDIENCES } from "./startWording.js";

export { chosenText, issueText, NO_AUDIENCES };
import { JobEstimateView, type AccountAllowance } from "./JobEstimateView.js";

export type StartClient = Pick<ServiceClient, "listAudiences" | "getAudienceRows" | "startAudienceEnrichment" | "searchCompanies">;

export interface StartEnrichmentProps {
  client: StartClient;
  tracker: Pick<JobTracker, "track">;
  /** Reads the selected cells (Excel); absent in browser mode. */
  readSelectedCells?: () => Promise<unknown[][]>;
  /** Called once a job was started and added to the list. */
  onStarted?: () => void;
  /** The credits left and today's limit, shown with the estimate. */
  allowance?: () => Promise<AccountAllowance>;
}

type Notice = { intent: "success" | "warning" | "error" | "info"; text: string };

const PICK_PAGE_SIZE = 25;

const useStyles = makeStyles({
  form: { display: "flex", flexDirection: "column", gap: "10px", minWidth: 0 },
  // A long audience name must not widen the pane: the closed list shows what fits.
  select: { minWidth: 0, maxWidth: "100%" },
  rows: { maxHeight: "200px", overflowY: "auto", border: "1px solid #e0e0e0", padding: "4px" },
  columns: { display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(140px, 1fr))" },
  line: { display: "flex", gap: "8px", alignItems: "center", flexWrap: "wrap" },
});

function inputValue(audience: Audience, row: AudienceRow): string {
  const input = audience.attributes.columns.find((c) => c.attributes.columnType === "INPUT");
  const value = row.attributes.values.find((v) => v.columnId === input?.id)?.value;
  return value === undefined || value === null ? "" : String(value);
}

interface Planned {
  /** The choice the estimate is for: a changed choice needs a new one. */
  key: string;
  estimate: JobEstimate;
  allowance: AccountAllowance;
}

export function StartEnrichment({ client, tracker, readSelectedCells, onStarted, allowance }: StartEnrichmentProps) {
  const styles = useStyles();
  const [audiences, setAudiences] = useState<Audience[] | undefined>();
  const [loadProblem, setLoadProblem] = useState<string | undefined>();
  const [audienceId, setAudienceId] = useState("");
  const [scope, setScope] = useState<"AUDIENCE" | "ROW">("AUDIENCE");
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [pasted, setPasted] = useState("");
  const [fromCells, setFromCells] = useState<string[]>([]);
  const [columns, setColumns] = useState<Set<string>>(new Set());
  const [page, setPage] = useState(1);
  const [rowPage, setRowPage] = useState<{ rows: AudienceRow[]; totalPages: number } | undefined>();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice | undefined>();
  const [issues, setIssues] = useState<string[]>([]);
  // Row names (the input column's value) seen while picking, to list chosen rows by name.
  const [rowNames, setRowNames] = useState<ReadonlyMap<string, string>>(new Map());
  const [estimating, setEstimating] = useState<string | undefined>();
  const [planned, setPlanned] = useState<Planned | undefined>();

  const audience = audiences?.find((a) => a.id === audienceId);

  const loadAudiences = useCallback(async () => {
    setLoadProblem(undefined);
    try {
      const list = await client.listAudiences();
      setAudiences(list);
      setAudienceId((current) => (list.some((a) => a.id === current) ? current : (list[0]?.id ?? "")));
    } catch (error) {
      setLoadProblem(isServiceError(error) ? error.userMessage : String(error));
    }
  }, [client]);

  useEffect(() => {
    void loadAudiences();
  }, [loadAudiences]);

  // A new audience starts a new choice.
  useEffect(() => {
    setPicked(new Set());
    setColumns(new Set());
    setFromCells([]);
    setPage(1);
    setIssues([]);
  }, [audienceId]);

  useEffect(() => {
    if (scope !== "ROW" || !audienceId) return;
    let live = true;
    setRowPage(undefined);
    client.getAudienceRows(audienceId, { page, size: PICK_PAGE_SIZE }).then(
      (result) => {
        if (!live) return;
        setRowPage({ rows: result.rows, totalPages: result.totalPages });
        const current = audiences?.find((a) => a.id === audienceId);
        if (current)
          setRowNames((known) => new Map([...known, ...result.rows.map((r) => [r.id, inputValue(current, r)] as const).filter(([, n]) => n !== "")]));
      },
      (error: unknown) => live && setNotice({ intent: "error", text: isServiceError(error) ? error.userMessage : String(error) }),
    );
    return () => {
      live = false;
    };
  }, [client, audienceId, scope, page, audiences]);

  const rowIds = useMemo(() => {
    const typed = rowIdsFromCells(pasted.split(/[\s,;]+/).map((t) => [t]));
    return [...new Set([...picked, ...fromCells, ...typed])];
  }, [picked, fromCells, pasted]);

  const choice: EnrichmentChoice = { scope, ...(scope === "ROW" ? { rows: rowIds } : {}), columns: [...columns] };
  const choiceKey = JSON.stringify([audienceId, choice]);
  const plan = planned?.key === choiceKey ? planned : undefined;

  async function takeSelection() {
    if (!readSelectedCells) return;
    try {
      const ids = rowIdsFromCells(await readSelectedCells());
      setFromCells(ids);
      setNotice({ intent: "info", text: ids.length === 0 ? "The selected cells are empty." : `Took ${ids.length} row ids from the selected cells.` });
    } catch (error) {
      setNotice({ intent: "error", text: `Could not read the selected cells: ${error instanceof Error ? error.message : String(error)}` });
    }
  }

  /** Checks the choice, then estimates what it costs; the user starts from the estimate. */
  async function estimate() {
    if (!audience || estimating) return;
    setNotice(undefined);
    setPlanned(undefined);
    const found = checkEnrichmentChoice(choice);
    const columnIds = [...columns];
    const columnNames = columnIds.map((id) => audience.attributes.columns.find((c) => c.id === id)?.attributes.name ?? id);
    setIssues(found.map((i) => issueText(i, rowIds, rowNames, columnNames)));
    if (found.length > 0) return;
    setEstimating("Estimating the cost...");
    try {
      const [estimate, account] = await Promise.all([
        estimateJob(client, audience, choice, { onProgress: setEstimating }),
        allowance ? allowance().catch((): AccountAllowance => ({})) : Promise.resolve<AccountAllowance>({}),
      ]);
      if (estimate.rowsInScope === 0) setNotice({ intent: "warning", text: "No rows match this choice, so there is nothing to enrich." });
      else setPlanned({ key: choiceKey, estimate, allowance: account });
    } catch (error) {
      setNotice({
        intent: "error",
        text: `The cost could not be estimated, so nothing was started: ${isServiceError(error) ? error.userMessage : error instanceof Error ? error.message : String(error)}`,
      });
    } finally {
      setEstimating(undefined);
    }
  }

  async function start() {
    if (!audience || !plan) return;
    setNotice(undefined);
    setBusy(true);
    try {
      const jobId = await client.startAudienceEnrichment(audience.id, choice);
      if (jobId === null) {
        setNotice({ intent: "warning", text: "No rows match this choice, so there is nothing to enrich." });
        return;
      }
      await tracker.track({
        audienceId: audience.id,
        jobId,
        audienceName: audience.attributes.name,
        scope,
        ...(scope === "ROW" ? { rowIds } : {}),
      });
      setPlanned(undefined);
      setNotice({ intent: "success", text: `Enrichment of "${audience.attributes.name}" started. Follow it below.` });
      onStarted?.();
    } catch (error) {
      if (!isServiceError(error)) {
        setNotice({ intent: "error", text: `The enrichment could not be started: ${error instanceof Error ? error.message : String(error)}` });
      } else if (error.kind === "paymentRequired") {
        setNotice({
          intent: "error",
          text: "Your account cannot run this enrichment: it has no credits left for new records. Ask your administrator for more credits.",
        });
      } else if (error.kind === "notFound") {
        setNotice({ intent: "error", text: "This audience no longer exists. The list has been refreshed; pick another one." });
        await loadAudiences();
      } else if (error.kind === "validation" && error.issues.length > 0) {
        const columnNames = [...columns].map((id) => audience.attributes.columns.find((c) => c.id === id)?.attributes.name ?? id);
        setIssues(error.issues.map((i) => issueText(i, rowIds, rowNames, columnNames)));
      } else {
        setNotice({ intent: "error", text: error.userMessage });
      }
    } finally {
      setBusy(false);
    }
  }

  const toggle = (set: Set<string>, id: string, on: boolean) => {
    const next = new Set(set);
    if (on) next.add(id);
    else next.delete(id);
    return next;
  };

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

  const enrichable = audience?.attributes.columns.filter((c) => c.attributes.columnType !== "INPUT") ?? [];

  return (
    <form
      className={styles.form}
      aria-label="Start an audience enrichment"
      onSubmit={(e) => {
        e.preventDefault();
        void estimate();
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

      {scope === "ROW" && audience && (
        <>
          <Label>Pick rows</Label>
          <div className={styles.rows} role="group" aria-label="Rows of the audience">
            {!rowPage && <Spinner size="tiny" label="Loading rows..." />}
            {rowPage?.rows.map((row) => (
              <Checkbox
                key={row.id}
                checked={picked.has(row.id)}
                onChange={(_, d) => setPicked((p) => toggle(p, row.id, d.checked === true))}
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
          {readSelectedCells && (
            <div className={styles.line}>
              <Button size="small" onClick={() => void takeSelection()}>
                Use row ids from selected cells
              </Button>
              {fromCells.length > 0 && <Text size={200}>{`${fromCells.length} from the sheet`}</Text>}
            </div>
          )}
          <Field label="Or paste row ids (one per line)">
            <Textarea value={pasted} onChange={(_, d) => setPasted(d.value)} resize="vertical" />
          </Field>
          <Text size={200} aria-live="polite" data-testid="chosen-rows">
            {chosenText(rowIds, rowNames)}
          </Text>
        </>
      )}

      {audience && enrichable.length > 0 && (
        <>
          <Label>Columns to fill (none ticked: all)</Label>
          <div className={styles.columns} role="group" aria-label="Columns to fill">
            {enrichable.map((c) => (
              <Checkbox
                key={c.id}
                checked={columns.has(c.id)}
                onChange={(_, d) => setColumns((s) => toggle(s, c.id, d.checked === true))}
                label={c.attributes.name}
              />
            ))}
          </div>
        </>
      )}

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
      {plan && audience ? (
        <JobEstimateView
          audienceName={audience.attributes.name}
          estimate={plan.estimate}
          allowance={plan.allowance}
          busy={busy}
          onStart={() => void start()}
          onBack={() => setPlanned(undefined)}
        />
      ) : (
        <div className={styles.line}>
          <Button appearance="primary" type="submit" disabled={busy || estimating !== undefined || !audience}>
            Start enrichment
          </Button>
          <Button onClick={() => void loadAudiences()} disabled={busy || estimating !== undefined}>
            Refresh audiences
          </Button>
        </div>
      )}
      {estimating && <Spinner size="tiny" label={estimating} />}
    </form>
  );
}
