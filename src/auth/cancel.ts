// Cancel on the login form answers access_denied, as Deny on the consent page does; only the
// description tells them apart (the sandbox says "cancelled", oidc-provider's own "aborted").
export function cancelledOnLoginForm(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const e = error as { errorMessage?: unknown; error_description?: unknown; message?: unknown };
  const text = [e.errorMessage, e.error_description].filter((t): t is string => typeof t === "string").join(" ");
  return /cancel|abort/i.test(text);
}
