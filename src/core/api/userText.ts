// The one road from an error to what the pane shows: the user message a ServiceError (or a
// WorkbookError) carries, else the error's own message. A service error's instance id (the
// service's requestId, or its error object's id) ends the text as "(Reference: …)", so a user can
// copy it for support. No imports: the task pane's first screen loads it. It is the pane's form of
// the error factory's paneMessage (core/errors/failure.ts), which gives the same text for every error.
export function errorText(error: unknown): string {
  if (typeof error === "object" && error !== null) {
    const e = error as { userMessage?: unknown; message?: unknown; requestId?: unknown };
    const reference = typeof e.requestId === "string" && e.requestId !== "" ? ` (Reference: ${e.requestId})` : "";
    if (typeof e.userMessage === "string" && e.userMessage) return `${e.userMessage}${reference}`;
    if (typeof e.message === "string" && e.message) return e.message;
  }
  return String(error);
}
