// "Send to an audience": the selected table's columns mapped (match criteria and column types,
// each changeable), the destination, a preview, the plan and its confirm, progress and Cancel,
// the result (each row's status is written beside it), then Enrich this audience and Bring the
// results back. The state is useAudienceSend's; the views here show what it holds.
import { Button, Field, Input, Radio, RadioGroup, Select, Spinner, Text, makeStyles } from "@fluentui/react-components";
import {
  CRITERION_LABELS,
  DATA_TYPE_LABELS,
  cellForService,
  criteriaFor,
  planSummary,
  rowStatusText,
  sentColumns,
  type AudienceDataType,
  type ColumnRole,
} from "../../core/audiences/index.js";
import { Notice } from "../Notice.js";
import { EstimateConfirm } from "../run/EstimateConfirm.js";
import { RunProgress } from "../run/RunProgress.js";
import { usePlanAllows } from "../entitledFields.js";
import { NotInPlan } from "../NotInPlan.js";
import { useAudienceSend, type AudienceSendProps, type AudienceSendState } from "./useAudienceSend.js";

export type { AudienceSendProps } from "./useAudienceSend.js";

const useStyles = makeStyles({
  panel: { display: "flex", flexDirection: "column", gap: "10px", minWidth: 0 },
  select: { minWidth: 0, maxWidth: "100%" },
  line: { display: "flex", gap: "8px", alignItems: "center", flexWrap: "wrap" },
  list: { margin: 0, paddingLeft: "18px", overflowWrap: "anywhere" },
  preview: { margin: 0, paddingLeft: "18px", overflowWrap: "anywhere", fontSize: "12px" },
});

const ROLE_SKIP = "skip";

function roleValue(role: ColumnRole): string {
  return role.kind === "criterion" ? `criterion:${role.criterion}` : role.kind === "column" ? `column:${role.dataType}` : ROLE_SKIP;
}

function roleOf(value: string): ColumnRole {
  const [kind, name] = value.split(":");
  if (kind === "criterion") return { kind: "criterion", criterion: name as keyof typeof CRITERION_LABELS };
  if (kind === "column") return { kind: "column", dataType: name as AudienceDataType };
  return { kind: "skip" };
}

function MappingView({ state }: { state: AudienceSendState }) {
  const styles = useStyles();
  const { mapping } = state;
  if (!mapping) return null;
  return (
    <div role="group" aria-label="Columns" className={styles.panel}>
      <Field label="Audience of" {...(state.kindFixed ? { hint: "As the audience is; its match columns are chosen below." } : {})}>
        <RadioGroup layout="horizontal" value={mapping.kind} disabled={state.kindFixed} onChange={(_, d) => state.setKind(d.value as "COMPANY" | "CONTACT")}>
          <Radio value="COMPANY" label="Companies" />
          <Radio value="CONTACT" label="Contacts" />
        </RadioGroup>
      </Field>
      {mapping.columns.map((c) => (
        <Field key={c.index} label={c.header.trim() || `Column ${c.index + 1}`}>
          <Select className={styles.select} value={roleValue(c.role)} onChange={(_, d) => state.setRole(c.index, roleOf(d.value))}>
            <optgroup label="Identifies the record (match on)">
              {criteriaFor(mapping.kind).map((k) => (
                <option key={k} value={`criterion:${k}`}>
                  {CRITERION_LABELS[k]}
                </option>
              ))}
            </optgroup>
            <optgroup label="Custom column of type">
              {(Object.keys(DATA_TYPE_LABELS) as AudienceDataType[]).map((t) => (
                <option key={t} value={`column:${t}`}>
                  {DATA_TYPE_LABELS[t]}
                </option>
              ))}
            </optgroup>
            <option value={ROLE_SKIP}>Leave out</option>
          </Select>
        </Field>
      ))}
    </div>
  );
}

function DestinationView({ state }: { state: AudienceSendState }) {
  const styles = useStyles();
  const { destination, audiences, folders } = state;
  return (
    <div role="group" aria-label="Destination" className={styles.panel}>
      <RadioGroup
        value={destination.kind}
        onChange={(_, d) =>
          state.setDestination(d.value === "new" ? { kind: "new", name: "", folderId: "" } : { kind: "existing", audienceId: audiences?.[0]?.id ?? "" })
        }
      >
        <Radio value="new" label="A new audience" />
        <Radio value="existing" label="An existing audience" disabled={!audiences || audiences.length === 0} />
      </RadioGroup>
      {destination.kind === "new" ? (
        <>
          <Field label="Name">
            <Input value={destination.name} maxLength={200} onChange={(_, d) => state.setDestination({ ...destination, name: d.value })} />
          </Field>
          <Field label="Folder">
            <Select className={styles.select} value={destination.folderId} onChange={(_, d) => state.setDestination({ ...destination, folderId: d.value })}>
              <option value="">A new folder of its name</option>
              {folders.map((f) => (
                <option key={f.folderId} value={f.folderId}>
                  {f.name}
                </option>
              ))}
            </Select>
          </Field>
        </>
      ) : (
        <Field label="Send to">
          <Select className={styles.select} value={destination.audienceId} onChange={(_, d) => state.setDestination({ kind: "existing", audienceId: d.value })}>
            {!audiences?.some((a) => a.id === destination.audienceId) && <option value={destination.audienceId}>The audience this table was sent to</option>}
            {audiences?.map((a) => (
              <option key={a.id} value={a.id}>
                {a.attributes.name}
              </option>
            ))}
          </Select>
        </Field>
      )}
    </div>
  );
}

/** The first rows as the service will get them, one line each. */
function PreviewView({ state }: { state: AudienceSendState }) {
  const styles = useStyles();
  const { table, mapping } = state;
  if (!table || !mapping) return null;
  const columns = sentColumns(mapping);
  return (
    <div role="region" aria-label="Preview">
      <Text as="p" weight="semibold">
        Preview (first rows as sent)
      </Text>
      <ol className={styles.preview} data-testid="audience-preview">
        {table.rows.slice(0, 3).map((row, r) => (
          <li key={r}>
            {columns.map((c) => `${c.header.trim()}: ${String(cellForService(row[c.index], c.role, table.formats?.[c.index]) ?? "(empty)")}`).join(" · ")}
          </li>
        ))}
      </ol>
    </div>
  );
}

function ResultView({ state }: { state: AudienceSendState }) {
  const styles = useStyles();
  const { phase, back } = state;
  if (phase.name !== "sent") return null;
  const problemRows = phase.result.rows.filter((r) => r.problems.length > 0 || (r.status !== "created" && r.status !== "updated"));
  return (
    <div className={styles.panel}>
      <Notice intent={phase.intent} role="status" testId="audience-send-result">
        {phase.summary}
      </Notice>
      {problemRows.length > 0 && (
        <ul className={styles.list} data-testid="audience-row-problems">
          {problemRows.slice(0, 10).map((r) => (
            <li key={r.row}>{`Row ${r.row + 2}: ${rowStatusText(r)}`}</li>
          ))}
          {problemRows.length > 10 && <li>{`… and ${problemRows.length - 10} more (see the status column)`}</li>}
        </ul>
      )}
      <div className={styles.line}>
        {phase.linksMissing && (
          <Button appearance="primary" onClick={() => void state.writeLinksAgain()}>
            Write the links again
          </Button>
        )}
        {state.enrich && <Button onClick={state.enrich}>Enrich this audience</Button>}
        <Button disabled={back.name === "running"} onClick={() => void state.bringResults()}>
          Bring the results back
        </Button>
      </div>
    </div>
  );
}

function BackView({ state }: { state: AudienceSendState }) {
  const { back } = state;
  if (back.name === "idle") return null;
  if (back.name === "running")
    return <RunProgress label={back.text} done={back.pagesDone} total={back.totalPages} barLabel="Bring back progress" onCancel={state.cancel} />;
  const resumeFrom = back.result.resumeFrom;
  return (
    <Notice
      intent={back.intent}
      role="status"
      testId="audience-back-result"
      {...(resumeFrom !== undefined ? { actions: <Button onClick={() => void state.bringResults(resumeFrom)}>Resume</Button> } : {})}
    >
      {back.text}
    </Notice>
  );
}

function PlanView({ state }: { state: AudienceSendState }) {
  const styles = useStyles();
  const { phase } = state;
  if (phase.name === "planned")
    return (
      <EstimateConfirm
        label="Plan"
        role="region"
        confirmLabel={`Send ${phase.plan.rows.length.toLocaleString("en-US")} rows`}
        cancelLabel="Back"
        onConfirm={() => void state.send()}
        onCancel={state.backToMapping}
      >
        <div className={styles.panel}>
          <Text as="p" data-testid="audience-plan">
            {planSummary(phase.plan)}
          </Text>
          <Text as="p" size={200}>
            Sending costs no credits. Each row&apos;s link and result are written in two columns beside the table.
          </Text>
        </div>
      </EstimateConfirm>
    );
  if (phase.name === "sending") {
    const { rowsDone, rows } = phase.progress;
    return (
      <RunProgress
        label={`Sent ${rowsDone.toLocaleString("en-US")} of ${rows.toLocaleString("en-US")} rows`}
        done={rowsDone}
        total={rows}
        barLabel="Send progress"
        onCancel={state.cancel}
      />
    );
  }
  if (phase.name === "busy") return <Spinner size="tiny" label={phase.what} />;
  return null;
}

export function AudienceSendPanel(props: AudienceSendProps & { instructions?: string }) {
  const styles = useStyles();
  const state = useAudienceSend(props);
  const { phase, mapping, problems } = state;
  const editing = phase.name === "idle" || phase.name === "sent";
  // Sending creates or changes an audience: greyed, with the reason, when the plan lacks it.
  const writes = usePlanAllows()("audienceWrites");
  return (
    <div className={styles.panel} data-testid="audience-send">
      <Text as="p">{props.instructions ?? "Select a table or range with a header row, then Read table."}</Text>
      <NotInPlan allowance={writes} />
      <div className={styles.line}>
        <Button disabled={!editing || !writes.allowed} onClick={() => void state.readTable()}>
          {mapping ? "Read table again" : "Read table"}
        </Button>
      </div>
      {state.problem && (
        <Notice intent="error" role="alert">
          {state.problem}
        </Notice>
      )}
      {state.destinationsProblem && <Notice intent="warning">{`The audiences could not be listed: ${state.destinationsProblem}`}</Notice>}
      {mapping && editing && (
        <>
          <DestinationView state={state} />
          <MappingView state={state} />
          <PreviewView state={state} />
          {problems.length > 0 && (
            <ul className={styles.list} role="alert">
              {problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          )}
          <Button appearance="primary" disabled={problems.length > 0} onClick={() => void state.plan()}>
            Check plan
          </Button>
        </>
      )}
      <PlanView state={state} />
      <ResultView state={state} />
      <BackView state={state} />
    </div>
  );
}

export default AudienceSendPanel;
