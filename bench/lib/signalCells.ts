// The signal cells through the enrichment pipeline (filled in when the pipeline lands).
import type { ServiceClient } from "../../src/core/api/index.js";
import type { RunningSandbox } from "../../src/sandbox/server.js";
import type { BenchRow } from "../signals.js";

export async function signalCells(_sandbox: RunningSandbox, _client: ServiceClient, _ids: number[], _topics: string[], _pages: number): Promise<BenchRow[]> {
  return [];
}
