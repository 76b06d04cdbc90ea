// Every filter of a search, grouped the way a sales-ops user looks for them. Groups holding a
// common filter start open and show their common filters; the rest sit behind "More filters".
import { useState } from "react";
import { Accordion, AccordionHeader, AccordionItem, AccordionPanel, Button, makeStyles } from "@fluentui/react-components";
import type { FilterGroup, FilterSpec } from "../../core/contract/index.js";
import { FilterField } from "./FilterField.js";
import type { FormValue, FormValues } from "./formModel.js";

const GROUP_LABELS: Record<FilterGroup, string> = {
  signal: "Signal",
  person: "Person",
  company: "Company",
  location: "Location",
  industry: "Industry and technology",
  size: "Size and revenue",
  growth: "Growth and department budgets",
  funding: "Funding",
  engagement: "Engagement",
  structure: "Corporate structure",
};

const GROUP_ORDER: FilterGroup[] = ["signal", "person", "company", "location", "industry", "size", "growth", "funding", "engagement", "structure"];

const useStyles = makeStyles({ more: { marginBottom: "8px" } });

export interface FilterFormProps {
  specs: Record<string, FilterSpec>;
  values: FormValues;
  messages: Record<string, string>;
  onChange(name: string, value: FormValue | undefined): void;
  /** Why the plan refuses a filter (greyed with the reason), undefined when it may be used. */
  refused?: (name: string) => string | undefined;
}

export function FilterForm({ specs, values, messages, onChange, refused }: FilterFormProps) {
  const styles = useStyles();
  const groups = GROUP_ORDER.map((group) => ({
    group,
    fields: Object.entries(specs).filter(([, spec]) => spec.group === group),
  })).filter((g) => g.fields.length > 0);
  const openByDefault = groups.filter((g) => g.fields.some(([, s]) => s.common)).map((g) => g.group);
  // A group with a problem or a value in a hidden field shows all its fields.
  const [expanded, setExpanded] = useState<Set<FilterGroup>>(new Set());
  const [open, setOpen] = useState<FilterGroup[]>(openByDefault);

  return (
    <Accordion multiple collapsible openItems={open} onToggle={(_, d) => setOpen(d.openItems as FilterGroup[])}>
      {groups.map(({ group, fields }) => {
        const hiddenInUse = fields.some(
          ([name, s]) => !s.common && (messages[name] || (values[name] !== undefined && values[name] !== "" && values[name] !== false)),
        );
        const showAll = expanded.has(group) || hiddenInUse || !fields.some(([, s]) => s.common);
        const shown = showAll ? fields : fields.filter(([, s]) => s.common);
        const hiddenCount = fields.length - shown.length;
        const inGroupProblems = fields.filter(([name]) => messages[name]).length;
        return (
          <AccordionItem key={group} value={group}>
            <AccordionHeader>
              {GROUP_LABELS[group]}
              {inGroupProblems > 0 ? ` (${inGroupProblems} to fix)` : ""}
            </AccordionHeader>
            <AccordionPanel>
              {shown.map(([name, spec]) => (
                <FilterField key={name} name={name} spec={spec} value={values[name]} message={messages[name]} onChange={onChange} refused={refused?.(name)} />
              ))}
              {hiddenCount > 0 && (
                <Button className={styles.more} appearance="subtle" aria-expanded={false} onClick={() => setExpanded((s) => new Set(s).add(group))}>
                  More {GROUP_LABELS[group].toLowerCase()} filters ({hiddenCount})
                </Button>
              )}
            </AccordionPanel>
          </AccordionItem>
        );
      })}
    </Accordion>
  );
}
