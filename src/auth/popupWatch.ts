// msal-browser (v5) learns of a popup's answer on a channel and does not watch the popup
// itself: a window closed by the user would leave the sign-in waiting until msal's timeout.
// This catches the next window the page opens and reports at once when it is closed.
import { signInCancelled } from "./errors.js";

export interface PopupWatch {
  /** Rejects (cancelled) once the caught popup is closed; never resolves. */
  closed: Promise<never>;
  stop(): void;
}

/** Watches the next window.open of this page, polling its `closed` flag. */
export function watchNextPopup(target: Pick<Window, "open"> = window, every = 250): PopupWatch {
  const original = target.open;
  let popup: Window | null = null;
  let timer: ReturnType<typeof setInterval> | undefined;
  let reject: (error: Error) => void = () => undefined;
  const closed = new Promise<never>((_, fail) => (reject = fail));
  // Whoever races this promise may finish first; an unobserved rejection must not be reported.
  closed.catch(() => undefined);
  target.open = function open(this: unknown, ...args: Parameters<Window["open"]>) {
    target.open = original;
    popup = original.apply(target, args);
    let seen = 0;
    timer = setInterval(() => {
      // Closed twice in a row: the redirect page's last message has had its turn.
      seen = popup?.closed ? seen + 1 : 0;
      if (seen < 2) return;
      clearInterval(timer);
      reject(signInCancelled("The sign-in window was closed before sign-in finished. Sign in again when you are ready."));
    }, every);
    return popup;
  } as Window["open"];
  return {
    closed,
    stop() {
      if (target.open !== original) target.open = original;
      if (timer !== undefined) clearInterval(timer);
    },
  };
}
