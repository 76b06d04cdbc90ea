// What an audience enrichment would cost, before it starts, from the service's own data: the
// audience's rows (which records the scope holds) and, for companies, a free company search on
// those ids that says which exist and which are already under management. A job cannot be
// stopped once started (the service has no operation for it), so this is the one chance to say.
import { LIMITS, type Audience, type AudienceRow } from "../../core/contract/index.js";
import type { ServiceClient } from "../../core/api/types.js";
import { readAllRows, type EnrichmentChoice } from "../../core/jobs/index.js";

export type EstimateClient = Pick<ServiceClient, "getAudienceRows" | "searchCompanies">;

export interface JobEstimate {
  /** Rows the job would enrich. */
  rowsInScope: number;
  /** Distinct record ids those rows refer to. */
  records: number;
  /** Rows whose reference is no record id: the service may still match them, so each may cost a credit. */
  invalidRows: number;
  /** Records the service does not know (no match, no credit); undefined when it cannot tell beforehand. */
  notFound?: number;
  /** Records already under management (free); undefined when the service cannot tell beforehand. */
  underManagement?: number;
  /** Records not yet under management: each costs one credit. */
  newRecords: number;
  /** The most the job can cost: the new records, and a credit for each row without a record id. */
  maxCredits: number;
}

export interface EstimateOptions {
  signal?: AbortSignal;
  onProgress?: (text: string) => void;
}

/** The record id a row refers to (its input column), or undefined when it holds no id. */
export function rowRecordId(audience: Audience, row: AudienceRow): number | undefined {
  const input = audience.attributes.columns.find((c) => c.attributes.columnType === "INPUT");
  const value = row.attributes.values.find((v) => v.columnId === input?.id)?.value;
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  return /^[1-9]\d{0,14}$/.test(text) ? Number(text) : undefined;
}

/** Ids in groups that one company search takes as its id filter (at most 500 characters, 50 ids). */
export function idChunks(ids: readonly number[]): number[][] {
  const chunks: number[][] = [];
  let current: number[] = [];
  let length = 0;
  for (const id of ids) {
    const add = String(id).length + (current.length > 0 ? 1 : 0);
    if (current.length > 0 && (length + add > LIMITS.maxStringLength || current.length >= LIMITS.maxArrayItems)) {
      chunks.push(current);
      current = [];
      length = 0;
    }
    length += String(id).length + (current.length > 0 ? 1 : 0);
    current.push(id);
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

export async function estimateJob(client: EstimateClient, audience: Audience, choice: EnrichmentChoice, options: EstimateOptions = {}): Promise<JobEstimate> {
  const { signal } = options;
  options.onProgress?.("Reading the audience's rows...");
  const all = await readAllRows(client, audience.id, {
    ...(signal ? { signal } : {}),
    onProgress: (read, total) => options.onProgress?.(`Reading the audience's rows... ${read.toLocaleString("en-US")} of ${total.toLocaleString("en-US")}`),
  });
  const wanted = choice.scope === "ROW" ? new Set(choice.rows ?? []) : undefined;
  const rows = wanted ? all.filter((r) => wanted.has(r.id)) : all;
  const ids: number[] = [];
  let invalidRows = 0;
  for (const row of rows) {
    const id = rowRecordId(audience, row);
    if (id === undefined) invalidRows += 1;
    else ids.push(id);
  }
  const records = [...new Set(ids)];
  const base = { rowsInScope: rows.length, records: records.length, invalidRows };
  // Contact search has no id filter: which contacts are under management is not known beforehand.
  if (audience.attributes.type !== "COMPANY") return { ...base, newRecords: records.length, maxCredits: records.length + invalidRows };
  let found = 0;
  let managed = 0;
  const chunks = idChunks(records);
  for (const [index, chunk] of chunks.entries()) {
    options.onProgress?.(`Checking which records are under management... ${index + 1} of ${chunks.length}`);
    // Every result carries its management status (the underManagement filter would drop the others).
    const page = await client.searchCompanies({ companyId: chunk.join(",") }, { page: 1, size: chunk.length, ...(signal ? { signal } : {}) });
    found += page.items.length;
    managed += page.items.filter((item) => item.attributes.managementStatus?.underManagement === true).length;
  }
  return { ...base, notFound: records.length - found, underManagement: managed, newRecords: found - managed, maxCredits: found - managed + invalidRows };
}
