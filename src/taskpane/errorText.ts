// The user-facing text of an error: the user message ServiceError and WorkbookError carry,
// else the error's own message. A service error's instance id (the service's requestId, or its
// error object's id) ends the text as "Reference: …", so a user can copy it for support.
// Its own small module: the first screen needs it.
export function errorText(error: unknown): string {
  if (typeof error === "object" && error !== null) {
    const e = error as { userMessage?: unknown; message?: unknown; requestId?: unknown };
    const reference = typeof e.requestId === "string" && e.requestId !== "" ? ` (Reference: ${e.requestId})` : "";
    if (typeof e.userMessage === "string" && e.userMessage) return `${e.userMessage}${reference}`;
    if (typeof e.message === "string" && e.message) return e.message;
  }
  return String(error);
}
