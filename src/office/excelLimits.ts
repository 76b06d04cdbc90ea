// Blocks under Excel's limits, shared by every adapter that reads or writes cells. Excel on the
// web refuses a request or a response over 5 MB (RichApi.Error RequestPayloadSizeLimitExceeded /
// ResponsePayloadSizeLimitExceeded) and every platform refuses a get over 5 million cells. Writes
// are cut by measuring the JSON of what they send, row by row. Reads of a size not known before
// are read in blocks sized by the bytes a row measured so far (the largest of the mean of every
// row seen, the mean of the rows sampled and the mean of the last block), and a block Excel refuses
// (rows far larger than the ones before) is read again in halves.

/** Each request and each response: 5 MB, read as 5,000,000 bytes (the stricter reading). */
export const PAYLOAD_LIMIT_BYTES = 5_000_000;
/** Cells one range get may read. */
export const CELL_LIMIT = 5_000_000;
/** Bytes one call aims at: the limit less 2% for the request's own wrapping (addresses, ids). */
export const PAYLOAD_BUDGET_BYTES = Math.floor(PAYLOAD_LIMIT_BYTES * 0.98);
/** Bytes a cell is taken to hold before any has been read (a block Excel refuses is halved). */
const FIRST_GUESS_BYTES_PER_CELL = 256;

/** UTF-8 bytes of a string, without encoding it. */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x800) bytes += code >= 0xd800 && code <= 0xdfff ? 1 : 2;
    else if (code >= 0x80) bytes += 1;
  }
  return bytes;
}

/** Bytes of a value as JSON on the wire. */
export function jsonBytes(value: unknown): number {
  return utf8Length(JSON.stringify(value) ?? "");
}

/** Rows a block may hold at `width` cells a row under the cell limit. */
export function rowsUnderCellLimit(width: number): number {
  return Math.max(1, Math.floor(CELL_LIMIT / Math.max(1, width)));
}

/**
 * How many rows from `from` go in one call: as many as fit the byte budget (at least one) and the
 * cell limit, and at most `maxRows`. `bytesOf(i)` is the bytes row i adds to the request.
 */
export function rowsThatFit(
  count: number,
  from: number,
  bytesOf: (index: number) => number,
  width: number,
  maxRows = Infinity,
  budget = PAYLOAD_BUDGET_BYTES,
): number {
  const cap = Math.min(count - from, rowsUnderCellLimit(width), maxRows);
  let bytes = 0;
  let n = 0;
  while (n < cap) {
    const next = bytesOf(from + n);
    if (n > 0 && bytes + next > budget) break;
    bytes += next;
    n++;
  }
  return n;
}

/** [start, end) of each block, cut by rowsThatFit. */
export function blocksUnderLimits(count: number, bytesOf: (index: number) => number, width: number, maxRows = Infinity): Array<[number, number]> {
  const blocks: Array<[number, number]> = [];
  for (let start = 0; start < count;) {
    const n = rowsThatFit(count, start, bytesOf, width, maxRows);
    blocks.push([start, start + n]);
    start += n;
  }
  return blocks;
}

/** True for Excel refusing a call for its size (the block is then read in halves). */
export function isSizeRefusal(error: unknown): boolean {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === "ResponsePayloadSizeLimitExceeded" || code === "RequestPayloadSizeLimitExceeded";
}

export interface BlockRead {
  /** Rows to read, and cells a row. */
  rows: number;
  width: number;
  /** The range of rows [start, start + count) of the area. */
  range(start: number, count: number): Excel.Range;
  /** One round trip (context.sync(), counted where the adapter counts them). */
  sync(): Promise<unknown>;
  /** Rows read already (e.g. with the header, in its round trip): their sizes seed the first block. */
  first?: unknown[][];
  /** Rows sampled elsewhere in the area (e.g. its last rows), for their sizes only. */
  samples?: unknown[][];
  property?: "values" | "formulas" | "numberFormat";
}

/** Bytes of rows measured so far: all of them, the samples', and the last block's. */
class RowSizes {
  private bytes = 0;
  private rows = 0;
  private recent = 0;
  private sampled = 0;
  /** Measures rows sampled for their sizes only. */
  sample(rows: readonly unknown[][]): void {
    this.add(rows);
    this.sampled = this.recent;
  }
  /** Measures rows (appending them to `out` when given); answers nothing. */
  add(rows: readonly unknown[][], out?: unknown[][]): void {
    let bytes = 0;
    for (const row of rows) {
      bytes += jsonBytes(row) + 1;
      out?.push(row);
    }
    this.bytes += bytes;
    this.rows += rows.length;
    if (rows.length > 0) this.recent = bytes / rows.length;
  }
  /** Rows the next block may hold under the budget. */
  blockRows(width: number): number {
    const perRow = this.rows > 0 ? Math.max(this.bytes / this.rows, this.recent, this.sampled) : FIRST_GUESS_BYTES_PER_CELL * width;
    return Math.floor(PAYLOAD_BUDGET_BYTES / perRow);
  }
}

/** Reads every row of an area in calls under Excel's limits (see the file's header). */
export async function readRowsInBlocks(read: BlockRead): Promise<unknown[][]> {
  const property = read.property ?? "values";
  const out: unknown[][] = [];
  const sizes = new RowSizes();
  sizes.sample(read.samples ?? []);
  sizes.add((read.first ?? []).slice(0, read.rows), out);
  let size = sizes.blockRows(read.width);
  while (out.length < read.rows) {
    const n = Math.max(1, Math.min(size, read.rows - out.length, rowsUnderCellLimit(read.width)));
    const range = read.range(out.length, n);
    range.load(property);
    try {
      await read.sync();
    } catch (error) {
      if (!isSizeRefusal(error) || n === 1) throw error;
      size = Math.ceil(n / 2);
      continue;
    }
    sizes.add(range[property] as unknown[][], out);
    size = sizes.blockRows(read.width);
  }
  return out;
}
