// Browser mode's stand-in for the worksheet grid: each inserted table, its first rows as text,
// a CSV download (RFC 4180, UTF-8 BOM, formula-leading text neutralised), and a CSV file of
// one's own opened as a sheet (a list to send to an audience).
import { useState, useSyncExternalStore } from "react";
import { Button, Tab, TabList, makeStyles, tokens } from "@fluentui/react-components";
import { AMOUNT_FORMAT, NUMBER_FORMATS, displayText, numberFormatOf, type CellValue, type ColumnSpec } from "../../core/sheet/index.js";
import type { BrowserWorkbook } from "../../office/browserWorkbook.js";
import { openCsvAsTable } from "../../office/openCsv.js";

const SHOWN_ROWS = 100;
const useStyles = makeStyles({
  // Many sheets wrap onto more lines instead of pushing the page sideways (a pane is 320-350 px).
  sheets: { flexWrap: "wrap", minWidth: 0, maxWidth: "100%" },
  sheet: { maxWidth: "100%", overflowWrap: "anywhere", whiteSpace: "normal" },
  wrap: { overflowX: "auto", maxHeight: "420px", overflowY: "auto", border: `1px solid ${tokens.colorNeutralStroke1}` },
  table: { borderCollapse: "collapse", fontSize: tokens.fontSizeBase200, whiteSpace: "nowrap" },
  cell: { border: `1px solid ${tokens.colorNeutralStroke2}`, padding: "2px 6px", textAlign: "left" },
  number: { border: `1px solid ${tokens.colorNeutralStroke2}`, padding: "2px 6px", textAlign: "right" },
  head: { backgroundColor: tokens.colorNeutralBackground3, position: "sticky", top: 0 },
  picked: { backgroundColor: tokens.colorBrandBackground2 },
  pick: {
    border: "none",
    backgroundColor: "transparent",
    padding: 0,
    fontFamily: "inherit",
    fontSize: "inherit",
    color: "inherit",
    textAlign: "left",
    cursor: "pointer",
    fontWeight: tokens.fontWeightSemibold,
    ":focus-visible": { outline: `2px solid ${tokens.colorStrokeFocus2}` },
  },
});

/** A cell as Excel would show it under the column's number format (amounts with separators). */
function shown(value: CellValue, column: ColumnSpec): string {
  if (typeof value !== "number") return displayText(value, column.type);
  if (numberFormatOf(column) === AMOUNT_FORMAT) return value.toLocaleString("en-US");
  if (column.numberFormat === NUMBER_FORMATS.number) return value.toLocaleString("en-US", { maximumFractionDigits: 2 });
  return displayText(value, column.type);
}

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/csv;charset=utf-8" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = `${name}.csv`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Opens a CSV file of one's own as a sheet, and says what came of it. */
function OpenCsv({ workbook, onOpened }: { workbook: BrowserWorkbook; onOpened: (tableName: string) => void }) {
  const [message, setMessage] = useState("");
  const open = async (file: File | undefined) => {
    if (!file) return;
    try {
      const opened = await openCsvAsTable(workbook, file.name, await file.text());
      onOpened(opened.tableName);
      setMessage(`Opened ${file.name}: ${opened.rows.toLocaleString("en-US")} rows in table ${opened.tableName}.`);
    } catch (error) {
      setMessage(error instanceof Error ? error.message : `${file.name} could not be read.`);
    }
  };
  return (
    <p>
      <label>
        Open a CSV file as a sheet{" "}
        <input type="file" accept=".csv,text/csv" onChange={(e) => void open(e.target.files?.[0]).then(() => (e.target.value = ""))} />
      </label>
      {message !== "" && <span role="status"> {message}</span>}
    </p>
  );
}

export function BrowserWorkbookView({ workbook }: { workbook: BrowserWorkbook }) {
  const styles = useStyles();
  useSyncExternalStore(workbook.subscribe, workbook.getVersion);
  const tables = workbook.listTables();
  const opener = <OpenCsv workbook={workbook} onOpened={(name) => workbook.activate(name)} />;
  // The opener stays first in both layouts, so what it said survives the first table's arrival.
  if (tables.length === 0) {
    return (
      <section aria-label="Workbook">
        {opener}
        <p>Inserted tables appear here (browser mode: there is no Excel workbook on this page).</p>
      </section>
    );
  }
  // The active sheet, as in Excel: the one last inserted, unless the user picked another since.
  const table = workbook.activeTable() ?? tables[tables.length - 1]!;
  const selected = workbook.selectedColumn();

  return (
    <section aria-label="Workbook">
      {opener}
      <TabList className={styles.sheets} selectedValue={table.name} onTabSelect={(_, d) => workbook.activate(String(d.value))} aria-label="Sheets" size="small">
        {tables.map((t) => (
          <Tab key={t.name} value={t.name} className={styles.sheet}>
            {t.sheetName}
          </Tab>
        ))}
      </TabList>
      <p data-testid="table-summary" className={styles.sheet}>
        Table {table.name} on sheet {table.sheetName}: {table.rows.length.toLocaleString("en-US")} rows{table.complete ? "" : " so far"}.
        {table.rows.length > SHOWN_ROWS ? ` Showing the first ${SHOWN_ROWS}; download the CSV for all of them.` : ""}
      </p>
      <Button onClick={() => download(table.name, workbook.csv(table.name))} disabled={!table.complete}>
        Download CSV
      </Button>
      <div className={styles.wrap} tabIndex={0} role="region" aria-label={`Table ${table.name}`}>
        <table className={styles.table} data-testid="sheet-table" data-table-name={table.name}>
          <thead>
            <tr>
              {table.headers.map((h, i) => {
                const picked = selected?.table === table && selected.column === i;
                return (
                  <th key={`${i}-${h}`} scope="col" className={`${styles.cell} ${styles.head} ${picked ? styles.picked : ""}`}>
                    {/* Picking a column is browser mode's selection (for enriching its ids). */}
                    <button type="button" className={styles.pick} aria-pressed={picked} onClick={() => workbook.selectColumn(table.name, i)}>
                      {h}
                    </button>
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {table.rows.slice(0, SHOWN_ROWS).map((row, r) => (
              <tr key={r}>
                {table.columns.map((c, i) => {
                  const value = row[i] ?? "";
                  return (
                    <td key={`${i}-${c.key}`} className={typeof value === "number" ? styles.number : styles.cell}>
                      {shown(value, c)}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
