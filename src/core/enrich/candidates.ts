// A company name that fits several companies: the row's status lists the companies that fit (a
// search by name, which costs no credit), so the user can type the right one's website in the row
// and retry it.
import type { SelectionEnrichmentPlan, SelectionRunResult } from "./selectionRun.js";

export interface Candidate {
  id: string | number;
  name: string;
  country?: string;
  website?: string;
}

/** The companies whose name fits `name`, at most a few. */
export type CandidateSearch = (name: string) => Promise<Candidate[]>;

/** At most this many rows are looked up (one search each distinct name), and this many companies said per row. */
export const CANDIDATE_ROWS = 20;
export const CANDIDATES_PER_ROW = 3;

const describe = (c: Candidate) => `${c.name} (id ${c.id}${c.country ? `, ${c.country}` : ""}${c.website ? `, ${c.website}` : ""})`;

/** The rows' statuses with the candidates of each ambiguous company name (the result is changed in place and returned). */
export async function withCandidates(planned: SelectionEnrichmentPlan, result: SelectionRunResult, search: CandidateSearch): Promise<SelectionRunResult> {
  if (planned.kind !== "company" || planned.mode.by !== "match" || planned.mode.content !== "name") return result;
  const ambiguous = result.unmatched.filter((u) => u.reason.startsWith("Ambiguous")).slice(0, CANDIDATE_ROWS);
  const found = new Map<string, Promise<Candidate[]>>();
  for (const row of ambiguous) {
    const key = row.value.trim().toLowerCase();
    if (!found.has(key))
      found.set(
        key,
        search(row.value.trim()).catch(() => []),
      );
  }
  for (const row of ambiguous) {
    const candidates = (await found.get(row.value.trim().toLowerCase())!).slice(0, CANDIDATES_PER_ROW);
    if (candidates.length === 0) continue;
    row.reason = `${row.reason.replace(/\.$/, "")}. Companies that fit: ${candidates.map(describe).join("; ")}. Type the right one's website in the row and retry.`;
    const cells = result.output.rows[row.index];
    if (cells) cells[1] = row.reason;
  }
  return result;
}
