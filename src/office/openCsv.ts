// Browser mode's way to bring a list of one's own: a CSV file opened as a sheet of its own (a
// table named after the file), its first column picked, ready to send to an audience.
import { parseCsv, type ColumnSpec } from "../core/sheet/index.js";
import type { BrowserWorkbook } from "./browserWorkbook.js";

/** Opens `text` (a CSV file's content) as a new sheet; answers the table's name and rows. */
export async function openCsvAsTable(workbook: BrowserWorkbook, fileName: string, text: string): Promise<{ tableName: string; rows: number }> {
  const { headers, rows } = parseCsv(text);
  if (headers.length === 0) throw new Error(`${fileName} holds no header row: nothing was opened.`);
  const base = fileName.replace(/\.[^.]*$/, "").trim() || "List";
  const columns = headers.map((header, i): ColumnSpec => {
    const sample = rows.find((r) => r[i] !== "")?.[i];
    return { key: `column${i + 1}`, header, type: typeof sample === "number" ? "number" : "text", path: "", byDefault: true };
  });
  const writer = await workbook.createTable({ target: { kind: "newSheet", sheetName: base }, tableName: base, columns, expectedRows: rows.length });
  await writer.append(rows);
  const result = await writer.finish();
  workbook.selectColumn(result.tableName, 0);
  return { tableName: result.tableName, rows: rows.length };
}
