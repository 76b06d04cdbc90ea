// Excel calls and bytes beside their floor, for the benches of a large insert and a large
// audience: the floor is the fewest calls the bytes allow (total bytes ÷ 5 MB, rounded up).
import { FakeExcel, PAYLOAD_LIMIT_BYTES } from "../../test/office/excelFake.js";

export interface CallFigures {
  step: string;
  calls: number;
  bytes: number;
  floor: number;
}

/** Runs `work` and answers the calls it made and their bytes (requests and responses). */
export async function measured(excel: FakeExcel, step: string, work: () => Promise<unknown>): Promise<CallFigures> {
  const before = excel.calls.length;
  await work();
  const calls = excel.calls.slice(before);
  const bytes = calls.reduce((sum, call) => sum + call.requestBytes + call.responseBytes, 0);
  return { step, calls: calls.length, bytes, floor: Math.max(1, Math.ceil(bytes / PAYLOAD_LIMIT_BYTES)) };
}

/** The figures as table rows: calls, bytes, floor, and calls ÷ floor against the 1.25 target. */
export function callRows(figures: readonly CallFigures[]): string[][] {
  // The steps happen one after another (a user's action apart): no call can carry two steps'
  // bytes, so the floor of them all is the sum of their floors.
  const all: CallFigures = {
    step: "all steps (floor: the sum of theirs)",
    calls: figures.reduce((n, f) => n + f.calls, 0),
    bytes: figures.reduce((n, f) => n + f.bytes, 0),
    floor: figures.reduce((n, f) => n + f.floor, 0),
  };
  return [...figures, all].map((f) => [
    f.step,
    String(f.calls),
    `${(f.bytes / 1e6).toFixed(1)} MB`,
    String(f.floor),
    (f.calls / f.floor).toFixed(2),
    f.calls / f.floor <= 1.25 ? "met" : "not met",
  ]);
}

export const CALL_HEADER = ["step", "Excel calls", "bytes", "floor (bytes / 5 MB)", "x floor", "<= 1.25"];
