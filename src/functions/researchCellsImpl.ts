// What the BIZ research functions do (docs/research-addin.md), loaded with import() on first use.
// No cell may spend an AI action credit: the functions get only the free parts of research (a
// lookalike query, answered once and then from memory; a briefing the pane already fetched),
// by type, so a recalculation can never cost one.
import { cellContent, cellProblem, parseRecordId, problemFromError, problems, type CellProblem } from "../core/enrich/index.js";
import { MAX_RESULTS_PER_CALL, type LookalikeQuery } from "../core/research/index.js";
import { isPreview, type ConfigAccess } from "./config.js";
import { toExcelError } from "./excelError.js";
import { readCompanyArgument } from "./dataTypeArgument.js";

type Invocation = CustomFunctions.Invocation | undefined;

const fail = (problem: Pick<CellProblem, "code" | "message">): never => {
  throw toExcelError(problem);
};
const invalid = (message: string): never => fail({ code: "#VALUE!", message });

/** Excel keeps at most this many characters in a cell. */
const CELL_TEXT_MAX = 32_767;

export const NO_BRIEFING = "No briefing yet: open Research in the pane";

/** The company a cell names: its id, or a website matched through the pipeline (cache only when `cacheOnly`), or a name. */
async function companyOf(access: ConfigAccess, raw: unknown, cacheOnly: boolean): Promise<{ companyId: string } | { companyName: string }> {
  const argument = readCompanyArgument(raw);
  if (!argument.ok) return fail(argument.problem);
  const company = argument.value;
  const id = parseRecordId(company);
  if (id !== undefined) return { companyId: String(id) };
  const content = typeof company === "string" ? cellContent(company) : undefined;
  if (content === "name") return { companyName: String(company).trim() };
  if (content !== "website") return invalid("Name a company: its id, website or name");
  const config = (await access.current())!;
  const match = await config.engine.match({ kind: "company", criteria: { website: company } }, { preview: cacheOnly });
  if (!match.ok) return fail(match.problem);
  return { companyId: String(match.id) };
}

/** Research a signed-in user's plan includes; otherwise the cell answers at once, sending nothing. */
async function signedIn(access: ConfigAccess, capability: "briefing" | "lookalikes") {
  const config = await access.current();
  if (!config || !(await config.isSignedIn())) return fail(problems.signIn());
  if (!config.research) return fail(problems.unavailable("research is not available here"));
  const notInPlan = config.plan?.refusal(capability);
  if (notInPlan) return fail(cellProblem(notInPlan));
  return config.research;
}

/** BIZ.LOOKALIKES: the companies most like one company, ranked: id, name and score, spilling down. Free. */
export async function lookalikesCell(access: ConfigAccess, company: unknown, count: unknown, invocation: Invocation): Promise<(string | number)[][]> {
  const n = count === null || count === undefined || count === "" ? 10 : Number(count);
  if (!Number.isInteger(n) || n < 1 || n > MAX_RESULTS_PER_CALL) invalid(`How many: a whole number from 1 to ${MAX_RESULTS_PER_CALL}`);
  const research = await signedIn(access, "lookalikes");
  if (isPreview(invocation)) fail(problems.preview());
  const query: LookalikeQuery = { ...(await companyOf(access, company, false)), size: n };
  let found;
  try {
    found = await research.lookalikesOf(query);
  } catch (error) {
    return fail(problemFromError(error));
  }
  const ranked = [...found].sort((a, b) => a.rank - b.rank).slice(0, n);
  if (ranked.length === 0) return [["No similar companies found", "", ""]];
  return ranked.map((c) => [/^[0-9]{1,15}$/.test(c.companyId) ? Number(c.companyId) : c.companyId, c.companyName, c.score]);
}

/** BIZ.BRIEFING: a briefing the pane already fetched, as text; never calls the service, never spends. */
export async function briefingCell(access: ConfigAccess, company: unknown): Promise<string> {
  const research = await signedIn(access, "briefing");
  const which = await companyOf(access, company, true);
  if (!("companyId" in which)) return invalid("Name the company by its id or website (the briefing is kept by company id)");
  const stored = await research.storedBriefing(which.companyId);
  if (!stored) return NO_BRIEFING;
  return stored.markdown.length > CELL_TEXT_MAX ? `${stored.markdown.slice(0, CELL_TEXT_MAX - 1)}…` : stored.markdown;
}
