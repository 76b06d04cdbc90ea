// The closed-popup watch of msal-browser's sign-in (browserBackend.ts): a popup closed before an
// answer is a cancel; a popup the redirect page closes after saying an answer came is not, however
// long msal then takes to exchange the code.
import assert from "node:assert/strict";
import { test } from "node:test";
import { POPUP_CHECK_MS, watchNextPopup } from "../../src/auth/popupWatch.js";
import { ANSWERED_CHANNEL } from "../../src/auth/redirectProtocol.js";
import { FakeClock } from "../core/api/scripted.js";

function page() {
  const popup = { closed: false };
  const target = { open: (() => popup) as unknown as Window["open"] };
  return { popup, target };
}

test("a popup closed before any answer is a cancel", async () => {
  const clock = new FakeClock();
  const { popup, target } = page();
  const watch = watchNextPopup(target, clock);
  try {
    target.open("https://signin.example/authorize");
    popup.closed = true;
    await clock.advance(POPUP_CHECK_MS * 2);
    await assert.rejects(watch.closed, (error: { kind?: string }) => error.kind === "cancelled");
  } finally {
    watch.stop();
  }
});

test("a popup closed after the redirect page said an answer came is no cancel, while msal still exchanges the code", async () => {
  const clock = new FakeClock();
  const { popup, target } = page();
  const watch = watchNextPopup(target, clock);
  let cancelled = false;
  watch.closed.catch(() => (cancelled = true));
  try {
    target.open("https://signin.example/authorize");
    // What redirect.html does before handing msal its answer and closing the window.
    const redirectPage = new BroadcastChannel(ANSWERED_CHANNEL);
    redirectPage.postMessage("answered");
    redirectPage.close();
    await watch.answered;
    popup.closed = true;
    // The code exchange takes its time: many checks pass with the window closed.
    await clock.advance(POPUP_CHECK_MS * 20);
    assert.equal(cancelled, false);
  } finally {
    watch.stop();
  }
});
