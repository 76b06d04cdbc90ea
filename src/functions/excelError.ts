/* global CustomFunctions */
// A cell problem as the Excel error the cell shows, with its message.
import type { CellProblem } from "../core/enrich/problems.js";

export function toExcelError(problem: Pick<CellProblem, "code" | "message">): CustomFunctions.Error {
  const code = problem.code === "#VALUE!" ? CustomFunctions.ErrorCode.invalidValue : CustomFunctions.ErrorCode.notAvailable;
  return new CustomFunctions.Error(code, problem.message);
}
