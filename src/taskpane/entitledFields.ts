// What the account may use, as the pane shows it. First the plan (runtime.plan, read up front
// from the entitlements): a filter, a kind, research or an audience write it lacks stays shown,
// greyed, with the reason in words. Then the field pickers and the account's field entitlements
// learnt from refusals (production): a field the account may not use stays listed, marked and
// not choosable, so nobody wonders where it went. The lookup is cached by the runtime; other
// environments answer undefined and every field is offered.
import { useCallback, useEffect, useState, useSyncExternalStore } from "react";
import { fieldSpec, type EntityKind } from "../core/enrich/index.js";
import type { RecordKind } from "../core/contract/index.js";
import { allows, filterCapability, type Allowance, type Capability, type Plan } from "../core/plan/index.js";
import { useOptionalServices } from "./services.js";

const NO_PLAN = () => undefined;
const NOTHING = () => () => undefined;

/** The signed-in user's plan, following its changes; undefined while unknown (everything allowed). */
export function usePlan(): Plan | undefined {
  const plan = useOptionalServices()?.runtime.plan;
  const subscribe = useCallback((listener: () => void) => (plan ? plan.subscribe(listener) : NOTHING()), [plan]);
  const current = plan ? () => plan.current() : NO_PLAN;
  return useSyncExternalStore(subscribe, current, current);
}

/** Whether the plan allows a capability, and if not why (the reason in words, for the pane). */
export function usePlanAllows(): (capability: Capability) => Allowance {
  const plan = usePlan();
  return useCallback((capability: Capability) => allows(plan, capability), [plan]);
}

/** Why a search filter of `kind` is greyed (the plan refuses it), or undefined when it may be used. */
export function useRefusedFilters(kind: RecordKind): (field: string) => string | undefined {
  const allowed = usePlanAllows();
  return useCallback(
    (field: string) => {
      const answer = allowed(filterCapability(kind, field));
      return answer.allowed ? undefined : answer.reason;
    },
    [allowed, kind],
  );
}

export interface PickerField {
  label: string;
  disabled: boolean;
}

/** Whether the account may use `name` (entitlements cover output fields only; other columns always). */
function isEntitled(kind: EntityKind, name: string, entitled: ReadonlySet<string> | undefined): boolean {
  return !entitled || entitled.has(name) || fieldSpec(kind, name) === undefined;
}

/** How a picker shows one field, given the entitled fields (undefined: all). */
export function pickerField(kind: EntityKind, name: string, label: string, entitled: ReadonlySet<string> | undefined): PickerField {
  if (isEntitled(kind, name, entitled)) return { label, disabled: false };
  return { label: `${label} (not in your account's plan)`, disabled: true };
}

/** The chosen fields the account may use (a default choice may hold some it may not). */
export function entitledChoice(kind: EntityKind, chosen: readonly string[], entitled: ReadonlySet<string> | undefined): string[] {
  return chosen.filter((name) => isEntitled(kind, name, entitled));
}

export type EntitledFieldsLookup = (kind: EntityKind) => Promise<ReadonlySet<string> | undefined>;

/**
 * The entitled output fields of `kind` (runtime.entitledFields); undefined until known, or when
 * all are. Asked again when `refresh` changes: a run can teach that a field is refused.
 */
export function useEntitledFields(lookup: EntitledFieldsLookup | undefined, kind: EntityKind, refresh?: unknown): ReadonlySet<string> | undefined {
  const [known, setKnown] = useState<{ lookup: EntitledFieldsLookup; kind: EntityKind; set: ReadonlySet<string> | undefined }>();
  useEffect(() => {
    if (!lookup) return;
    let live = true;
    lookup(kind).then(
      (set) => live && setKnown({ lookup, kind, set }),
      () => live && setKnown(undefined),
    );
    return () => {
      live = false;
    };
  }, [lookup, kind, refresh]);
  return known && known.lookup === lookup && known.kind === kind ? known.set : undefined;
}
