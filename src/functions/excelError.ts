/* global CustomFunctions */
// A cell problem, or any failure of the error factory (core/errors/failure.ts), as the Excel
// error the cell shows, with its short message.
import type { CellProblem } from "../core/enrich/problems.js";
import { cellError, isFailure, type Failure } from "../core/errors/failure.js";

export function toExcelError(problem: Pick<CellProblem, "code" | "message"> | Failure): CustomFunctions.Error {
  const { code, message } = isFailure(problem) ? cellError(problem) : problem;
  return new CustomFunctions.Error(code === "#VALUE!" ? CustomFunctions.ErrorCode.invalidValue : CustomFunctions.ErrorCode.notAvailable, message);
}
