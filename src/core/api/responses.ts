// Answers are data from outside: parse them and check their shape against the contract's
// schemas before anything reads them. A wrong shape is an "invalidResponse" error, not a crash
// deep inside a feature.
import type { Static, TSchema } from "@sinclair/typebox";
import { compiledCheck } from "../contract/index.js";
import { serviceError } from "./errors.js";
import type { RawResponse } from "./requestSpec.js";

export function parseDocument<T extends TSchema>(schema: T, response: RawResponse, operation: string): Static<T> {
  let doc: unknown;
  try {
    doc = JSON.parse(response.body);
  } catch {
    throw serviceError("invalidResponse", {
      status: response.status,
      operation,
      message: `${operation} answered HTTP ${response.status} with a body that is not JSON`,
    });
  }
  const check = compiledCheck(schema);
  if (!check.Check(doc)) {
    const first = check.Errors(doc).First();
    const where = first ? ` at ${first.path || "/"}: ${first.message}` : "";
    throw serviceError("invalidResponse", {
      status: response.status,
      operation,
      message: `${operation} answered with a document of the wrong shape${where}`,
    });
  }
  return doc as Static<T>;
}
