// The signal cells of the signals bench: the same questions asked as cells do, through the one
// enrichment pipeline (core/enrich: gathered across cells, deduplicated, cached; a request of the
// intent kind is the plan chooser, one of the scoops kind a batch of 25), then recalculated.
import type { ServiceClient } from "../../src/core/api/index.js";
import { createEnrichmentEngine, MemoryCacheStore } from "../../src/core/enrich/index.js";
import { SCOOP_BATCH } from "../../src/core/signals/index.js";
import type { RunningSandbox } from "../../src/sandbox/server.js";
import { metered, resetAccount } from "./sandbox.js";

/** One line of the signals bench. */
export interface BenchRow {
  case: string;
  approach: string;
  requests: number;
  /** Bulk-data credits the account spent (it starts each measurement with nothing under management). */
  credits: number;
  floor: number;
  wallMs: number;
  note?: string;
}

/** The signal operations' routes. */
const SIGNAL_ROUTES = /\/(intent|scoops|news)\/|technologies/;

/**
 * Runs `work` with the request counters reset: the signal requests the sandbox received, the
 * credits `account` spent, the wall time. `fresh` resets the account first (nothing under
 * management), so each case's credits are its own; a recalculation keeps what was bought.
 */
export async function timed(
  sandbox: RunningSandbox,
  account: string,
  work: () => Promise<unknown>,
  fresh = true,
): Promise<{ requests: number; credits: number; wallMs: number }> {
  if (fresh) await resetAccount(sandbox, account);
  const { requests, credits, wallMs } = await metered(sandbox, account, SIGNAL_ROUTES, work);
  return { requests, credits, wallMs };
}

export async function signalCells(
  sandbox: RunningSandbox,
  account: string,
  client: ServiceClient,
  ids: number[],
  topics: string[],
  pages: number,
): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const list of [ids, ids.slice(0, 20)]) {
    const engine = createEnrichmentEngine({ client, cache: new MemoryCacheStore() });
    const label = `intent score, ${topics.length} topics, ${list.length.toLocaleString("en-US")} companies`;
    const cells = () => Promise.all(list.flatMap((id) => topics.map((topic) => engine.getCells("intent", id, topic))));
    const first = await timed(sandbox, account, cells);
    rows.push({
      case: label,
      approach: `${(list.length * topics.length).toLocaleString("en-US")} cells, the pipeline`,
      ...first,
      floor: Math.min(list.length, pages),
    });
    const again = await timed(sandbox, account, cells, false);
    rows.push({ case: label, approach: "the same cells recalculated", ...again, floor: 0 });
  }
  const engine = createEnrichmentEngine({ client, cache: new MemoryCacheStore() });
  const scoops = () => Promise.all(ids.map((id) => engine.getCells("scoops", id, "scoops")));
  const first = await timed(sandbox, account, scoops);
  rows.push({ case: "latest scoop, 1,000 companies", approach: "1,000 cells, the pipeline", ...first, floor: Math.ceil(ids.length / SCOOP_BATCH) });
  const again = await timed(sandbox, account, scoops, false);
  rows.push({ case: "latest scoop, 1,000 companies", approach: "the same cells recalculated", ...again, floor: 0 });
  return rows;
}
