// "Send to an audience", its state and effects: read the selected table, suggest the mapping
// (shown for change), the destination (a new audience or an existing one), the plan and its
// confirm, the send with progress and Cancel, each row's result written beside it, then bringing
// the enriched columns back (with Resume). The send and the bringing back are runs of the pane's
// one run hook (their steps, progress and outcome; one at a time). The views
// (AudienceSendPanel.tsx) show what this holds.
import { useCallback, useEffect, useRef, useState } from "react";
import type { Audience } from "../../core/contract/index.js";
import type { ServiceClient } from "../../core/api/types.js";
import { sheetNameOf } from "../../core/sheet/index.js";
import {
  bringBack,
  inferMapping,
  mappingForAudience,
  mappingForKind,
  linkColumnIndex,
  mappingProblems,
  parseLink,
  planSend,
  resultColumns,
  resultWrites,
  sendSummary,
  sendToAudience,
  type AudienceChoice,
  type AudienceKind,
  type AudienceMapping,
  type AudiencePort,
  type AudienceSheet,
  type BringBackResult,
  type ColumnRole,
  type SendPlan,
  type SendProgress,
  type SendResult,
  type SheetTable,
} from "../../core/audiences/index.js";
import { errorText } from "../errorText.js";
import { useRun, type RunScope, type RunState } from "../run/useRun.js";

export type AudienceClient = AudiencePort & Pick<ServiceClient, "listAudiences" | "listFolders">;

export interface AudienceSendProps {
  client: AudienceClient;
  sheet: AudienceSheet;
  /** "Enrich this audience": the job flow with its estimate, for the audience sent to. */
  onEnrich?: (audienceId: string) => void;
  /** Unique key of a send (tests pass their own). */
  newRunKey?: () => string;
}

export type Destination = { kind: "new"; name: string; folderId: string } | { kind: "existing"; audienceId: string };

type Intent = "success" | "warning" | "error";
type Busy = { name: "busy"; what: string };
/** A send's phases: the audience and the result columns made ready, then the rows sent. */
type Sending = Busy | { name: "sending"; progress: SendProgress };
/** A send's outcome: what each row became, in words. */
export type Sent = { result: SendResult; audienceId: string; summary: string; intent: Intent; linksMissing?: boolean };

export type SendPhase = { name: "idle" } | Busy | { name: "planned"; plan: SendPlan } | Sending | ({ name: "sent" } & Sent);

type BackProgress = { text: string; pagesDone: number; totalPages: number };
type BackDone = { result: BringBackResult; text: string; intent: Intent };
export type BackPhase = { name: "idle" } | ({ name: "running" } & BackProgress) | ({ name: "done" } & BackDone);

/** The steps before a send (the table read, the plan to confirm) and the send itself, as the panel shows them. */
function sendPhaseOf(run: RunState<Sending, Sent | undefined, Busy | { name: "planned"; plan: SendPlan }>): SendPhase {
  if (run.running && run.progress) return run.progress;
  if (run.step) return run.step;
  return run.outcome ? { name: "sent", ...run.outcome } : { name: "idle" };
}

function backPhaseOf(run: RunState<BackProgress, BackDone>): BackPhase {
  if (run.running && run.progress) return { name: "running", ...run.progress };
  return run.outcome ? { name: "done", ...run.outcome } : { name: "idle" };
}

function randomRunKey(): string {
  const bytes = new Uint8Array(6);
  crypto.getRandomValues(bytes);
  return [...bytes].map((b) => b.toString(36).padStart(2, "0")).join("");
}

/** The audience a table was sent to before (its links name it), if any. */
function linkedAudience(table: SheetTable): string | undefined {
  const at = linkColumnIndex(table);
  if (at < 0) return undefined;
  for (const row of table.rows) {
    const link = parseLink(row[at]);
    if (link) return link.audienceId;
  }
  return undefined;
}

/** A new audience's suggested name: the sheet's (Excel) or the table's (browser mode). */
function defaultName(address: string): string {
  return (sheetNameOf(address) || address).slice(0, 100);
}

/** Bringing back under way: its pages read so far (none yet before the first answer). */
function backRunning(p?: { pagesDone: number; totalPages: number; cellsWritten: number }): BackProgress {
  if (!p) return { text: "Reading the audience's rows...", pagesDone: 0, totalPages: 0 };
  const text = `Page ${p.pagesDone} of ${p.totalPages}: ${p.cellsWritten.toLocaleString("en-US")} cells written`;
  return { text, pagesDone: p.pagesDone, totalPages: p.totalPages };
}

function backText(result: BringBackResult): { text: string; intent: Intent } {
  const n = (v: number) => v.toLocaleString("en-US");
  const columns = result.columns.length > 0 ? result.columns.join(", ") : "no enriched columns yet (run the enrichment first)";
  const kept = result.cellsKept > 0 ? ` ${n(result.cellsKept)} cells already held something and were kept.` : "";
  const missing = result.rowsNotInTable > 0 ? ` ${n(result.rowsNotInTable)} audience rows have no row in this table.` : "";
  const head = `Brought back ${columns}: ${n(result.cellsWritten)} cells written (page ${n(result.pagesDone)} of ${n(result.totalPages)}).${kept}${missing}`;
  if (result.cancelled) return { text: `Stopped. ${head} Resume goes on from page ${n(result.resumeFrom ?? 1)}.`, intent: "warning" };
  if (result.error !== undefined && result.pagesDone === 0)
    return {
      text: `Page ${n(result.resumeFrom ?? 1)} could not be read: ${errorText(result.error)} Nothing was written; Resume goes on from there.`,
      intent: "error",
    };
  if (result.error !== undefined)
    return { text: `${head} Page ${n(result.resumeFrom ?? 1)} could not be read: ${errorText(result.error)} Resume goes on from there.`, intent: "error" };
  return { text: head, intent: "success" };
}

/** A send's result in words, and how it is shown. */
function sentOutcome(result: SendResult, criteriaError: unknown, written: string): { summary: string; intent: Intent } {
  const criteria = criteriaError !== undefined ? ` The rows are in the audience, but its match criteria were not set: ${errorText(criteriaError)}` : "";
  const summary = sendSummary(result) + (result.error !== undefined ? ` It stopped: ${errorText(result.error)}` : "") + criteria + written;
  const bad = result.rows.some((r) => (r.status !== "created" && r.status !== "updated") || r.problems.length > 0);
  const intent = result.error !== undefined || written ? "error" : bad || criteriaError !== undefined ? "warning" : "success";
  return { summary, intent };
}

/** The audiences and folders to choose from, read once the panel needs them. */
function useDestinations(client: AudienceClient) {
  const [audiences, setAudiences] = useState<Audience[] | undefined>();
  const [folders, setFolders] = useState<Array<{ folderId: string; name: string }>>([]);
  const [problem, setProblem] = useState<string | undefined>();
  const load = useCallback(async () => {
    setProblem(undefined);
    const [list, folderList] = await Promise.allSettled([client.listAudiences(), client.listFolders()]);
    if (list.status === "fulfilled") setAudiences(list.value);
    else setProblem(errorText(list.reason));
    if (folderList.status === "fulfilled") setFolders(folderList.value);
  }, [client]);
  useEffect(() => {
    void load();
  }, [load]);
  return { audiences, folders, destinationsProblem: problem, reloadDestinations: load };
}

/** The existing audience whose kind and match criteria the mapping took (its kind is not the user's to change). */
function useAdoption(client: AudienceClient, audiences: Audience[] | undefined, setMapping: (m: AudienceMapping) => void, chosen: { current: Set<number> }) {
  const [adopted, setAdopted] = useState<string | undefined>();
  /** An existing audience's kind and match criteria, read from the audience (kept as inferred when it cannot be read). */
  async function adoptAudience(t: SheetTable, audienceId: string) {
    try {
      const columns = await client.listAudienceColumns(audienceId);
      const listed = audiences?.find((a) => a.id === audienceId)?.attributes.type;
      const kind = listed === "COMPANY" || listed === "CONTACT" ? listed : undefined;
      chosen.current = new Set();
      setMapping(mappingForAudience(t, { columns, ...(kind ? { kind } : {}) }));
      setAdopted(audienceId);
    } catch {
      setAdopted(undefined);
    }
  }
  return { adopted, setAdopted, adoptAudience };
}

/** Bringing an audience's enriched columns back into the table: a run with progress, Cancel and Resume. */
function useBringBack() {
  const run = useRun<BackProgress, BackDone>();
  /** The run's work: the audience's pages read with progress, their enriched columns written into the table. */
  const bringPages = async (
    client: AudienceClient,
    sheet: AudienceSheet,
    at: { address: string; audienceId: string; fromPage?: number | undefined },
    scope: RunScope<BackProgress>,
  ): Promise<BackDone> => {
    try {
      const result = await bringBack(client, sheet, at.address, at.audienceId, {
        signal: scope.signal,
        ...(at.fromPage ? { fromPage: at.fromPage } : {}),
        onProgress: (p) => scope.report(backRunning(p)),
      });
      return { result, ...backText(result) };
    } catch (error) {
      return { result: emptyBack(), text: errorText(error), intent: "error" };
    }
  };
  const bring = (client: AudienceClient, sheet: AudienceSheet, address: string, audienceId: string, fromPage?: number) =>
    run.start((scope) => bringPages(client, sheet, { address, audienceId, fromPage }, scope), backRunning());
  return { back: backPhaseOf(run), running: run.running, bring, cancel: run.cancel, clear: run.clear };
}

export function useAudienceSend({ client, sheet, onEnrich, newRunKey = randomRunKey }: AudienceSendProps) {
  const destinations = useDestinations(client);
  const [table, setTable] = useState<SheetTable | undefined>();
  const [mapping, setMapping] = useState<AudienceMapping | undefined>();
  const [destination, setDestination] = useState<Destination>({ kind: "new", name: "", folderId: "" });
  const [problem, setProblem] = useState<string | undefined>();
  /** The send and the bringing back: one at a time, each with Cancel. */
  const sending = useRun<Sending, Sent | undefined, Busy | { name: "planned"; plan: SendPlan }>();
  const bringing = useBringBack();
  const [phase, back] = [sendPhaseOf(sending), bringing.back];
  /** Columns whose role the user set (kept when the kind changes). */
  const chosen = useRef(new Set<number>());
  const { adopted, setAdopted, adoptAudience } = useAdoption(client, destinations.audiences, setMapping, chosen);
  const sentTo = phase.name === "sent" ? phase.audienceId : destination.kind === "existing" ? destination.audienceId : undefined;

  async function readTable() {
    setProblem(undefined);
    sending.prepare({ name: "busy", what: "Reading the table..." });
    bringing.clear();
    try {
      const read = await sheet.readTable();
      if (!read.ok) {
        setProblem(read.message);
        sending.clear();
        return;
      }
      setTable(read.table);
      chosen.current = new Set();
      setMapping(inferMapping(read.table));
      const linked = linkedAudience(read.table);
      setDestination(linked ? { kind: "existing", audienceId: linked } : { kind: "new", name: defaultName(read.table.address), folderId: "" });
      if (linked) await adoptAudience(read.table, linked);
    } catch (error) {
      setProblem(`The table could not be read: ${errorText(error)}`);
    }
    sending.clear();
  }

  function chooseDestination(next: Destination) {
    setDestination(next);
    if (next.kind === "existing" && table && next.audienceId && next.audienceId !== adopted) void adoptAudience(table, next.audienceId);
  }

  // Changing the kind infers again only the columns the user has not set.
  const setKind = (kind: AudienceKind) => setMapping((m) => (table && m ? mappingForKind(table, m, kind, chosen.current) : m));
  const setRole = (index: number, role: ColumnRole) => {
    chosen.current.add(index);
    setMapping((m) => m && { ...m, columns: m.columns.map((c) => (c.index === index ? { ...c, role } : c)) });
  };
  const problems = mapping ? mappingProblems(mapping) : [];
  if (destination.kind === "new" && destination.name.trim() === "") problems.push("Name the new audience.");
  if (destination.kind === "existing" && !destination.audienceId) problems.push("Choose the audience to send to.");

  /** The plan, from the table as it is now (its links and the user's edits since it was read). */
  async function plan() {
    if (!table || !mapping || problems.length > 0) return;
    setProblem(undefined);
    try {
      const read = await sheet.readTableAt(table.address);
      if (!read.ok) return setProblem(read.message);
      setTable(read.table);
      const planned = planSend(read.table, mapping, destination.kind === "existing" ? destination.audienceId : undefined);
      if (planned.rows.length === 0) setProblem("Every row of the table is empty: there is nothing to send.");
      else sending.prepare({ name: "planned", plan: planned });
    } catch (error) {
      setProblem(`The table could not be read: ${errorText(error)}`);
    }
  }

  async function send() {
    if (phase.name !== "planned" || !table || !mapping || bringing.running) return;
    const [planned, sheetTable, sentMapping] = [phase.plan, table, mapping];
    const first: Sending = { name: "busy", what: destination.kind === "new" ? "Creating the audience..." : "Preparing the audience's columns..." };
    await sending.start(({ signal, report }) => sendRows(planned, sheetTable, sentMapping, signal, report), first);
  }

  /** The send's work: the result columns placed, the rows sent with progress, each row's result written beside it. */
  async function sendRows(
    planned: SendPlan,
    table: SheetTable,
    mapping: AudienceMapping,
    signal: AbortSignal,
    report: (p: Sending) => void,
  ): Promise<Sent | undefined> {
    setProblem(undefined);
    const choice: AudienceChoice =
      destination.kind === "new"
        ? { kind: "new", name: destination.name, ...(destination.folderId ? { folderId: destination.folderId } : {}) }
        : { kind: "existing", audienceId: destination.audienceId };
    try {
      // The link and status columns first: a place beside the table that cannot take them stops the send before anything goes up.
      await sheet.writeColumns(table.address, resultColumns(table));
      const rows = planned.rows.length;
      const { target, result, criteriaError } = await sendToAudience(client, choice, mapping, planned, {
        runKey: newRunKey(),
        signal,
        // Sent again from here on: the audience exists.
        onPrepared: (t) => {
          setDestination({ kind: "existing", audienceId: t.audienceId });
          setAdopted(t.audienceId);
          report({ name: "sending", progress: { rowsDone: 0, rows, requests: 0 } });
        },
        onProgress: (progress) => report({ name: "sending", progress }),
      });
      const written = await sheet.writeColumns(table.address, resultWrites(table, result)).then(
        () => "",
        (error: unknown) =>
          ` The rows' links could not be written beside the table (${errorText(error)}). Write them again before sending again, or the rows would be added twice.`,
      );
      const { summary, intent } = sentOutcome(result, criteriaError, written);
      void destinations.reloadDestinations();
      return { result, audienceId: target.audienceId, summary, intent, ...(written ? { linksMissing: true } : {}) };
    } catch (error) {
      // Nothing sent: no outcome; the problem says why.
      setProblem(signal.aborted ? "Cancelled before any row was sent." : `Nothing was sent: ${errorText(error)}`);
      return undefined;
    }
  }

  /** Writes the links and statuses of the last send again (after a failed write). */
  async function writeLinksAgain() {
    if (phase.name !== "sent" || !table) return;
    try {
      await sheet.writeColumns(table.address, resultWrites(table, phase.result));
      const { name: _sent, ...sent } = phase;
      sending.settle({ ...sent, ...sentOutcome(phase.result, undefined, ""), linksMissing: false });
    } catch (error) {
      setProblem(`The links could not be written: ${errorText(error)}`);
    }
  }

  /** Brings the enriched columns of the audience sent to back into the table (from a page, to resume). */
  const bringResults = async (fromPage?: number) => {
    if (table && sentTo && !sending.running) await bringing.bring(client, sheet, table.address, sentTo, fromPage);
  };

  return {
    ...destinations,
    table,
    mapping,
    setKind,
    setRole,
    destination,
    setDestination: chooseDestination,
    kindFixed: destination.kind === "existing" && adopted === destination.audienceId,
    problem,
    problems,
    phase,
    back,
    sentTo,
    readTable,
    plan,
    send,
    cancel: () => {
      sending.cancel();
      bringing.cancel();
    },
    backToMapping: sending.clear,
    bringResults,
    writeLinksAgain,
    enrich: onEnrich && sentTo ? () => onEnrich(sentTo) : undefined,
  };
}

function emptyBack(): BringBackResult {
  return { totalPages: 0, pagesDone: 0, cellsWritten: 0, cellsKept: 0, rowsNotInTable: 0, columns: [], cancelled: false };
}

export type AudienceSendState = ReturnType<typeof useAudienceSend>;
