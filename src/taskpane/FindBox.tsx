// A search box over a long list of fields or columns (the insert's columns; any field picker):
// the list shows only the entries whose label holds every typed word, in any case.
import { Input, makeStyles } from "@fluentui/react-components";

const useStyles = makeStyles({ box: { width: "100%", marginBottom: "4px" } });

/** Whether `label` holds every word of `query` (case-insensitive); an empty query matches all. */
export function matchesWords(label: string, query: string): boolean {
  const text = label.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => text.includes(word));
}

export function FindBox({ label, value, onChange }: { label: string; value: string; onChange(value: string): void }) {
  const styles = useStyles();
  return <Input className={styles.box} type="search" aria-label={label} placeholder={label} value={value} onChange={(_, d) => onChange(d.value)} />;
}
