// The Office Dialog API, the only code touching Office.context.ui: opens a page of the add-in's
// own origin in a dialog and waits for its one message (a string) or for it to close. What each
// Office error code tells the user is decided in auth/errors.ts (dialogFailed).
/* global Office */
import { timerClock, type Clock } from "../core/contract/clock.js";

/** The part of Office.context.ui the sign-in uses (a fake in tests). */
export interface OfficeDialogUi {
  displayDialogAsync(startAddress: string, options: Office.DialogOptions, callback: (result: Office.AsyncResult<Office.Dialog>) => void): void;
}

export type DialogOutcome =
  /** The page called messageParent; the dialog is closed. */
  | { kind: "message"; message: string }
  /**
   * The dialog closed before its message (12006): the user closed it, or the page it reached
   * answered `Cross-Origin-Opener-Policy: same-origin`, which Office cannot tell apart.
   */
  | { kind: "closed" }
  /** The dialog could not open or failed: its Office error code (0: Office is not here). */
  | { kind: "failed"; code: number };

export type OpenDialog = (url: string) => Promise<DialogOutcome>;

export interface DialogOpenerOptions {
  /** Percent of the screen (Office's unit). */
  size?: { height: number; width: number };
  /** Waits before the one retry of 12007 (default real time). */
  clock?: Pick<Clock, "sleep">;
  /** How long Office is given to finish closing the previous dialog before the retry. */
  retryDelayMs?: number;
}

/** Office's codes this module acts on. */
export const DIALOG_CLOSED = 12006;
export const DIALOG_ALREADY_OPEN = 12007;
/** Not an Office code: Office.context.ui is not there (the page runs outside Office). */
export const NO_OFFICE = 0;

// Office's enums as their runtime strings: this module also runs where Office is not loaded (tests).
const SUCCEEDED = "succeeded" as unknown as Office.AsyncResultStatus;
const MESSAGE_RECEIVED = "dialogMessageReceived" as unknown as Office.EventType;
const EVENT_RECEIVED = "dialogEventReceived" as unknown as Office.EventType;

function officeUi(): OfficeDialogUi {
  if (typeof Office === "undefined" || !Office.context?.ui) throw new Error("Office.context.ui is not available");
  return Office.context.ui;
}

function closeQuietly(dialog: Office.Dialog | undefined): void {
  try {
    dialog?.close();
  } catch {
    // Already closed by the user or by Office: nothing left to close.
  }
}

/** Settles on the dialog's first message or event, closing it; handlers are attached at once. */
function answerOf(dialog: Office.Dialog): Promise<DialogOutcome> {
  return new Promise<DialogOutcome>((resolve) => {
    let settled = false;
    const settle = (outcome: DialogOutcome) => {
      if (settled) return;
      settled = true;
      closeQuietly(dialog);
      resolve(outcome);
    };
    dialog.addEventHandler(MESSAGE_RECEIVED, (arg) => {
      const message = "message" in arg ? arg.message : undefined;
      settle({ kind: "message", message: typeof message === "string" ? message : "" });
    });
    dialog.addEventHandler(EVENT_RECEIVED, (arg) => {
      const code = "error" in arg ? arg.error : 0;
      settle(code === DIALOG_CLOSED ? { kind: "closed" } : { kind: "failed", code });
    });
  });
}

type Opened = { dialog: Office.Dialog; answer: Promise<DialogOutcome> } | { code: number };

function display(target: OfficeDialogUi, url: string, size: { height: number; width: number }): Promise<Opened> {
  return new Promise<Opened>((resolve) => {
    // promptBeforeOpen stays on, as Microsoft recommends: Office on the web asks Allow/Ignore
    // when the browser would block the window, instead of the window silently never opening.
    target.displayDialogAsync(url, { height: size.height, width: size.width, promptBeforeOpen: true }, (result) => {
      if (result.status !== SUCCEEDED) resolve({ code: result.error?.code ?? NO_OFFICE });
      else resolve({ dialog: result.value, answer: answerOf(result.value) });
    });
  });
}

/**
 * Opens `url` in an Office dialog and settles on its first message or on its closing. One dialog
 * at a time: a call waits for the previous one to settle. When Office still answers 12007 (it
 * closes a dialog asynchronously and says nothing when done), the last dialog is closed again
 * and the open is retried once after a short wait, as Microsoft recommends.
 */
export function createDialogOpener(ui: () => OfficeDialogUi = officeUi, options: DialogOpenerOptions = {}): OpenDialog {
  const size = options.size ?? { height: 60, width: 30 };
  const clock = options.clock ?? timerClock();
  const retryDelayMs = options.retryDelayMs ?? 500;
  let last: Office.Dialog | undefined;
  let previous: Promise<unknown> = Promise.resolve();

  const openOnce = async (url: string): Promise<DialogOutcome> => {
    let target: OfficeDialogUi;
    try {
      target = ui();
    } catch {
      return { kind: "failed", code: NO_OFFICE };
    }
    let opened = await display(target, url, size);
    if ("code" in opened && opened.code === DIALOG_ALREADY_OPEN) {
      closeQuietly(last);
      await clock.sleep(retryDelayMs);
      opened = await display(target, url, size);
    }
    if ("code" in opened) return { kind: "failed", code: opened.code };
    last = opened.dialog;
    return opened.answer;
  };

  return (url) => {
    const outcome = previous.then(() => openOnce(url));
    previous = outcome.catch(() => undefined);
    return outcome;
  };
}
