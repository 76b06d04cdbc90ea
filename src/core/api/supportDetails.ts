// What a user copies for support when something fails: the message, what the add-in was doing,
// the answer's status and codes, and the error's instance id (the gateway's requestId or the
// error object's id), by which the service's support finds the request. Built from the error's
// redacted fields only, so no token can reach the clipboard.
import type { ServiceError } from "./errors.js";

export function supportDetails(error: ServiceError): string {
  const codes = [...new Set(error.errors.map((e) => e.code).filter((c): c is string => typeof c === "string" && c !== ""))];
  const lines = [
    error.userMessage,
    error.operation ? `Request: ${error.operation}` : undefined,
    error.status ? `Status: ${error.status}` : `Failure: ${error.kind}`,
    codes.length > 0 ? `Code: ${codes.join(", ")}` : undefined,
    error.requestId ? `Reference (give this to support): ${error.requestId}` : undefined,
  ];
  return lines.filter((line): line is string => line !== undefined).join("\n");
}
