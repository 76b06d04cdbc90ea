// The pane's one list of columns (or fields) to tick: a legend that may count the choice, the
// choices in a grid that wraps in a 320 px pane (two columns, one when labels are long), an
// optional scroll for a long list and one Tab stop with the arrow keys moving among the choices.
// Inserts, research tables, signal searches, Enrich selection and audience jobs all use it.
import type { ReactNode } from "react";
import { Checkbox, makeStyles, mergeClasses, useArrowNavigationGroup } from "@fluentui/react-components";

const useStyles = makeStyles({
  fieldset: { minWidth: 0 },
  grid: { display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(140px, 1fr))" },
  scroll: { maxHeight: "220px", overflowY: "auto" },
});

export interface ColumnOption {
  key: string;
  label: string;
  /** Listed but not choosable (e.g. a field outside the account's plan, whose label says so). */
  disabled?: boolean;
}

export interface ColumnCheckboxesProps {
  legend: string;
  options: readonly ColumnOption[];
  chosen: readonly string[] | ReadonlySet<string>;
  onToggle(key: string, checked: boolean): void;
  disabled?: boolean;
  /** A long list scrolls inside the pane rather than pushing what follows out of view. */
  scroll?: boolean;
  /** One Tab stop: the arrow keys move among the choices. */
  arrowKeys?: boolean;
  className?: string;
  /** Shown above the list (e.g. a find box). */
  before?: ReactNode;
  /** Shown under the list (e.g. a note on what the columns hold). */
  children?: ReactNode;
}

/** The keys after one was ticked (added at the end) or unticked. */
export const toggledKeys = (keys: readonly string[], key: string, checked: boolean): string[] => (checked ? [...keys, key] : keys.filter((k) => k !== key));

export function ColumnCheckboxes({ legend, options, chosen, onToggle, disabled, scroll, arrowKeys, className, before, children }: ColumnCheckboxesProps) {
  const styles = useStyles();
  const arrows = useArrowNavigationGroup({ axis: "grid-linear", memorizeCurrent: true });
  const has = (key: string) => ("has" in chosen ? chosen.has(key) : chosen.includes(key));
  return (
    <fieldset className={mergeClasses(styles.fieldset, className)} disabled={disabled}>
      <legend>{legend}</legend>
      {before}
      <div className={mergeClasses(styles.grid, scroll && styles.scroll)} {...(arrowKeys ? arrows : {})}>
        {options.map((o) => (
          <Checkbox key={o.key} label={o.label} disabled={o.disabled === true} checked={has(o.key)} onChange={(_, d) => onToggle(o.key, d.checked === true)} />
        ))}
      </div>
      {children}
    </fieldset>
  );
}
