// Keeps the companies' column index (columns.ts) in a file beside the database, so a start reads
// it in one go instead of rebuilding it (seconds on 1,000,000 companies). The file names the
// data it was built from (the database's seed signature and the format version): a database
// seeded anew, or a file from an older format, is rebuilt; a data directory seeded before the
// file existed gets one on its next start, without re-seeding.
// Layout: "BDCOLS1\n", header length (uint32 LE), header JSON, then 8-byte-aligned sections
// holding the typed arrays the header refers to.
import type Database from "better-sqlite3";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { buildColumns, indexColumns, type ColumnIndex } from "./columns.js";

/** Part of the file's identity: a change in what is stored or how rebuilds it. */
export const COLUMNS_VERSION = "columns2";
const MAGIC = "BDCOLS1\n";

type Typed = Int32Array | Float64Array | Uint16Array | Uint8Array;
const TYPES = { Int32Array, Float64Array, Uint16Array, Uint8Array } as const;
type TypeName = keyof typeof TYPES;
interface Section {
  $typed: TypeName;
  offset: number;
  length: number;
}

/** The file kept beside a database file. */
export function columnsFileOf(databaseFile: string): string {
  return `${databaseFile}.columns`;
}

/** What the file must name to be used for this database's data. */
export function signatureOf(db: Database.Database): string {
  const seed = db.prepare("SELECT value FROM meta WHERE key = 'signature'").pluck().get() as string | undefined;
  const companies = (db.prepare("SELECT COUNT(*) AS n FROM companies").get() as { n: number }).n;
  return `${COLUMNS_VERSION}:${seed ?? "unsigned"}:${companies}`;
}

export function writeColumnIndex(file: string, index: ColumnIndex, signature: string): void {
  const arrays: Typed[] = [];
  let end = 0;
  const plain = { ...index, c: { ...index.c, industryTags: [...index.c.industryTags], foldedNames: new Uint8Array(Buffer.from(index.c.foldedNames, "utf8")) } };
  const header = JSON.stringify({ signature, index: plain }, (_key, value: unknown) => {
    if (!ArrayBuffer.isView(value)) return value;
    const typed = value as Typed;
    const section: Section = { $typed: typed.constructor.name as TypeName, offset: end, length: typed.length };
    arrays.push(typed);
    end += Math.ceil(typed.byteLength / 8) * 8;
    return section;
  });
  const head = Buffer.from(header, "utf8");
  const start = Math.ceil((MAGIC.length + 4 + head.length) / 8) * 8;
  const out = Buffer.alloc(start + end);
  out.write(MAGIC, 0, "latin1");
  out.writeUInt32LE(head.length, MAGIC.length);
  head.copy(out, MAGIC.length + 4);
  let at = start;
  for (const a of arrays) {
    Buffer.from(a.buffer, a.byteOffset, a.byteLength).copy(out, at);
    at += Math.ceil(a.byteLength / 8) * 8;
  }
  // Written aside and renamed, so an interrupted write (or another process writing at the same
  // time) never leaves a half file in place.
  const aside = `${file}.${process.pid}.tmp`;
  writeFileSync(aside, out);
  renameSync(aside, file);
}

/** The index stored in `file`, or undefined when it is missing, foreign or for other data. */
export function readColumnIndex(file: string, signature: string): ColumnIndex | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return parseColumnIndex(file, signature);
  } catch {
    // Damaged or cut short: built again.
    return undefined;
  }
}

function parseColumnIndex(file: string, signature: string): ColumnIndex | undefined {
  let buf = readFileSync(file);
  if (buf.length < MAGIC.length + 4 || buf.toString("latin1", 0, MAGIC.length) !== MAGIC) return undefined;
  // Typed arrays are views on the file's bytes, which need 8-byte alignment.
  if (buf.byteOffset % 8 !== 0) buf = Buffer.from(new Uint8Array(buf));
  const length = buf.readUInt32LE(MAGIC.length);
  const start = Math.ceil((MAGIC.length + 4 + length) / 8) * 8;
  const parsed = JSON.parse(buf.toString("utf8", MAGIC.length + 4, MAGIC.length + 4 + length), (_key, value: unknown) => {
    const s = value as Partial<Section> | null;
    if (s === null || typeof s !== "object" || typeof s.$typed !== "string" || !(s.$typed in TYPES)) return value;
    return new TYPES[s.$typed](buf.buffer, buf.byteOffset + start + s.offset!, s.length);
  }) as { signature: string; index: ColumnIndex & { c: { industryTags: [string, Int32Array][]; foldedNames: Uint8Array } } };
  if (parsed.signature !== signature) return undefined;
  const stored = parsed.index;
  const names = stored.c.foldedNames;
  return {
    ...stored,
    c: {
      ...stored.c,
      industryTags: new Map(stored.c.industryTags),
      foldedNames: Buffer.from(names.buffer, names.byteOffset, names.byteLength).toString("utf8"),
    },
  };
}

/**
 * The column index of a database: read from the file beside a database file when it matches
 * the data, otherwise built (and, for a database file, written for the next start).
 */
export function openColumnIndex(db: Database.Database): ColumnIndex {
  const signature = signatureOf(db);
  const file = db.memory ? undefined : columnsFileOf(db.name);
  const stored = file ? readColumnIndex(file, signature) : undefined;
  if (stored) return stored;
  const built = indexColumns(buildColumns(db));
  try {
    if (file) writeColumnIndex(file, built, signature);
  } catch (error) {
    // Searches work from the index in memory; only the next start pays for building it again.
    console.warn(`Could not keep the search columns in ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return built;
}
