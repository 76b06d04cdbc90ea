// What BIZ.INSIGHT does (docs/signals.md, Insights), loaded with import() on first use: the
// latest insight of a company (of a type, if named) as text, its summary and date. A company is
// given by id, website or name; the one pipeline matches it and asks its insights in one pass
// (gathered across cells, 50 companies a request, free), and keeps them until they expire, so a
// recalculation sends nothing. A plan without insights is said at once, before any request.
import { INSIGHT_KIND, insightDate, insightTypeFromText, insightTypeName, recordInsights } from "../core/insights/index.js";
import { INSIGHT_TYPES, type InsightType } from "../core/contract/index.js";
import { problems, type CellProblem } from "../core/enrich/index.js";
import type { ConfigAccess } from "./config.js";
import { toExcelError } from "./excelError.js";
import { companyKindCell } from "./signalCellsImpl.js";

type Invocation = CustomFunctions.Invocation | undefined;

const fail = (problem: Pick<CellProblem, "code" | "message">): never => {
  throw toExcelError(problem);
};

const TYPE_HELP = 'Name a type of insight, e.g. "Funding", "Leadership change" or "Intent spike", or leave it out for any';

/** The type a cell names (none: any type). */
function typeArgument(raw: unknown): InsightType | undefined {
  if (raw === null || raw === undefined || String(raw).trim() === "") return undefined;
  return insightTypeFromText(String(raw)) ?? fail({ code: "#VALUE!", message: TYPE_HELP });
}

/** The sentence of a company without an insight (of the type asked). */
export function noInsightText(type: InsightType | undefined): string {
  return type ? `No ${insightTypeName(type).toLowerCase()} insight for this company right now` : "No insight for this company right now";
}

/** Whether the plan includes insights: refused at once, sending nothing, when it does not. */
async function checkPlan(access: ConfigAccess): Promise<void> {
  const config = await access.current();
  if (!config || !(await config.isSignedIn())) fail(problems.signIn());
  const allowance = await config?.insightsAllowed?.();
  if (allowance && !allowance.allowed) fail({ code: "#N/A", message: allowance.reason });
}

/** BIZ.INSIGHT: "summary (date)" of the company's latest insight, of `type` when named. */
export async function insightCell(access: ConfigAccess, company: unknown, type: unknown, invocation: Invocation): Promise<string> {
  const wanted = typeArgument(type);
  await checkPlan(access);
  const [record] = await companyKindCell(access, INSIGHT_KIND, company, ["insights"], invocation);
  const latest = recordInsights(record).find((insight) => wanted === undefined || insight.signalType === wanted);
  if (!latest) return fail({ code: "#N/A", message: noInsightText(wanted) });
  return `${latest.signalPayload.displayText} (${insightDate(latest).slice(0, 10)})`;
}

/** The types a cell may name, for the function's help. */
export const CELL_TYPES: readonly string[] = INSIGHT_TYPES.map(insightTypeName);
