// Sign-in failures as the client's ServiceError values (kind + a message for the user).
import { serviceError, type ServiceError } from "../core/api/errors.js";

export function signInRequired(userMessage = "You are not signed in. Sign in to continue."): ServiceError {
  return serviceError("unauthorized", { userMessage, message: "No access token: the user is not signed in" });
}

export function signInExpired(): ServiceError {
  return serviceError("unauthorized", {
    userMessage: "Your sign-in has expired. Sign in again.",
    message: "The access token could not be renewed",
  });
}

export function signInCancelled(userMessage: string): ServiceError {
  return serviceError("cancelled", { userMessage, message: "Sign-in did not finish" });
}

export function signInDenied(userMessage: string): ServiceError {
  return serviceError("unauthorized", { userMessage, message: "Access was not granted" });
}

export function signInFailed(userMessage: string, technical: string): ServiceError {
  return serviceError("network", { userMessage, message: technical });
}

/** The sign-in server answered 404: Settings point at another environment's address. */
export function signInNotHere(host: string): ServiceError {
  return serviceError("network", {
    userMessage: `This environment's sign-in is not here: the server at ${host} answered "not found". Under Connection settings (below), choose the environment your service runs (for example Sandbox, or Sandbox (production profile)).`,
    message: "Sign-in server answered 404",
  });
}

/**
 * The sign-in window closed before it answered (Office's 12006). Office reports the same code
 * when the user closes it and when the sign-in page answered `Cross-Origin-Opener-Policy:
 * same-origin` (which cuts the window off from Office): the message covers both, naming what
 * the administrator changes in the second case, without telling the user they closed it.
 */
export function signInWindowClosed(): ServiceError {
  return serviceError("cancelled", {
    userMessage:
      "The sign-in window closed before sign-in finished. If you closed it, sign in again when you are ready. If it closed by itself, ask your administrator: the sign-in page must send Cross-Origin-Opener-Policy: unsafe-none, or be served from the add-in's web address.",
    message: "Office dialog closed (12006): closed by the user, or the sign-in page sent Cross-Origin-Opener-Policy: same-origin",
  });
}

/** What each Office dialog error tells the user (codes from Microsoft's Office dialog API). */
const DIALOG_ERRORS: Record<number, { kind: "cancelled" | "network"; userMessage: string }> = {
  0: { kind: "network", userMessage: "Signing in from here needs Excel: the Office sign-in window is not available on this page." },
  12002: { kind: "network", userMessage: "The sign-in page could not be loaded. Check your connection and try again." },
  12003: {
    kind: "network",
    userMessage: "The sign-in page was sent to an address without https, which Office refuses. Ask your administrator to check the add-in's web address.",
  },
  12004: {
    kind: "network",
    userMessage: "The sign-in page is not on a web address this add-in trusts. Ask your administrator to check the add-in's web address.",
  },
  12005: { kind: "network", userMessage: "The sign-in page must use https, which Office requires. Ask your administrator to check the add-in's web address." },
  12007: { kind: "network", userMessage: "Another sign-in window of this add-in is still open. Finish or close it, then sign in again." },
  12009: {
    kind: "cancelled",
    userMessage: "You chose Ignore when Office asked to open the sign-in window, so you are not signed in. Sign in again and choose Allow.",
  },
  12011: {
    kind: "network",
    userMessage: "Your browser blocked the sign-in window. Allow pop-ups for this Office site in the browser's settings, then sign in again.",
  },
};

/** The sign-in window could not open or failed, with Office's error code. */
export function dialogFailed(code: number): ServiceError {
  const known = DIALOG_ERRORS[code];
  return serviceError(known?.kind ?? "network", {
    userMessage: known?.userMessage ?? `The sign-in window failed (Office error ${code}). Try again.`,
    message: `Office dialog failed with code ${code}`,
  });
}
