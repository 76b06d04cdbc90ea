// The rows a match did not find, by the sheet's row numbers, each with why and a box to correct
// its input right here (in Excel and in browser mode alike); Retry asks the corrected rows (or,
// with none corrected, asks the unmatched ones again) and the pane says what changed.
import { useState } from "react";
import { Button, Input, Text, makeStyles } from "@fluentui/react-components";
import type { UnmatchedRow } from "../../core/enrich/index.js";

const SHOWN = 100;

const useStyles = makeStyles({
  list: { margin: "8px 0", padding: 0, listStyleType: "none", maxHeight: "260px", overflowY: "auto", overflowWrap: "anywhere" },
  item: { marginBottom: "8px", display: "grid", gap: "2px", minWidth: 0 },
  input: { width: "100%", minWidth: 0 },
});

export function UnmatchedRows({ rows, busy, onRetry }: { rows: UnmatchedRow[]; busy: boolean; onRetry(corrections: Map<number, string>): void }) {
  const styles = useStyles();
  const [edits, setEdits] = useState<Map<number, string>>(new Map());
  const corrected = new Map([...edits].filter(([index, value]) => value.trim() !== "" && value !== rows.find((r) => r.index === index)?.value));
  return (
    <div role="region" aria-label="Rows not matched">
      <ul className={styles.list}>
        {rows.slice(0, SHOWN).map((row) => (
          <li key={row.index} className={styles.item}>
            <Text>
              Row {row.row} ({row.value}): {row.reason}
            </Text>
            <Input
              className={styles.input}
              aria-label={`Correct row ${row.row}`}
              value={edits.get(row.index) ?? row.value}
              disabled={busy}
              onChange={(_e, data) => setEdits((current) => new Map(current).set(row.index, data.value))}
            />
          </li>
        ))}
      </ul>
      {rows.length > SHOWN && <Text as="p">and {(rows.length - SHOWN).toLocaleString("en-US")} more (see "Match status").</Text>}
      <Text as="p">Correct a row above (a fuller website, the exact name), or edit the sheet, then retry.</Text>
      <Button disabled={busy} onClick={() => onRetry(corrected)}>
        {corrected.size > 0 ? `Retry ${corrected.size} corrected row${corrected.size === 1 ? "" : "s"}` : "Retry unmatched rows"}
      </Button>
    </div>
  );
}
