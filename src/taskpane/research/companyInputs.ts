// Companies as the user gives them to Research: typed (an id, a website or a name) or the
// selected cells. Websites and names are found through the enrichment pipeline's match (its
// resolver and match cache: a company matched before costs nothing again), which may spend a
// credit for a company new to the account; planInputs says how many at most, before any is spent.
import { failuresText } from "./outcomeText.js";
import { cellContent, parseRecordId, splitHeader, type EnrichmentEngine, type SelectionSource } from "../../core/enrich/index.js";

export interface CompanyInputs {
  /** Company ids given as ids, distinct, in order. */
  ids: string[];
  /** Websites and names to match, distinct, in order. */
  toMatch: string[];
  /** Cells that name no company. */
  invalid: string[];
}

export function companyInputs(values: readonly unknown[]): CompanyInputs {
  const ids = new Set<string>();
  const toMatch = new Set<string>();
  const invalid: string[] = [];
  for (const value of values) {
    if (value === null || value === undefined || String(value).trim() === "") continue;
    const id = parseRecordId(value);
    if (id !== undefined) ids.add(String(id));
    else if (typeof value === "string" && (cellContent(value) === "website" || cellContent(value) === "name")) toMatch.add(value.trim());
    else invalid.push(String(value));
  }
  return { ids: [...ids], toMatch: [...toMatch], invalid };
}

/** The selected cells' companies (a header cell is skipped), or what is wrong with the selection. */
export async function selectedCompanies(source: SelectionSource | undefined): Promise<{ ok: true; inputs: CompanyInputs } | { ok: false; message: string }> {
  if (!source) return { ok: false, message: "Reading the selection needs a workbook." };
  const read = await source.readIds();
  if (!read.ok) return read;
  const inputs = companyInputs(splitHeader(read.selection.values).values);
  if (inputs.ids.length + inputs.toMatch.length === 0)
    return { ok: false, message: "The selection holds no company: select cells with company ids, websites or names." };
  return { ok: true, inputs };
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** " Finding 2 companies by website or name first: up to 2 credits." — what matching costs, said before it starts; "" when nothing is matched. */
export function matchingText(inputs: number, credits: number, by = "website or name", nouns: [string, string] = ["company", "companies"]): string {
  if (inputs === 0) return "";
  return ` Finding ${plural(inputs, ...nouns)} by ${by} first: ${credits === 0 ? "no credits" : `up to ${plural(credits, "credit", "credits")}`}.`;
}

/** Credits matching the websites and names may spend at most (companies new to the account). */
export async function matchingCredits(engine: EnrichmentEngine, toMatch: readonly string[]): Promise<number> {
  if (toMatch.length === 0) return 0;
  return (await engine.planInputs("company", toMatch, ["name"])).maxCredits;
}

export interface ResolvedCompanies {
  ids: string[];
  /** Inputs no company was found for, with why. */
  misses: { input: string; message: string }[];
}

/** The ids of the inputs: ids as given, websites and names matched (the pipeline gathers them into few requests). */
export async function resolveCompanies(engine: EnrichmentEngine, inputs: CompanyInputs): Promise<ResolvedCompanies> {
  const matched = await Promise.all(
    inputs.toMatch.map(async (input) => ({
      input,
      result: await engine.match({ kind: "company", criteria: cellContent(input) === "website" ? { website: input } : { name: input } }),
    })),
  );
  const ids = [...inputs.ids];
  const misses: ResolvedCompanies["misses"] = inputs.invalid.map((input) => ({ input, message: "not a company id, website or name" }));
  for (const { input, result } of matched) {
    if (result.ok) ids.push(String(result.id));
    else misses.push({ input, message: result.problem.message });
  }
  return { ids: [...new Set(ids)], misses };
}

export const missesText = (misses: ResolvedCompanies["misses"]) =>
  failuresText(
    "Not found",
    misses.map((m) => ({ item: m.input, error: m.message })),
  );
