// "Enrich selection"'s state: what the selection holds (ids of a kind, or a list to match), the
// fields chosen (the defaults per kind, less those the account may not use), and checking the
// selection into a plan. The run itself is useSelectionRun's; the views are EnrichSelectionPanel's.
import { useEffect, useState, type ReactNode } from "react";
import {
  ENRICHMENT_KINDS,
  matchFieldsBeside,
  type CandidateSearch,
  type EnrichmentEngine,
  type EntityKind,
  type SelectionSource,
} from "../../core/enrich/index.js";
import { overwriteQuestion, useConfirm } from "../ConfirmDialog.js";
import { entitledChoice, useEntitledFields, type EntitledFieldsLookup } from "../entitledFields.js";
import { kindOf, useMatchSetup, type Content, type ReadList } from "./MatchListSetup.js";
import { useSelectionRun } from "./useSelectionRun.js";

// The fields a run starts with are each declared kind's (core/enrich/builtInKinds.ts, declareKind).
const defaultFields = (kind: EntityKind): string[] => [...(ENRICHMENT_KINDS[kind]?.defaultFields ?? [])];
/** The headers of a list read to match: its own and its neighbours' (the fields it starts with leave them out). */
const listHeaders = (read: ReadList | undefined): string[] => (read ? [String(read.selection.values[0] ?? ""), ...read.neighbours.values()] : []);

export interface EnrichSelectionPanelProps {
  engine: EnrichmentEngine;
  /** The workbook: Excel (src/office/enrichSelection.ts) or the browser workbook. */
  source: SelectionSource;
  /** Asks whether to write over non-empty cells; an in-panel dialog when not given. */
  confirmOverwrite?: (address: string) => Promise<boolean>;
  /** The account's credits left for new records (usage), to warn before a run needs more. */
  creditsLeft?: () => Promise<number | undefined>;
  /** The account's credits used so far (usage): read around a run, it settles today's count with what the run cost. */
  creditsUsed?: () => Promise<number | undefined>;
  /** Companies whose name fits an ambiguous row (a search: no credit). */
  candidates?: CandidateSearch;
  /** How to pick the ids on this page, in place of the default instruction. */
  instructions?: ReactNode;
  /** The account's entitled fields (production): the others are marked and cannot be chosen. */
  entitledFields?: EntitledFieldsLookup;
}

export function useEnrichSelection({ engine, source, confirmOverwrite, creditsLeft, creditsUsed, candidates, entitledFields }: EnrichSelectionPanelProps) {
  const [mode, setMode] = useState<"ids" | "match">("ids");
  const [idKind, setIdKind] = useState<EntityKind>("company");
  const [fields, setFields] = useState<string[]>(() => defaultFields("company"));
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
  const selection = useSelectionRun(engine, source, questions, {
    ...(creditsLeft ? { creditsLeft } : {}),
    ...(creditsUsed ? { creditsUsed } : {}),
    ...(candidates ? { candidates } : {}),
  });
  const { reset, busyWith, finish } = selection;
  const setup = useMatchSetup(source);
  const matching = mode === "match";
  const kind = matching ? setup.kind : idKind;

  const matchFields = (k: EntityKind) => matchFieldsBeside(k, listHeaders(setup.read));
  const chooseKind = (next: EntityKind, defaults: (k: EntityKind) => string[]) => {
    if (next !== kind) setFields(defaults(next));
    reset();
  };
  /** Another kind of ids (a record type or a signal). */
  const chooseIdKind = (next: EntityKind) => {
    chooseKind(next, defaultFields);
    setIdKind(next);
  };
  const changeMode = (next: "ids" | "match") => {
    setMode(next);
    setFields(next === "match" ? matchFields(setup.kind) : defaultFields(idKind));
    reset();
  };
  const changeContent = (next: Content) => {
    chooseKind(kindOf(next), matchFields);
    setup.setContent(next);
  };

  const check = async () => {
    if (!matching) {
      busyWith("Reading the selection");
      const read = await source.readIds().catch((error: unknown) => ({ ok: false as const, message: `Could not read the selection: ${String(error)}` }));
      if (!read.ok) finish("warning", read.message);
      else await selection.plan(kind, read.selection, fields, { by: "id" });
      return;
    }
    if (setup.read) await selection.plan(kind, setup.read.selection, fields, await setup.mode(setup.read.selection));
  };
  const readList = async () => {
    busyWith("Reading the selection");
    const message = await setup.readSelection().catch((error: unknown) => `Could not read the selection: ${String(error)}`);
    if (message) finish("warning", message);
    else reset();
  };

  // A list read anew starts from the fields it does not hold already.
  useEffect(() => {
    if (setup.read) setFields(matchFieldsBeside(setup.kind, listHeaders(setup.read)));
  }, [setup.read, setup.kind]);

  const entitled = useEntitledFields(entitledFields, kind, selection.phase.name);
  useEffect(() => {
    // Fields the account may not use leave the choice (the defaults hold some) once known.
    setFields((chosen) => {
      const usable = entitledChoice(kind, chosen, entitled);
      return usable.length === chosen.length ? chosen : usable;
    });
  }, [kind, entitled]);

  return {
    mode,
    changeMode,
    matching,
    kind,
    idKind,
    chooseIdKind,
    changeContent,
    fields,
    setFields,
    entitled,
    selection,
    setup,
    check,
    readList,
    dialog: question.dialog,
  };
}

export type EnrichSelectionState = ReturnType<typeof useEnrichSelection>;
