// One filter of the search form, drawn from its contract spec: free text, whole numbers, dates,
// yes/no, fixed choices, or a picker fed by the lookup operation. The validation message sits
// under the field; all text from the service is rendered as text.
import { useEffect, useMemo, useState } from "react";
import type { ReactNode } from "react";
import { Button, Checkbox, Combobox, Dropdown, Field, Input, Option, makeStyles, type PositioningProps } from "@fluentui/react-components";
import type { FilterSpec, LookupItem } from "../../core/contract/index.js";
import { errorText } from "../errorText.js";
import { useServices } from "../services.js";
import type { FormValue } from "./formModel.js";

const useStyles = makeStyles({
  field: { marginBottom: "8px" },
  // A multi-select picker and its clear button share the field's width.
  withClear: { display: "flex", gap: "4px", alignItems: "center" },
  // Fluent's pickers are at least 250 px wide; beside a clear button in a 320 px pane they shrink.
  grow: { flexGrow: 1, minWidth: 0 },
  // As small as Fluent's own clear icon, not a 64 px button.
  clear: { minWidth: "auto", flexShrink: 0 },
});

/**
 * A filled picker's clear button (x). Fluent draws one for single pickers (`clearable`) but not
 * in multiselect mode, so multi-select pickers get this one beside them.
 */
function WithClear({ label, filled, onClear, children }: { label: string; filled: boolean; onClear(): void; children: ReactNode }) {
  const styles = useStyles();
  return (
    <div className={styles.withClear}>
      {children}
      {filled && (
        <Button className={styles.clear} appearance="subtle" size="small" aria-label={`Clear ${label}`} title={`Clear ${label}`} onClick={onClear}>
          ×
        </Button>
      )}
    </div>
  );
}

/** Said under a single-value picker: the service's search takes one value there (its description names no list). */
export const ONE_VALUE_HINT = "One value: the service's search takes a single one here.";

export interface FilterFieldProps {
  name: string;
  spec: FilterSpec;
  value: FormValue | undefined;
  message: string | undefined;
  onChange(name: string, value: FormValue | undefined): void;
  /** Why the account's plan refuses this filter: shown greyed with the reason, not usable. */
  refused?: string | undefined;
}

/**
 * Where a picker's list opens: under the field, or above it when there is no room below, never
 * beside it (a task pane is 320-350 px wide: a list at the side runs off the pane), as wide as
 * the field and no taller than the room there is.
 */
export const PICKER_POSITIONING: PositioningProps = {
  position: "below",
  align: "start",
  fallbackPositions: ["above-start"],
  matchTargetSize: "width",
  autoSize: "height",
};

/** An id usable in the DOM for a filter (tests find fields by label). */
export const fieldId = (name: string) => `filter-${name}`;

/** What a multi-select picker sends for an item: its id, or the attribute the filter names. */
function lookupValueOf(item: LookupItem, spec: FilterSpec): string {
  const value = spec.lookupValue ? (item.attributes as Record<string, unknown>)[spec.lookupValue] : undefined;
  return typeof value === "string" && value !== "" ? value : item.id;
}

export function FilterField({ name, spec, value, message, onChange, refused }: FilterFieldProps) {
  const styles = useStyles();
  if (refused)
    return (
      <Field label={spec.label} className={styles.field} hint={refused}>
        <Input id={fieldId(name)} disabled value="" placeholder="Not in your plan" />
      </Field>
    );
  const common = {
    label: spec.label,
    className: styles.field,
    validationState: message ? ("error" as const) : ("none" as const),
    validationMessage: message,
    hint: spec.hint,
  };
  if (spec.lookup) {
    const single = spec.kind === "text";
    return (
      <Field {...common} hint={spec.hint ?? (single ? ONE_VALUE_HINT : undefined)}>
        <LookupPicker name={name} spec={spec} value={value} onChange={onChange} />
      </Field>
    );
  }
  switch (spec.kind) {
    case "boolean":
      return (
        <Field className={styles.field} validationState={common.validationState} validationMessage={message} hint={spec.hint}>
          <Checkbox id={fieldId(name)} label={spec.label} checked={value === true} onChange={(_, d) => onChange(name, d.checked === true)} />
        </Field>
      );
    case "choice":
    case "list":
    case "array":
      if (spec.values)
        return (
          <Field {...common}>
            <FixedChoice name={name} spec={spec} value={value} onChange={onChange} />
          </Field>
        );
      break;
    default:
      break;
  }
  return (
    <Field {...common}>
      <Input
        id={fieldId(name)}
        type={spec.kind === "date" ? "date" : "text"}
        inputMode={spec.kind === "integer" ? "numeric" : undefined}
        value={typeof value === "string" ? value : Array.isArray(value) ? value.join(",") : ""}
        onChange={(_, d) => onChange(name, d.value)}
      />
    </Field>
  );
}

function FixedChoice({ name, spec, value, onChange }: Omit<FilterFieldProps, "message">) {
  const multiple = spec.kind !== "choice";
  const values = (spec.values ?? []).map(String);
  const selected = Array.isArray(value) ? value : typeof value === "string" && value !== "" ? value.split(",") : [];
  const styles = useStyles();
  const dropdown = (
    <Dropdown
      id={fieldId(name)}
      {...(multiple ? { className: styles.grow } : {})}
      multiselect={multiple}
      placeholder="Any"
      clearable={!multiple}
      positioning={PICKER_POSITIONING}
      selectedOptions={selected}
      value={selected.join(", ")}
      onOptionSelect={(_, d) => {
        if (multiple) onChange(name, d.selectedOptions);
        else onChange(name, d.optionValue === "" ? undefined : d.optionValue);
      }}
    >
      {!multiple && <Option value="">Any</Option>}
      {values.map((v) => (
        <Option key={v} value={v}>
          {v}
        </Option>
      ))}
    </Dropdown>
  );
  if (!multiple) return dropdown;
  return (
    <WithClear label={spec.label} filled={selected.length > 0} onClear={() => onChange(name, undefined)}>
      {dropdown}
    </WithClear>
  );
}

function LookupPicker({ name, spec, value, onChange }: Omit<FilterFieldProps, "message">) {
  const { runtime } = useServices();
  const [items, setItems] = useState<LookupItem[] | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  // Multi-select: the text filters the choices. Single: the text is the value (free text allowed).
  const [query, setQuery] = useState(() => (spec.kind === "text" && typeof value === "string" ? value : ""));
  const multiple = spec.kind !== "text";
  // Chosen ids (a saved search opened in the form) need the names at once, not on first focus.
  const [wanted, setWanted] = useState(() => multiple && (Array.isArray(value) ? value.length > 0 : typeof value === "string" && value !== ""));
  // Lists take lookup ids; single text filters (state, country) take the readable name.
  const valueOf = (item: LookupItem) => (multiple ? lookupValueOf(item, spec) : item.attributes.name);
  const selected = Array.isArray(value) ? value : typeof value === "string" && value !== "" ? [value] : [];

  useEffect(() => {
    if (!wanted || items || !spec.lookup) return;
    // The client keeps each field's values for its life: every picker shares one request.
    let live = true;
    runtime.client.lookup(spec.lookup).then(
      (result) => live && setItems(result),
      (error: unknown) => live && setProblem(`Could not load the choices: ${errorText(error)}`),
    );
    return () => {
      live = false;
    };
  }, [wanted, items, spec.lookup, runtime]);

  // The form emptied from outside (Reset all filters, the clear button): so does the typed text.
  useEffect(() => {
    if (!multiple && (value === undefined || value === "")) setQuery("");
  }, [value, multiple]);

  const names = useMemo(() => new Map((items ?? []).map((i) => [valueOf(i), i.attributes.name])), [items]);
  // A single picker filters by what is typed, until the text is exactly one of the choices.
  const filterText = !multiple && (items ?? []).some((i) => i.attributes.name === query) ? "" : query;
  const shown = (items ?? []).filter((i) => i.attributes.name.toLowerCase().includes(filterText.trim().toLowerCase())).slice(0, 200);
  const summary = selected.map((v) => names.get(v) ?? v).join(", ");

  const clear = () => {
    setQuery("");
    onChange(name, undefined);
  };
  const styles = useStyles();
  const combobox = (
    <Combobox
      id={fieldId(name)}
      {...(multiple ? { className: styles.grow } : {})}
      multiselect={multiple}
      freeform={!multiple}
      // A filled picker has a clear button (x) that empties it (WithClear in multiselect mode).
      clearable={!multiple}
      positioning={PICKER_POSITIONING}
      placeholder={multiple ? summary || "Any" : "Any"}
      value={query}
      selectedOptions={selected}
      onFocus={() => setWanted(true)}
      onOpenChange={(_, d) => d.open && setWanted(true)}
      onChange={(e) => {
        setQuery(e.target.value);
        if (!multiple) onChange(name, e.target.value || undefined);
      }}
      onOptionSelect={(_, d) => {
        setQuery(multiple ? "" : (d.optionText ?? ""));
        if (multiple) onChange(name, d.selectedOptions);
        else onChange(name, d.optionValue || undefined);
      }}
      aria-describedby={problem ? `${fieldId(name)}-problem` : undefined}
      // One Tab stop per picker: the arrow opens the list by mouse; keyboard users type or
      // press Alt+Down in the field.
      expandIcon={{ tabIndex: -1 }}
    >
      {items === undefined && !problem ? (
        <Option disabled value="__loading" text="Loading">
          Loading choices…
        </Option>
      ) : (
        shown.map((item) => (
          <Option key={item.id} value={valueOf(item)} text={item.attributes.name}>
            {item.attributes.name}
          </Option>
        ))
      )}
    </Combobox>
  );
  return (
    <>
      {multiple ? (
        <WithClear label={spec.label} filled={selected.length > 0} onClear={() => clear()}>
          {combobox}
        </WithClear>
      ) : (
        combobox
      )}
      {multiple && summary && <span aria-live="polite">Chosen: {summary}</span>}
      {problem && (
        <span id={`${fieldId(name)}-problem`} role="alert">
          {problem}
        </span>
      )}
    </>
  );
}
