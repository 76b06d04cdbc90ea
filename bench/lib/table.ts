// Bench figures as an aligned text table: names to the left, figures to the right.

/** Prints the header and the rows, each column as wide as its widest cell; the first `textColumns` columns align left. */
export function printTable(header: readonly string[], rows: readonly (readonly string[])[], textColumns = 1): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i < textColumns ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}
