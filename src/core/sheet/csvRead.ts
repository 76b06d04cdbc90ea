// Reading a CSV file (RFC 4180) into a header row and data rows, as a spreadsheet opens it: the
// separator is the one the header line uses ("," ";" or tab), quoted fields may hold separators,
// quotes ("") and line ends, a byte-order mark is dropped, and a field that is a plain decimal
// number becomes a number (one with a leading zero, such as a postal code, stays text). Nothing
// is evaluated: a field starting with "=" is text.
import type { CellValue } from "./cells.js";
import { CSV_SEPARATORS, UTF8_BOM, type CsvSeparator } from "./csv.js";

export interface CsvTable {
  headers: string[];
  rows: CellValue[][];
}

const PLAIN_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;

/** The separator the first line uses most (outside quotes); "," when it has none. */
function separatorOf(text: string): CsvSeparator {
  const counts = new Map<CsvSeparator, number>(CSV_SEPARATORS.map((s) => [s, 0]));
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === "\n" || ch === "\r")) break;
    else if (!quoted && counts.has(ch as CsvSeparator)) counts.set(ch as CsvSeparator, (counts.get(ch as CsvSeparator) ?? 0) + 1);
  }
  return [...counts].reduce((best, entry) => (entry[1] > best[1] ? entry : best), [",", 0] as [CsvSeparator, number])[0];
}

/** The fields of each record, as text. */
function records(text: string, separator: CsvSeparator): string[][] {
  const out: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  const endField = () => {
    record.push(field);
    field = "";
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted && ch === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (quoted) {
      if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"' && field === "") quoted = true;
    else if (ch === separator) endField();
    else if (ch === "\r" || ch === "\n") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      endField();
      out.push(record);
      record = [];
    } else field += ch;
  }
  if (field !== "" || record.length > 0) out.push([...record, field]);
  return out.filter((r) => r.some((f) => f !== ""));
}

/** The CSV text as a table: its first record the headers, the others rows as wide as the widest. */
export function parseCsv(text: string): CsvTable {
  const body = text.startsWith(UTF8_BOM) ? text.slice(UTF8_BOM.length) : text;
  const [head = [], ...rest] = records(body, separatorOf(body));
  const width = Math.max(head.length, ...rest.map((r) => r.length));
  const headers = Array.from({ length: width }, (_, i) => head[i]?.trim() || `Column ${i + 1}`);
  const rows = rest.map((r) => headers.map((_, i): CellValue => (PLAIN_NUMBER.test(r[i] ?? "") ? Number(r[i]) : (r[i] ?? ""))));
  return { headers, rows };
}
