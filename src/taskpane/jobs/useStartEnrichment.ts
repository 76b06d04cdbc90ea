// Starting an audience enrichment, its state and effects: the audiences, the choice (scope, rows
// picked, taken from selected cells or pasted, columns), the estimate, and the start itself. The
// request is checked with the contract's validator before it is sent; 204, 402 and 404 get plain
// answers (startFailure, in the error factory's words). The views (StartEnrichment.tsx) show what this holds.
import { useCallback, useEffect, useMemo, useState } from "react";
import type { Audience, AudienceRow, ValidationIssue } from "../../core/contract/index.js";
import { isServiceError } from "../../core/api/errors.js";
import { failureOf, paneMessage } from "../../core/errors/failure.js";
import type { ServiceClient } from "../../core/api/types.js";
import { checkEnrichmentChoice, rowIdsFromCells, type EnrichmentChoice, type JobTracker } from "../../core/jobs/index.js";
import { errorText } from "../errorText.js";
import { estimateJob, type JobEstimate } from "./jobEstimate.js";
import type { AccountAllowance } from "./JobEstimateView.js";
import { issueText } from "./startWording.js";

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
  /** An audience to choose (one just sent from a sheet): the list is read again and it is picked. */
  audienceId?: string;
}

export type StartNotice = { intent: "success" | "warning" | "error" | "info"; text: string };

interface Planned {
  /** The choice the estimate is for: a changed choice needs a new one. */
  key: string;
  estimate: JobEstimate;
  allowance: AccountAllowance;
}

const PICK_PAGE_SIZE = 25;

/** The value of a row's input column ("" when it has none). */
export function inputValue(audience: Audience, row: AudienceRow): string {
  const input = audience.attributes.columns.find((c) => c.attributes.columnType === "INPUT");
  const value = row.attributes.values.find((v) => v.columnId === input?.id)?.value;
  return value === undefined || value === null ? "" : String(value);
}

/**
 * What a refused start shows: a notice (the service's message with its reference), the
 * validation issues to list, or, for an audience gone since the list was read, a notice and a
 * fresh list.
 */
export function startFailure(error: unknown): { notice: StartNotice; refresh?: true } | { issues: ValidationIssue[] } {
  if (!isServiceError(error)) return { notice: { intent: "error", text: `The enrichment could not be started: ${errorText(error)}` } };
  // No credits left (402) is the error factory's one sentence, with the service's reference.
  if (error.kind === "paymentRequired") return { notice: { intent: "error", text: paneMessage(failureOf(error)) } };
  if (error.kind === "notFound") {
    return { notice: { intent: "error", text: "This audience no longer exists. The list has been refreshed; pick another one." }, refresh: true };
  }
  if (error.kind === "validation" && error.issues.length > 0) return { issues: error.issues };
  return { notice: { intent: "error", text: errorText(error) } };
}

/** A copy of `set` with `id` in it or not. */
export function toggled(set: ReadonlySet<string>, id: string, on: boolean): Set<string> {
  const next = new Set(set);
  if (on) next.add(id);
  else next.delete(id);
  return next;
}

/** The audiences and, once one is picked, the page of its rows to pick from (and the names seen). */
function useAudienceRows(client: StartClient, setNotice: (notice: StartNotice) => void, preferred?: string) {
  const [audiences, setAudiences] = useState<Audience[] | undefined>();
  const [loadProblem, setLoadProblem] = useState<string | undefined>();
  const [audienceId, setAudienceId] = useState("");
  const [scope, setScope] = useState<"AUDIENCE" | "ROW">("AUDIENCE");
  const [page, setPage] = useState(1);
  const [rowPage, setRowPage] = useState<{ rows: AudienceRow[]; totalPages: number } | undefined>();
  // Row names (the input column's value) seen while picking, to list chosen rows by name.
  const [rowNames, setRowNames] = useState<ReadonlyMap<string, string>>(new Map());

  const loadAudiences = useCallback(async () => {
    setLoadProblem(undefined);
    try {
      const list = await client.listAudiences();
      setAudiences(list);
      setAudienceId((current) =>
        preferred && list.some((a) => a.id === preferred) ? preferred : list.some((a) => a.id === current) ? current : (list[0]?.id ?? ""),
      );
    } catch (error) {
      setLoadProblem(errorText(error));
    }
  }, [client, preferred]);

  useEffect(() => {
    void loadAudiences();
  }, [loadAudiences]);

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
      (error: unknown) => live && setNotice({ intent: "error", text: errorText(error) }),
    );
    return () => {
      live = false;
    };
  }, [client, audienceId, scope, page, audiences, setNotice]);

  const audience = audiences?.find((a) => a.id === audienceId);
  return { audiences, audience, loadProblem, loadAudiences, audienceId, setAudienceId, scope, setScope, page, setPage, rowPage, rowNames };
}

export function useStartEnrichment({ client, tracker, readSelectedCells, onStarted, allowance, audienceId: preferred }: StartEnrichmentProps) {
  const [notice, setNotice] = useState<StartNotice | undefined>();
  const listed = useAudienceRows(client, setNotice, preferred);
  const { audience, audienceId, scope, rowNames, loadAudiences } = listed;
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [pasted, setPasted] = useState("");
  const [fromCells, setFromCells] = useState<string[]>([]);
  const [columns, setColumns] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [issues, setIssues] = useState<string[]>([]);
  const [estimating, setEstimating] = useState<string | undefined>();
  const [planned, setPlanned] = useState<Planned | undefined>();

  // A new audience starts a new choice.
  const { setPage } = listed;
  useEffect(() => {
    setPicked(new Set());
    setColumns(new Set());
    setFromCells([]);
    setPage(1);
    setIssues([]);
  }, [audienceId, setPage]);

  const rowIds = useMemo(() => {
    const typed = rowIdsFromCells(pasted.split(/[\s,;]+/).map((t) => [t]));
    return [...new Set([...picked, ...fromCells, ...typed])];
  }, [picked, fromCells, pasted]);

  const choice: EnrichmentChoice = { scope, ...(scope === "ROW" ? { rows: rowIds } : {}), columns: [...columns] };
  const choiceKey = JSON.stringify([audienceId, choice]);
  const plan = planned?.key === choiceKey ? planned : undefined;
  const issueTexts = (found: readonly ValidationIssue[], chosen: Audience) => {
    const columnNames = [...columns].map((id) => chosen.attributes.columns.find((c) => c.id === id)?.attributes.name ?? id);
    return found.map((i) => issueText(i, rowIds, rowNames, columnNames));
  };

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
    setIssues(issueTexts(found, audience));
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
      setNotice({ intent: "error", text: `The cost could not be estimated, so nothing was started: ${errorText(error)}` });
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
      await tracker.track({ audienceId: audience.id, jobId, audienceName: audience.attributes.name, scope, ...(scope === "ROW" ? { rowIds } : {}) });
      setPlanned(undefined);
      setNotice({ intent: "success", text: `Enrichment of "${audience.attributes.name}" started. Follow it below.` });
      onStarted?.();
    } catch (error) {
      const failure = startFailure(error);
      if ("issues" in failure) setIssues(issueTexts(failure.issues, audience));
      else setNotice(failure.notice);
      if ("refresh" in failure) await loadAudiences();
    } finally {
      setBusy(false);
    }
  }

  const back = () => setPlanned(undefined);
  const canTakeSelection = readSelectedCells !== undefined;
  return {
    ...listed,
    picked,
    setPicked,
    pasted,
    setPasted,
    fromCells,
    columns,
    setColumns,
    rowIds,
    canTakeSelection,
    takeSelection,
    busy,
    notice,
    issues,
    estimating,
    plan,
    estimate,
    start,
    back,
  };
}

export type StartEnrichmentState = ReturnType<typeof useStartEnrichment>;
