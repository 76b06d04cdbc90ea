// "Enrich selection" for lists without ids: read the selected column of websites, company names
// or emails, say what it holds (detected; the user can correct it), optionally pick neighbouring
// country and city (or company) columns, see the estimate, run with progress and Cancel, and get
// the matched id, a match status and the chosen fields to the right. Rows that did not match are
// listed with the reason, and can be retried after editing them in the sheet.
import { useRef, useState } from "react";
import { Button, Checkbox, Field, MessageBar, MessageBarBody, ProgressBar, Select, Text, makeStyles } from "@fluentui/react-components";
import { OUTPUT_FIELDS, type EnrichmentEngine, type EntityKind, type SelectedColumn, type SelectionSource } from "../../core/enrich/index.js";
import type { MatchProgress, RecordMatcher } from "../../core/enrich/matcher.js";
import {
  detectMatchContent,
  planMatchSelection,
  runMatchSelection,
  shiftColumns,
  type MatchContent,
  type MatchSelectionPlan,
  type NeighbourValues,
  type UnmatchedRow,
} from "../../core/enrich/matchSelection.js";
import { errorText } from "../errorText.js";
import { PlanActions } from "./PlanActions.js";

export interface MatchSelectionPanelProps {
  engine: EnrichmentEngine;
  matcher: RecordMatcher;
  source: SelectionSource;
  ask: (address: string) => Promise<boolean>;
}

type Content = MatchContent | "person";
const CONTENT_LABEL: Record<Content, string> = { website: "Websites", name: "Company names", email: "Email addresses", person: "Person names" };
const kindOf = (content: Content): EntityKind => (content === "email" || content === "person" ? "contact" : "company");
const DEFAULT_FIELDS: Record<EntityKind, string[]> = { company: ["name", "website", "country"], contact: ["firstName", "lastName", "jobTitle", "companyName"] };
const OFFSETS = [-3, -2, -1, 1, 2, 3];

type Beside = "country" | "city" | "company";
interface Read {
  selection: SelectedColumn;
  /** Header text (first cell) of each neighbouring column, by offset. */
  neighbours: Map<number, string>;
}

type Phase =
  | { name: "idle" }
  | { name: "busy"; what: string }
  | { name: "planned"; planned: MatchSelectionPlan }
  | { name: "running"; progress: MatchProgress }
  | { name: "finished"; intent: "success" | "warning" | "error"; message: string; unmatched: UnmatchedRow[] };

const useStyles = makeStyles({
  fields: { display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(140px, 1fr))", maxHeight: "180px", overflowY: "auto" },
  row: { display: "flex", gap: "8px", marginTop: "8px", alignItems: "end", flexWrap: "wrap" },
  facts: { margin: "8px 0", paddingLeft: "18px" },
  unmatched: { margin: "8px 0", paddingLeft: "18px", maxHeight: "200px", overflowY: "auto", overflowWrap: "anywhere" },
});

const count = (n: number) => n.toLocaleString("en-US");

export function MatchSelectionPanel({ engine, matcher, source, ask }: MatchSelectionPanelProps) {
  const styles = useStyles();
  const [read, setRead] = useState<Read | undefined>();
  const [content, setContent] = useState<Content>("website");
  const [fields, setFields] = useState<string[]>(DEFAULT_FIELDS.company);
  const [beside, setBeside] = useState<Partial<Record<Beside, number>>>({});
  const [phase, setPhase] = useState<Phase>({ name: "idle" });
  const controller = useRef<AbortController | undefined>(undefined);
  /** Where the last run wrote, for the selection it read: what a retry may rewrite. */
  const lastWrite = useRef<{ selection: string; written: string } | undefined>(undefined);
  const kind = kindOf(content);

  const changeContent = (next: Content) => {
    setContent(next);
    if (kindOf(next) !== kind) setFields(DEFAULT_FIELDS[kindOf(next)]);
    setPhase({ name: "idle" });
  };

  const readSelection = async () => {
    setPhase({ name: "busy", what: "Reading the selection" });
    try {
      const answer = await source.readIds();
      if (!answer.ok) {
        setPhase({ name: "finished", intent: "warning", message: answer.message, unmatched: [] });
        return;
      }
      const neighbours = new Map<number, string>();
      if (source.readColumnBeside) {
        for (const offset of OFFSETS) {
          const values = await source.readColumnBeside(answer.selection.address, offset);
          if (values) neighbours.set(offset, String(values[0] ?? "").slice(0, 30));
        }
      }
      setRead({ selection: answer.selection, neighbours });
      changeContent(detectMatchContent(answer.selection.values.slice(1)));
      // Neighbours named like a country or city are picked for the user, who can change them.
      const pick = (pattern: RegExp) => [...neighbours].find(([, header]) => pattern.test(header))?.[0];
      setBeside({ country: pick(/country/i), city: pick(/city|town/i), company: pick(/company|account/i) });
    } catch (error) {
      setPhase({ name: "finished", intent: "error", message: `Could not read the selection: ${errorText(error)}`, unmatched: [] });
    }
  };

  const besideValues = async (selection: SelectedColumn): Promise<NeighbourValues> => {
    const out: NeighbourValues = {};
    for (const which of ["country", "city", "company"] as const) {
      const offset = beside[which];
      if (offset === undefined || !source.readColumnBeside) continue;
      const values = await source.readColumnBeside(selection.address, offset);
      if (values) out[which] = values;
    }
    return out;
  };

  const plan = async (selection: SelectedColumn) => {
    const matchContent: MatchContent = content === "person" ? "name" : content;
    return planMatchSelection(matcher, engine, { kind, content: matchContent, fields, selection, beside: await besideValues(selection) });
  };

  const check = async () => {
    if (!read) return;
    setPhase({ name: "busy", what: "Checking the list" });
    try {
      setPhase({ name: "planned", planned: await plan(read.selection) });
    } catch (error) {
      setPhase({ name: "finished", intent: "error", message: `Could not check the list: ${errorText(error)}`, unmatched: [] });
    }
  };

  const run = async (planned: MatchSelectionPlan, retry: boolean) => {
    controller.current = new AbortController();
    setPhase({ name: "running", progress: { recordsDone: 0, recordsTotal: planned.match.unique, requestsDone: 0, requestsTotal: planned.match.requests } });
    try {
      const result = await runMatchSelection(matcher, engine, planned, {
        signal: controller.current.signal,
        onProgress: (progress) => setPhase({ name: "running", progress }),
        retryMisses: retry,
      });
      // Output goes beyond the rightmost picked neighbour, so it never lands on the country or city.
      const rightmost = Math.max(0, ...Object.values(beside).filter((o): o is number => o !== undefined));
      const request = {
        address: shiftColumns(planned.selection.address, rightmost),
        ...(planned.header !== undefined ? { headers: result.headers } : {}),
        rows: result.rows,
      };
      // A retry rewrites the columns the first run wrote (not the user's cells beside them); a
      // retry after nothing was written, or of another column, asks like a first run.
      const previous = lastWrite.current;
      const again = retry && previous?.selection === planned.selection.address;
      let written = await source.writeColumns(again ? { ...request, address: previous.written, overwrite: true } : { ...request, overwrite: false });
      if (written.status === "notEmpty") {
        if (!(await ask(written.address))) {
          setPhase({ name: "finished", intent: "warning", message: `Nothing written: cells in ${written.address} hold data.`, unmatched: result.unmatched });
          return;
        }
        written = await source.writeColumns({ ...request, overwrite: true });
      }
      lastWrite.current = { selection: planned.selection.address, written: written.address };
      const { matched, unmatched } = result.counts;
      const parts = [`Wrote ${result.headers.length} columns to ${written.address}: ${count(matched)} matched`];
      if (unmatched > 0) parts.push(`${count(unmatched)} not matched (listed below)`);
      if (result.cancelled) parts.push("cancelled before the end");
      setPhase({ name: "finished", intent: unmatched > 0 || result.cancelled ? "warning" : "success", message: `${parts.join("; ")}.`, unmatched: result.unmatched });
    } catch (error) {
      setPhase({ name: "finished", intent: "error", message: `Matching stopped: ${errorText(error)}`, unmatched: [] });
    } finally {
      controller.current = undefined;
    }
  };

  /** Reads the (edited) selection again and asks the rows that missed once more. */
  const retry = async () => {
    setPhase({ name: "busy", what: "Reading the edited list" });
    try {
      const answer = await source.readIds();
      if (!answer.ok) {
        setPhase({ name: "finished", intent: "warning", message: answer.message, unmatched: [] });
        return;
      }
      await run(await plan(answer.selection), true);
    } catch (error) {
      setPhase({ name: "finished", intent: "error", message: `Could not retry: ${errorText(error)}`, unmatched: [] });
    }
  };

  const busy = phase.name === "busy" || phase.name === "running";
  const neighbourPicker = (which: Beside, label: string) => (
    <Field label={label} key={which}>
      <Select
        value={beside[which] === undefined ? "" : String(beside[which])}
        onChange={(_e, data) => setBeside((current) => ({ ...current, [which]: data.value === "" ? undefined : Number(data.value) }))}
        disabled={busy}
      >
        <option value="">None</option>
        {[...(read?.neighbours ?? [])].map(([offset, header]) => (
          <option key={offset} value={String(offset)}>
            {`${offset > 0 ? `${offset} right` : `${-offset} left`}${header ? `: ${header}` : ""}`}
          </option>
        ))}
      </Select>
    </Field>
  );

  return (
    <section aria-label="Match a list">
      <Text as="p">Select a column of websites, company names or emails (a header cell is fine), then read it.</Text>
      <div className={styles.row}>
        <Button appearance="primary" disabled={busy} onClick={() => void readSelection()}>
          Read selection
        </Button>
      </div>
      {read && (
        <>
          <Field label={`${read.selection.address} holds`}>
            <Select value={content} onChange={(_e, data) => changeContent(data.value as Content)} disabled={busy} aria-label="The column holds">
              {(Object.keys(CONTENT_LABEL) as Content[]).map((c) => (
                <option key={c} value={c}>
                  {CONTENT_LABEL[c]}
                </option>
              ))}
            </Select>
          </Field>
          {read.neighbours.size > 0 && kind === "company" && (
            <div className={styles.row}>
              {neighbourPicker("country", "Country column")}
              {neighbourPicker("city", "City column")}
            </div>
          )}
          {read.neighbours.size > 0 && content === "person" && <div className={styles.row}>{neighbourPicker("company", "Company column")}</div>}
          <fieldset disabled={busy}>
            <legend>Fields ({fields.length} chosen)</legend>
            <div className={styles.fields}>
              {Object.entries(OUTPUT_FIELDS[kind]).map(([name, spec]) => (
                <Checkbox
                  key={name}
                  label={spec.label}
                  checked={fields.includes(name)}
                  onChange={(_e, data) => setFields((current) => (data.checked === true ? [...current, name] : current.filter((f) => f !== name)))}
                />
              ))}
            </div>
          </fieldset>
          <div className={styles.row}>
            <Button disabled={busy} onClick={() => void check()}>
              Check list
            </Button>
          </div>
        </>
      )}

      {phase.name === "busy" && <ProgressBar aria-label={phase.what} />}
      {phase.name === "planned" && <MatchPlanSummary planned={phase.planned} onRun={() => void run(phase.planned, false)} onBack={() => setPhase({ name: "idle" })} />}
      {phase.name === "running" && (
        <div className={styles.row}>
          <Field label="Matching" validationState="none" validationMessage={`${count(phase.progress.requestsDone)} of ${count(phase.progress.requestsTotal)} requests`}>
            <ProgressBar value={phase.progress.recordsTotal > 0 ? phase.progress.recordsDone / phase.progress.recordsTotal : 0} max={1} aria-label="Matching progress" />
          </Field>
          <Button onClick={() => controller.current?.abort()}>Cancel</Button>
        </div>
      )}
      {phase.name === "finished" && (
        <>
          <MessageBar intent={phase.intent} role="status">
            <MessageBarBody>{phase.message}</MessageBarBody>
          </MessageBar>
          {phase.unmatched.length > 0 && (
            <div role="region" aria-label="Rows not matched">
              <ul className={styles.unmatched}>
                {phase.unmatched.slice(0, 100).map((row) => (
                  <li key={row.row}>
                    Row {row.row} ({row.value}): {row.reason}
                  </li>
                ))}
              </ul>
              {phase.unmatched.length > 100 && <Text as="p">and {count(phase.unmatched.length - 100)} more (see "Match status").</Text>}
              <Text as="p">Edit these rows in the sheet (a fuller website, a country or city), then retry.</Text>
              <Button onClick={() => void retry()}>Retry unmatched rows</Button>
            </div>
          )}
        </>
      )}
    </section>
  );
}

function MatchPlanSummary({ planned, onRun, onBack }: { planned: MatchSelectionPlan; onRun(): void; onBack(): void }) {
  const styles = useStyles();
  const { match, known } = planned;
  const requests = match.requests + known.requests;
  return (
    <div role="region" aria-label="Before you run">
      <ul className={styles.facts}>
        <li>
          {count(planned.values.length)} rows, {count(match.unique)} different {CONTENT_LABEL[planned.content === "name" && planned.kind === "contact" ? "person" : planned.content].toLowerCase()}
        </li>
        <li>{count(match.cached)} matched before (no request)</li>
        <li>
          At most <strong>{count(match.maxCredits + known.maxCredits)}</strong> credits, in {count(requests)} request{requests === 1 ? "" : "s"}; a row that does not match costs nothing
        </li>
        {match.invalid > 0 && <li>{count(match.invalid)} rows cannot be matched as they are (see the status after the run)</li>}
      </ul>
      <PlanActions runLabel="Match and enrich" canRun={match.unique > 0} onRun={onRun} onBack={onBack} />
    </div>
  );
}
