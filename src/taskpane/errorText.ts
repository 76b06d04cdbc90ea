// The user-facing text of an error: the user message ServiceError and WorkbookError carry,
// else the error's own message. Its own small module: the first screen needs it.
export function errorText(error: unknown): string {
  if (typeof error === "object" && error !== null) {
    const e = error as { userMessage?: unknown; message?: unknown };
    if (typeof e.userMessage === "string" && e.userMessage) return e.userMessage;
    if (typeof e.message === "string" && e.message) return e.message;
  }
  return String(error);
}
