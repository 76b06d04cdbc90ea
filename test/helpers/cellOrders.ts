// The orders in which a spreadsheet calculates a block of enrichment cells (ids down, fields
// across), for the cells bench and the chaos test. `pause` is what separates one part of the
// calculation from the next: a timer in the bench, an awaited event in tests.
import { Random } from "../../src/sandbox/data/random.js";

export type CalcOrder = "all at once" | "row by row" | "column by column" | "random waves";
export const CALC_ORDERS: readonly CalcOrder[] = ["all at once", "row by row", "column by column", "random waves"];

/** The sandbox's seeded generator as a function, so an order is the same run after run. */
export function seededRandom(seed: number): () => number {
  const random = new Random(seed);
  return () => random.next();
}

export interface Cell {
  id: number;
  field: string;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Calls `evaluate` for every cell of ids x fields in `order` and resolves when every cell has
 * settled, with how many gave a value. Row by row pauses every `rowsPerPause` rows; column by
 * column after each column; random waves (seeded sizes of 2-10% of the cells) after each wave.
 */
export async function calculate(
  order: CalcOrder,
  ids: readonly number[],
  fields: readonly string[],
  evaluate: (cell: Cell) => Promise<boolean>,
  /** Separates parts; gets the promise of every cell called so far settling (never wait past it). */
  pause: (calledSoFar: Promise<unknown>) => Promise<void>,
  options: { seed?: number; rowsPerPause?: number } = {},
): Promise<{ settled: number; ok: number }> {
  let settled = 0;
  let ok = 0;
  const running: Promise<void>[] = [];
  const call = (cell: Cell) =>
    running.push(
      evaluate(cell).then(
        (good) => {
          settled += 1;
          if (good) ok += 1;
        },
        () => {
          settled += 1;
        },
      ),
    );
  if (order === "all at once") {
    for (const id of ids) for (const field of fields) call({ id, field });
  } else if (order === "row by row") {
    const every = options.rowsPerPause ?? 100;
    for (const [row, id] of ids.entries()) {
      for (const field of fields) call({ id, field });
      await nextTurn();
      if ((row + 1) % every === 0 && row + 1 < ids.length) await pause(Promise.all(running));
    }
  } else if (order === "column by column") {
    for (const [column, field] of fields.entries()) {
      for (const id of ids) call({ id, field });
      if (column + 1 < fields.length) await pause(Promise.all(running));
    }
  } else {
    const random = seededRandom(options.seed ?? 7);
    const cells = ids.flatMap((id) => fields.map((field) => ({ id, field })));
    for (let i = cells.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [cells[i], cells[j]] = [cells[j]!, cells[i]!];
    }
    let at = 0;
    while (at < cells.length) {
      const size = Math.max(1, Math.round(cells.length * (0.02 + random() * 0.08)));
      for (const cell of cells.slice(at, at + size)) call(cell);
      at += size;
      if (at < cells.length) await pause(Promise.all(running));
    }
  }
  await Promise.all(running);
  return { settled, ok };
}
