// The signal cells through the enrichment pipeline (filled in when the pipeline lands).
import type { ServiceClient } from "../../src/core/api/index.js";
import type { RunningSandbox } from "../../src/sandbox/server.js";

export async function signalCells(_sandbox: RunningSandbox, _client: ServiceClient, _ids: number[], _topics: string[], _pages: number): Promise<BenchRow[]> {
  return [];
}

/** One line of the signals bench. */
export interface BenchRow {
  case: string;
  approach: string;
  requests: number;
  floor: number;
  wallMs: number;
  note?: string;
}
