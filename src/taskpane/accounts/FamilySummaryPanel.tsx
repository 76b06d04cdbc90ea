// Account families in the Accounts tab (docs/accounts.md): first Enrich selection's "Corporate
// family of the companies" writes each row's ultimate parent beside it (estimated first, written
// by link, never over a filled cell, unmatched rows said on their rows); then here the table is
// read around its "Ultimate parent id" column, the user ticks the number columns to sum, and a
// summary per family goes on a new sheet.
import { useState } from "react";
import { Button, makeStyles } from "@fluentui/react-components";
import { ColumnCheckboxes, toggledKeys } from "../ColumnCheckboxes.js";
import { useConfirm } from "../ConfirmDialog.js";
import { errorText } from "../errorText.js";
import { Notice } from "../Notice.js";
import { useServices } from "../services.js";
import { insertAndSay, useSelectionSource } from "../research/researchParts.js";
import type { Message } from "../research/useBriefings.js";
import { familyColumns, familySummaryRows, numericColumns, readTableAround, type TableColumn } from "./familyTable.js";

const useStyles = makeStyles({
  row: { display: "flex", gap: "8px", marginTop: "8px", alignItems: "end", flexWrap: "wrap" },
  section: { minWidth: 0, overflowWrap: "anywhere" },
});

interface ReadTable {
  columns: TableColumn[];
  family: { id: number; name: number | undefined };
  numeric: number[];
}

const NO_FAMILY_COLUMN =
  'This table has no "Ultimate parent id" column: first select its company id, website or name cells and use Enrich with "Corporate family of the companies".';

export function FamilySummaryPanel() {
  const styles = useStyles();
  const services = useServices();
  const source = useSelectionSource();
  const confirm = useConfirm();
  const [table, setTable] = useState<ReadTable | undefined>();
  const [picked, setPicked] = useState<string[]>([]);
  const [message, setMessage] = useState<Message | undefined>();

  const read = async () => {
    setMessage(undefined);
    try {
      if (!source) return setMessage({ intent: "warning", text: "Reading a table needs a workbook." });
      const found = await readTableAround(source);
      if (!found.ok) return setMessage({ intent: "warning", text: found.message });
      const family = familyColumns(found.columns);
      if (!family) return setMessage({ intent: "warning", text: NO_FAMILY_COLUMN });
      setTable({ columns: found.columns, family, numeric: numericColumns(found.columns, [family.id, ...(family.name === undefined ? [] : [family.name])]) });
      setPicked([]);
    } catch (error) {
      setMessage({ intent: "error", text: errorText(error) });
    }
  };

  const insert = async () => {
    if (!table) return;
    const summary = familySummaryRows(table.columns, table.family, picked.map(Number));
    const request = { workbook: services.workbook, sheetName: "Families", tableName: "Account_families", ask: confirm.ask };
    await insertAndSay({ ...request, ...summary }, "families", setMessage);
  };

  return (
    <section aria-label="Account families" className={styles.section}>
      <p>
        1. Select your list&apos;s company id, website or name cells and use Enrich with &quot;Corporate family of the companies&quot;: each row gets its
        ultimate parent and relationship beside it, after an estimate.
      </p>
      <p>2. Select a cell of the new &quot;Ultimate parent id&quot; column, then read the table to sum it by family.</p>
      <div className={styles.row}>
        <Button onClick={() => void read()}>Read table</Button>
      </div>
      {table && (
        <>
          <ColumnCheckboxes
            legend={table.numeric.length > 0 ? "Columns to sum" : "No number columns to sum"}
            options={table.numeric.map((i) => ({ key: String(i), label: table.columns[i]?.header ?? "" }))}
            chosen={picked}
            onToggle={(key, checked) => setPicked(toggledKeys(picked, key, checked))}
            scroll
            arrowKeys
          />
          <div className={styles.row}>
            <Button appearance="primary" onClick={() => void insert()}>
              Insert family summary
            </Button>
          </div>
        </>
      )}
      {message && (
        <Notice intent={message.intent} role={message.intent === "error" ? "alert" : "status"} testId="family-message">
          {message.text}
        </Notice>
      )}
      {confirm.dialog}
    </section>
  );
}
