// A1 addresses as Excel writes them ("Sheet1!$B$2:C9", "'Q3 ''leads'''!A1"): column letters,
// the sheet name (quoted when it holds anything but letters, digits and _), and the cells.
// The one reader and writer of addresses for the pane, the adapters and core.

/** A rectangle of a worksheet, zero-based. */
export interface SheetArea {
  sheet: string;
  row: number;
  col: number;
  rows: number;
  cols: number;
}

/** Spreadsheet column letters of a zero-based column index: 0 -> A, 26 -> AA. */
export function columnLetter(index: number): string {
  let n = index + 1;
  let out = "";
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

/** Zero-based column index of spreadsheet column letters: A -> 0, AA -> 26. */
export function columnIndex(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

const CELLS = /^\$?([A-Z]+)\$?(\d+)(?::\$?([A-Z]+)\$?(\d+))?$/i;

/** The sheet name of an address, unquoted ("'Bob''s'!A1" -> "Bob's"), or undefined without one. */
export function sheetNameOf(address: string): string | undefined {
  const bang = address.lastIndexOf("!");
  if (bang < 0) return undefined;
  const sheet = address.slice(0, bang);
  return sheet.startsWith("'") && sheet.endsWith("'") ? sheet.slice(1, -1).replace(/''/g, "'") : sheet;
}

/** "Sheet1!B2:C9" or "'My sheet'!$B$2" -> the area, or undefined when it is not one. */
export function readAddress(address: string): SheetArea | undefined {
  const sheet = sheetNameOf(address);
  const m = sheet === undefined ? null : CELLS.exec(address.slice(address.lastIndexOf("!") + 1));
  if (sheet === undefined || !m) return undefined;
  const col = columnIndex(m[1] as string);
  const row = Number(m[2]) - 1;
  const lastCol = m[3] ? columnIndex(m[3]) : col;
  const lastRow = m[4] ? Number(m[4]) - 1 : row;
  return { sheet, row, col, rows: lastRow - row + 1, cols: lastCol - col + 1 };
}

/** As readAddress, throwing when the text is not a worksheet address or not a cell range. */
export function parseAddress(address: string): SheetArea {
  if (!address.includes("!")) throw new Error(`Not a worksheet address: ${address}`);
  const area = readAddress(address);
  if (!area) throw new Error(`Not a cell range: ${address}`);
  return area;
}

/** The sheet name as an address writes it: quoted unless it is only letters, digits and _. */
export function quoteSheetName(sheet: string): string {
  return /^[A-Za-z0-9_]+$/.test(sheet) ? sheet : `'${sheet.replace(/'/g, "''")}'`;
}

/** The area's address ("'My sheet'!B2:C9"); one cell as "B2" when `oneCell` says so. */
export function formatAddress(area: SheetArea, oneCell: "cell" | "range" = "range"): string {
  const start = `${columnLetter(area.col)}${area.row + 1}`;
  const end = `${columnLetter(area.col + area.cols - 1)}${area.row + area.rows}`;
  const single = oneCell === "cell" && area.rows === 1 && area.cols === 1;
  return `${quoteSheetName(area.sheet)}!${single ? start : `${start}:${end}`}`;
}

/** The sheet's row number of the first cell of an address ("Sheet1!B5:B9" -> 5; 1 when none). */
export function firstRowOf(address: string): number {
  const match = /!\$?[A-Z]+\$?(\d+)/i.exec(address);
  return match ? Number(match[1]) : 1;
}

/** The zero-based column of an address's first cell ("Sheet1!C5:D9", "Sheet1!C:C" -> 2; -1 when none). */
export function firstColumnOf(address: string): number {
  const match = /!\$?([A-Z]+)/i.exec(address);
  return match ? columnIndex(match[1] as string) : -1;
}

/** "Sheet1!A1:A20" moved `columns` to the right ("Sheet1!C1:C20"), so output lands beyond the picked neighbours. */
export function shiftColumns(address: string, columns: number): string {
  if (columns <= 0) return address;
  const bang = address.lastIndexOf("!");
  const cells = address
    .slice(bang + 1)
    .replace(/\$?([A-Z]+)(\$?\d+)/gi, (_m, letters: string, row: string) => `${columnLetter(columnIndex(letters) + columns)}${row.replace("$", "")}`);
  return `${address.slice(0, bang + 1)}${cells}`;
}
