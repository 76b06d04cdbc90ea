// The stored shape of the daily new-record count, as a TypeBox schema: the count kept in the
// user's storage is checked with the contract's validator when it is read back.
import { Type, type Static } from "@sinclair/typebox";
import { compiledCheck } from "../contract/index.js";

export const SpendStateSchema = Type.Object({
  /** UTC day the count belongs to, YYYY-MM-DD. */
  day: Type.String(),
  /** New records requested on that day. */
  used: Type.Number({ minimum: 0 }),
  /** New records allowed per day. */
  cap: Type.Number({ minimum: 0 }),
});

/** Today's count, as stored. */
export type SpendState = Static<typeof SpendStateSchema>;

const isSpendState = (value: unknown): value is SpendState => compiledCheck(SpendStateSchema).Check(value);

/** Reads a stored count; anything damaged counts as none (the day starts from zero, default cap). */
export function parseSpendState(text: string | null | undefined): SpendState | undefined {
  if (typeof text !== "string") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return isSpendState(value) ? { day: value.day, used: value.used, cap: value.cap } : undefined;
}
