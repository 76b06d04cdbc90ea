// Answers are data from outside: parse them and check their shape against the contract's
// schemas before anything reads them. A wrong shape is an "invalidResponse" error, not a crash
// deep inside a feature.
import type { Static, TSchema } from "@sinclair/typebox";
import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";
import { serviceError } from "./errors.js";
import type { RawResponse } from "./request.js";

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();
function checker(schema: TSchema): TypeCheck<TSchema> {
  let check = compiled.get(schema);
  if (!check) {
    check = TypeCompiler.Compile(schema);
    compiled.set(schema, check);
  }
  return check;
}

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
  const check = checker(schema);
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
