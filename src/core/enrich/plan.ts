// What enriching a list would do, shown before the user confirms (engine.planInputs): distinct
// inputs, what the caches answer, what costs no credit, at most how many credits and requests.
import type { Answers } from "./answers.js";
import type { SelectionPlan } from "./engineTypes.js";
import type { EnrichmentKind } from "./enrichKinds.js";
import { matchKeyOf, type MatchCriteria, type Resolved } from "./resolver.js";

const isBlank = (raw: unknown): boolean =>
  raw === null ||
  raw === undefined ||
  (typeof raw === "string" && raw.trim() === "") ||
  (typeof raw === "object" && "criteria" in raw && Object.values((raw as MatchCriteria).criteria).every((v) => isBlank(v)));

/** The plan of `inputs`, each resolved (with the caches loaded for them). */
export function selectionPlan(
  declaration: EnrichmentKind,
  inputs: readonly unknown[],
  resolved: readonly Resolved[],
  fields: readonly string[],
  answers: Pick<Answers, "records" | "spend" | "isManaged">,
): SelectionPlan {
  const plan: SelectionPlan = {
    ids: [],
    unique: 0,
    invalidCount: 0,
    blankCount: 0,
    cachedCount: 0,
    underManagementCount: 0,
    maxCredits: 0,
    requests: 0,
    spend: answers.spend.status(),
  };
  const seen = new Set<string>();
  resolved.forEach((r, index) => {
    const input = inputs[index];
    if (isBlank(input)) plan.blankCount += 1;
    else if (!r.ok) {
      // A known miss is answered from the cache; anything else cannot be asked as it is.
      const missKey = r.miss !== undefined ? matchKeyOf(input) : undefined;
      if (missKey === undefined) plan.invalidCount += 1;
      else if (!seen.has(missKey)) {
        seen.add(missKey);
        plan.cachedCount += 1;
      }
    } else if (!seen.has(r.key)) {
      seen.add(r.key);
      if (typeof input !== "object" && r.id !== undefined) plan.ids.push(r.id);
      if (answers.records.isNoMatch(r.key) || (r.id !== undefined && answers.records.hasFresh(r.key, fields))) plan.cachedCount += 1;
      else if (!declaration.spends || (r.id !== undefined && answers.isManaged(r.key))) plan.underManagementCount += 1;
      else plan.maxCredits += 1;
    }
  });
  plan.unique = seen.size;
  plan.requests = Math.ceil((plan.underManagementCount + plan.maxCredits) / declaration.maxInputs);
  plan.spend = answers.spend.status();
  return plan;
}
