// "Enrich selection": a column of ids, or a list to match (websites, company names, emails, person
// names, with neighbouring country/city/company columns). Pick fields, see what it would cost,
// confirm, watch progress with Cancel, and get the fields in new columns to the right (for a
// list: the matched id and a match status first, and the unmatched rows to correct and retry).
// Services come in as props; the one state machine is useSelectionRun, the work is in
// core/enrich (planSelectionEnrichment, runSelectionEnrichment) and the workbook adapter.
import { useEffect, useState, type ReactNode } from "react";
import { Button, Checkbox, Field, ProgressBar, Radio, RadioGroup, Text, makeStyles } from "@fluentui/react-components";
import { OUTPUT_FIELDS, type EnrichmentEngine, type EntityKind, type SelectionSource } from "../../core/enrich/index.js";
import { overwriteQuestion, useConfirm } from "../ConfirmDialog.js";
import { Notice } from "../Notice.js";
import { entitledChoice, pickerField, useEntitledFields, type EntitledFieldsLookup } from "../entitledFields.js";
import { OrganizationLimitNotice } from "../usage/OrganizationLimit.js";
import { kindOf, MatchListControls, useMatchSetup, type Content } from "./MatchListSetup.js";
import { PlanSummary } from "./PlanSummary.js";
import { SpendControls } from "./SpendControls.js";
import { UnmatchedRows } from "./UnmatchedRows.js";
import { SignalKindChoice } from "./SignalKindChoice.js";
import { useSelectionRun, type Phase } from "./useSelectionRun.js";

export interface EnrichSelectionPanelProps {
  engine: EnrichmentEngine;
  /** The workbook: Excel (src/office/enrichSelection.ts) or the browser workbook. */
  source: SelectionSource;
  /** Asks whether to write over non-empty cells; an in-panel dialog when not given. */
  confirmOverwrite?: (address: string) => Promise<boolean>;
  /** The account's credits left for new records (usage), to warn before a run needs more. */
  creditsLeft?: () => Promise<number | undefined>;
  /** How to pick the ids on this page, in place of the default instruction. */
  instructions?: ReactNode;
  /** The account's entitled fields (production): the others are marked and cannot be chosen. */
  entitledFields?: EntitledFieldsLookup;
}

// A signal column is its one field (intent asks topics, chosen in the Signals part).
const SIGNAL_DEFAULT_FIELDS = {
  intent: [],
  scoops: ["latestScoop", "latestScoopDate", "scoops90"],
  news: ["latestNews", "latestNewsDate"],
  technologies: ["technologyProducts"],
};

// Fields a search table does not already hold (its name, website, place, revenue and
// employees are there), so the defaults add columns instead of repeating them.
const DEFAULT_FIELDS: Record<EntityKind, string[]> = {
  company: ["employeeRange", "primaryIndustry", "phone", "foundedYear", "description"],
  contact: ["email", "phone", "managementLevel", "jobFunction", "city"],
  ...SIGNAL_DEFAULT_FIELDS,
};
// A list to match usually has no name column worth keeping: the found name comes along.
const MATCH_FIELDS: Record<EntityKind, string[]> = {
  company: ["name", "website", "country"],
  contact: ["firstName", "lastName", "jobTitle", "companyName"],
  ...SIGNAL_DEFAULT_FIELDS,
};

const useStyles = makeStyles({
  fields: { display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(140px, 1fr))", maxHeight: "220px", overflowY: "auto" },
  row: { display: "flex", gap: "8px", marginTop: "8px", alignItems: "end", flexWrap: "wrap" },
});

const count = (n: number) => n.toLocaleString("en-US");

/** Changes whenever today's count may have: each progress report of a run (the first follows its reservations), and its end. */
const spendVersion = (phase: Phase): unknown => (phase.name === "finished" ? phase.message : phase.name === "running" ? phase.progress : phase.name);

export function EnrichSelectionPanel({ engine, source, confirmOverwrite, creditsLeft, instructions, entitledFields }: EnrichSelectionPanelProps) {
  const styles = useStyles();
  const [mode, setMode] = useState<"ids" | "match">("ids");
  const [idKind, setIdKind] = useState<EntityKind>("company");
  const [fields, setFields] = useState<string[]>(DEFAULT_FIELDS.company);
  const question = useConfirm();
  const questions = {
    overwrite:
      confirmOverwrite ?? ((address: string) => question.ask(overwriteQuestion(`Cells in ${address} are not empty. Write the enriched columns over them?`))),
    updateFirstRun: (written: string) =>
      question.ask({
        title: "Update the earlier columns?",
        text: `This column was enriched before, into ${written}. Update those columns, or add new ones beside them?`,
        no: "Add new columns",
        yes: "Update them",
      }),
  };
  const selection = useSelectionRun(engine, source, questions, creditsLeft);
  const { phase, setPhase, busy } = selection;
  const setup = useMatchSetup(source);
  const matching = mode === "match";
  const kind = matching ? setup.kind : idKind;

  const chooseKind = (next: EntityKind, defaults: Record<EntityKind, string[]>) => {
    if (next !== kind) setFields(defaults[next]);
    setPhase({ name: "idle" });
  };
  const changeMode = (next: "ids" | "match") => {
    setMode(next);
    setFields(next === "match" ? MATCH_FIELDS[setup.kind] : DEFAULT_FIELDS[idKind]);
    setPhase({ name: "idle" });
  };
  const changeContent = (next: Content) => {
    chooseKind(kindOf(next), MATCH_FIELDS);
    setup.setContent(next);
  };

  const check = async () => {
    if (!matching) {
      setPhase({ name: "busy", what: "Reading the selection" });
      const read = await source.readIds().catch((error: unknown) => ({ ok: false as const, message: `Could not read the selection: ${String(error)}` }));
      if (!read.ok) setPhase({ name: "finished", intent: "warning", message: read.message, unmatched: [] });
      else await selection.plan(kind, read.selection, fields, { by: "id" });
      return;
    }
    if (setup.read) await selection.plan(kind, setup.read.selection, fields, await setup.mode(setup.read.selection));
  };
  const readList = async () => {
    setPhase({ name: "busy", what: "Reading the selection" });
    const message = await setup.readSelection().catch((error: unknown) => `Could not read the selection: ${String(error)}`);
    if (message) setPhase({ name: "finished", intent: "warning", message, unmatched: [] });
    else setPhase({ name: "idle" });
  };

  const entitled = useEntitledFields(entitledFields, kind, selection.phase.name);
  useEffect(() => {
    // Fields the account may not use leave the choice (the defaults hold some) once known.
    setFields((chosen) => {
      const usable = entitledChoice(kind, chosen, entitled);
      return usable.length === chosen.length ? chosen : usable;
    });
  }, [kind, entitled]);

  return (
    <section aria-label="Enrich selection">
      <RadioGroup
        layout="horizontal"
        value={mode}
        onChange={(_e, data) => changeMode(data.value as "ids" | "match")}
        disabled={busy}
        aria-label="The selection holds"
      >
        <Radio value="ids" label="Ids" />
        <Radio value="match" label="Websites, names, emails" />
      </RadioGroup>
      {matching ? (
        <>
          <Text as="p">Select a column of websites, company names or emails (a header cell is fine), then read it.</Text>
          <div className={styles.row}>
            <MatchListControls setup={setup} busy={busy} onRead={() => void readList()} onContent={changeContent} />
          </div>
        </>
      ) : (
        <>
          {instructions ?? (
            <Text as="p">
              Select a column of {kind === "contact" ? "person" : "company"} ids in the sheet (a header cell is fine), choose fields, then check what it costs
              before running.
            </Text>
          )}
          <RadioGroup
            layout="horizontal"
            value={idKind}
            onChange={(_e, data) => {
              chooseKind(data.value as EntityKind, DEFAULT_FIELDS);
              setIdKind(data.value as EntityKind);
            }}
            disabled={busy}
            aria-label="Record type"
          >
            <Radio value="company" label="Companies" />
            <Radio value="contact" label="Contacts" />
          </RadioGroup>
          <SignalKindChoice value={idKind} busy={busy} onChange={(next) => (chooseKind(next, DEFAULT_FIELDS), setIdKind(next))} onTopics={setFields} />
        </>
      )}
      {(!matching || setup.read) && (
        <>
          <fieldset disabled={busy}>
            <legend>Fields ({fields.length} chosen)</legend>
            <div className={styles.fields}>
              {Object.entries(OUTPUT_FIELDS[kind])
                .filter(([name]) => name !== kind)
                .map(([name, spec]) => (
                  <Checkbox
                    key={name}
                    {...pickerField(kind, name, spec.label, entitled)}
                    checked={fields.includes(name)}
                    onChange={(_e, data) => setFields((current) => (data.checked === true ? [...current, name] : current.filter((f) => f !== name)))}
                  />
                ))}
            </div>
          </fieldset>
          <div className={styles.row}>
            <Button appearance={matching ? "secondary" : "primary"} disabled={busy || (!matching && fields.length === 0)} onClick={() => void check()}>
              {matching ? "Check list" : "Check selection"}
            </Button>
          </div>
        </>
      )}

      {phase.name === "busy" && <ProgressBar aria-label={phase.what} />}
      {phase.name === "planned" && (
        <PlanSummary
          planned={phase.planned}
          {...(phase.credits !== undefined ? { credits: phase.credits } : {})}
          onRun={() => void selection.run(phase.planned, { shift: matching ? setup.rightmost : 0 })}
          onBack={() => setPhase({ name: "idle" })}
        />
      )}
      {phase.name === "running" && (
        <div className={styles.row}>
          <Field
            label={matching ? "Matching" : "Enriching"}
            validationState="none"
            validationMessage={`${count(phase.progress.recordsDone)} of ${count(phase.progress.recordsTotal)} ${matching ? "inputs" : "ids"} · ${count(phase.progress.requestsDone)} of ${count(phase.progress.requestsTotal)} requests`}
          >
            <ProgressBar
              value={phase.progress.recordsTotal > 0 ? phase.progress.recordsDone / phase.progress.recordsTotal : 0}
              max={1}
              aria-label={matching ? "Matching progress" : "Enrichment progress"}
            />
          </Field>
          <Button onClick={selection.cancel}>Cancel</Button>
        </div>
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
      <SpendControls engine={engine} busy={busy} version={spendVersion(phase)} />
      {question.dialog}
    </section>
  );
}
