// "Enrich selection": a column of ids, or a list to match (websites, company names, emails, person
// names, with neighbouring country/city/company columns). Pick fields, see what it would cost,
// confirm, watch progress with Cancel, and get the fields in new columns to the right (for a
// list: the matched id and a match status first, and the unmatched rows to correct and retry).
// Services come in as props; the state is useEnrichSelection's (the run's state machine is
// useSelectionRun), the work is in core/enrich (planSelectionEnrichment, runSelectionEnrichment)
// and the workbook adapter. The views here show what the hooks hold.
import type { ReactNode } from "react";
import { Button, ProgressBar, Radio, RadioGroup, Text, makeStyles } from "@fluentui/react-components";
import { ENRICHMENT_KINDS, type EntityKind } from "../../core/enrich/index.js";
import { ColumnCheckboxes, toggledKeys } from "../ColumnCheckboxes.js";
import { Notice } from "../Notice.js";
import { countOf, RunProgress } from "../run/RunProgress.js";
import { pickerField } from "../entitledFields.js";
import { OrganizationLimitNotice } from "../usage/OrganizationLimit.js";
import { MatchListControls } from "./MatchListSetup.js";
import { PlanSummary } from "./PlanSummary.js";
import { SpendControls } from "./SpendControls.js";
import { UnmatchedRows } from "./UnmatchedRows.js";
import { SignalKindChoice } from "./SignalKindChoice.js";
import { useEnrichSelection, type EnrichSelectionPanelProps, type EnrichSelectionState } from "./useEnrichSelection.js";
import type { Phase } from "./useSelectionRun.js";

export type { EnrichSelectionPanelProps } from "./useEnrichSelection.js";

const useStyles = makeStyles({
  row: { display: "flex", gap: "8px", marginTop: "8px", alignItems: "end", flexWrap: "wrap" },
});

/** Changes whenever today's count may have: each progress report of a run (the first follows its reservations), and its end. */
const spendVersion = (phase: Phase): unknown => (phase.name === "finished" ? phase.message : phase.name === "running" ? phase.progress : phase.name);

export function EnrichSelectionPanel(props: EnrichSelectionPanelProps) {
  const state = useEnrichSelection(props);
  const { matching, selection, setup } = state;
  const { busy } = selection;
  return (
    <section aria-label="Enrich selection">
      <RadioGroup
        layout="horizontal"
        value={state.mode}
        onChange={(_e, data) => state.changeMode(data.value as "ids" | "match")}
        disabled={busy}
        aria-label="The selection holds"
      >
        <Radio value="ids" label="Ids" />
        <Radio value="match" label="Websites, names, emails" />
      </RadioGroup>
      {matching ? <MatchChoice state={state} /> : <IdsChoice state={state} instructions={props.instructions} />}
      {(!matching || setup.read) && <FieldChoice state={state} />}
      <RunStatus state={state} />
      <SpendControls engine={props.engine} busy={busy} version={spendVersion(selection.phase)} />
      {state.dialog}
    </section>
  );
}

/** A list to match: read it from the selection, say what it holds. */
function MatchChoice({ state }: { state: EnrichSelectionState }) {
  const styles = useStyles();
  return (
    <>
      <Text as="p">Select a column of websites, company names or emails (a header cell is fine), then read it.</Text>
      <div className={styles.row}>
        <MatchListControls setup={state.setup} busy={state.selection.busy} onRead={() => void state.readList()} onContent={state.changeContent} />
      </div>
    </>
  );
}

/** A column of ids: the record type or signal they are for. */
function IdsChoice({ state, instructions }: { state: EnrichSelectionState; instructions: ReactNode }) {
  const { kind, idKind, chooseIdKind, setFields } = state;
  const { busy } = state.selection;
  return (
    <>
      {instructions ?? (
        <Text as="p">
          Select a column of {kind === "contact" ? "person" : "company"} ids in the sheet (a header cell is fine), choose fields, then check what it costs
          before running.
        </Text>
      )}
      <RadioGroup layout="horizontal" value={idKind} onChange={(_e, data) => chooseIdKind(data.value as EntityKind)} disabled={busy} aria-label="Record type">
        <Radio value="company" label="Companies" />
        <Radio value="contact" label="Contacts" />
      </RadioGroup>
      <SignalKindChoice value={idKind} busy={busy} onChange={chooseIdKind} onTopics={setFields} />
    </>
  );
}

/** The fields to write, and the button that checks the selection (or list) into a plan. */
function FieldChoice({ state }: { state: EnrichSelectionState }) {
  const styles = useStyles();
  const { kind, fields, setFields, entitled, matching } = state;
  const { busy } = state.selection;
  return (
    <>
      <ColumnCheckboxes
        legend={`Fields (${fields.length} chosen)`}
        options={Object.entries(ENRICHMENT_KINDS[kind].outputFields)
          .filter(([name]) => name !== kind)
          .map(([name, spec]) => ({ key: name, ...pickerField(kind, name, spec.label, entitled) }))}
        chosen={fields}
        onToggle={(name, checked) => setFields((current) => toggledKeys(current, name, checked))}
        disabled={busy}
        scroll
      />
      <div className={styles.row}>
        <Button appearance={matching ? "secondary" : "primary"} disabled={busy || (!matching && fields.length === 0)} onClick={() => void state.check()}>
          {matching ? "Check list" : "Check selection"}
        </Button>
      </div>
    </>
  );
}

/** Where the run is: reading, the plan to confirm, progress with Cancel, or the outcome (with the unmatched rows to retry). */
function RunStatus({ state }: { state: EnrichSelectionState }) {
  const { selection, matching, setup } = state;
  const { phase, busy } = selection;
  return (
    <>
      {phase.name === "busy" && <ProgressBar aria-label={phase.what} />}
      {phase.name === "planned" && (
        <PlanSummary
          planned={phase.planned}
          {...(phase.credits !== undefined ? { credits: phase.credits } : {})}
          onRun={() => void selection.run(phase.planned, { shift: matching ? setup.rightmost : 0 })}
          onBack={selection.reset}
        />
      )}
      {phase.name === "running" && (
        <RunProgress
          label={matching ? "Matching" : "Enriching"}
          detail={`${countOf(phase.progress.recordsDone, phase.progress.recordsTotal, matching ? "inputs" : "ids")} · ${countOf(phase.progress.requestsDone, phase.progress.requestsTotal, "requests")}`}
          done={phase.progress.recordsDone}
          total={phase.progress.recordsTotal}
          barLabel={matching ? "Matching progress" : "Enrichment progress"}
          onCancel={selection.cancel}
        />
      )}
      {phase.name === "running" && <OrganizationLimitNotice busy />}
      {phase.name === "finished" && (
        <>
          <Notice intent={phase.intent} role="status">
            {phase.message}
          </Notice>
          {phase.unmatched.length > 0 && phase.planned && (
            <UnmatchedRows
              key={phase.message}
              rows={phase.unmatched}
              busy={busy}
              onRetry={(corrections) => {
                const planned = phase.planned!;
                const retried = corrections.size > 0 ? phase.unmatched.filter((row) => corrections.has(row.index)) : phase.unmatched;
                void selection.retry(planned, retried, corrections, setup.rightmost, planned.mode);
              }}
            />
          )}
        </>
      )}
    </>
  );
}
