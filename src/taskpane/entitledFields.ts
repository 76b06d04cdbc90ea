// Field pickers and the account's field entitlements (production): a field the account may not
// use stays listed, marked and not choosable, so nobody wonders where it went. The lookup is
// cached by the runtime; other environments answer undefined and every field is offered.
import { useEffect, useState } from "react";
import { fieldSpec, type EntityKind } from "../core/enrich/index.js";

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
