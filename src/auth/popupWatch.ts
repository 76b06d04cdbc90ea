// Noticing that the user closed the sign-in popup, for both browser sign-ins: the window's
// `closed` flag read every 250 ms on the injected clock. msal-browser (v5) learns of a popup's
// answer on a channel and does not watch the popup itself: a window closed by the user would
// leave the sign-in waiting until msal's timeout; the explicit-endpoint flow (oauthBackend.ts)
// waits on its own channel the same way.
import { every, systemClock } from "../core/api/clock.js";
import type { Clock } from "../core/api/types.js";
import { signInCancelled } from "./errors.js";
import { ANSWERED_CHANNEL } from "./redirectProtocol.js";

/** How often the popup's `closed` flag is read. */
export const POPUP_CHECK_MS = 250;

export interface PopupWatch {
  /** Rejects (cancelled) once the popup is closed; never resolves. */
  closed: Promise<never>;
  stop(): void;
}

/** A watch of msal's popup, which also hears when the redirect page got an answer. */
export interface MsalPopupWatch extends PopupWatch {
  /** Resolves when the redirect page said an answer came: from then on a close is no cancel. */
  answered: Promise<void>;
}

/**
 * Watches `popup()` (null until there is one) until stopped. Closed twice in a row counts: the
 * redirect page's last message, posted just before it closed the window, has had its turn.
 */
export function watchClosed(popup: () => { readonly closed: boolean } | null, clock: Pick<Clock, "sleep"> = systemClock): PopupWatch {
  let stop = () => undefined as void;
  const closed = new Promise<never>((_, reject) => {
    let seen = 0;
    stop = every(clock, POPUP_CHECK_MS, () => {
      seen = popup()?.closed ? seen + 1 : 0;
      if (seen < 2) return;
      stop();
      reject(signInCancelled("The sign-in window was closed before sign-in finished. Sign in again when you are ready."));
    });
  });
  // Whoever races this promise may finish first; an unobserved rejection must not be reported.
  closed.catch(() => undefined);
  return { closed, stop: () => stop() };
}

/**
 * Watches the next window.open of this page. The answer comes to msal-browser, which then
 * exchanges the code (a request that may take a while) after the window has closed: once the
 * redirect page says an answer came (ANSWERED_CHANNEL), the close is no longer a cancel.
 */
export function watchNextPopup(target: Pick<Window, "open"> = window, clock: Pick<Clock, "sleep"> = systemClock): MsalPopupWatch {
  const original = target.open;
  let popup: Window | null = null;
  let watch: PopupWatch | undefined;
  let reject: (error: unknown) => void = () => undefined;
  const closed = new Promise<never>((_, fail) => (reject = fail));
  closed.catch(() => undefined);
  const channel = typeof BroadcastChannel === "undefined" ? undefined : new BroadcastChannel(ANSWERED_CHANNEL);
  const answered = new Promise<void>((resolve) => {
    if (channel)
      channel.onmessage = () => {
        watch?.stop();
        resolve();
      };
  });
  target.open = function open(this: unknown, ...args: Parameters<Window["open"]>) {
    target.open = original;
    popup = original.apply(target, args);
    watch = watchClosed(() => popup, clock);
    watch.closed.catch(reject);
    return popup;
  } as Window["open"];
  return {
    closed,
    answered,
    stop() {
      if (target.open !== original) target.open = original;
      watch?.stop();
      channel?.close();
    },
  };
}
