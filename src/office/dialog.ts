// The Office Dialog API, the only code touching Office.context.ui: opens a page of the add-in's
// own origin in a dialog and waits for its one message (a string) or for the user to close it.
/* global Office */

/** The part of Office.context.ui the sign-in uses (a fake in tests). */
export interface OfficeDialogUi {
  displayDialogAsync(startAddress: string, options: Office.DialogOptions, callback: (result: Office.AsyncResult<Office.Dialog>) => void): void;
}

export type DialogOutcome =
  /** The page called messageParent; the dialog is closed. */
  | { kind: "message"; message: string }
  /** The user closed the dialog (12006). */
  | { kind: "closed" }
  /** The dialog could not open or failed (its Office error code and what to tell the user). */
  | { kind: "failed"; code: number; userMessage: string };

export interface OpenDialogOptions {
  /**
   * Office on the web: ask the user before opening (true), which a browser never blocks; false
   * opens at once and suits a click (a browser may block a window opened without one).
   */
  promptBeforeOpen?: boolean;
}

export type OpenDialog = (url: string, options?: OpenDialogOptions) => Promise<DialogOutcome>;

const USER_CLOSED = 12006;
// Office's enums as their runtime strings: this module also runs where Office is not loaded (tests).
const SUCCEEDED = "succeeded" as unknown as Office.AsyncResultStatus;
const MESSAGE_RECEIVED = "dialogMessageReceived" as unknown as Office.EventType;
const EVENT_RECEIVED = "dialogEventReceived" as unknown as Office.EventType;

const OPEN_ERRORS: Record<number, string> = {
  12004: "The sign-in page is not on the add-in's own web address. Check the add-in settings.",
  12005: "The sign-in page must use https.",
  12007: "A sign-in window is already open. Finish or close it first.",
  12009: "Opening the sign-in window was blocked. Allow the dialog and try again.",
  12011: "Your browser blocked the sign-in window. Allow pop-ups for this site and try again.",
  12002: "The sign-in page could not be loaded. Check your connection and try again.",
  12003: "The sign-in page must use https.",
};

function describe(code: number): string {
  return OPEN_ERRORS[code] ?? `The sign-in window failed (Office error ${code}). Try again.`;
}

function officeUi(): OfficeDialogUi {
  if (typeof Office === "undefined" || !Office.context?.ui) {
    throw new Error("The Office dialog is only available inside Office.");
  }
  return Office.context.ui;
}

/** Opens `url` in an Office dialog and settles on its first message or on its closing. */
export function createDialogOpener(ui: () => OfficeDialogUi = officeUi, size = { height: 60, width: 30 }): OpenDialog {
  return (url, options = {}) =>
    new Promise<DialogOutcome>((resolve) => {
      let dialog: Office.Dialog | undefined;
      let settled = false;
      const settle = (outcome: DialogOutcome) => {
        if (settled) return;
        settled = true;
        try {
          dialog?.close();
        } catch {
          // Already closed by the user or by Office: nothing left to close.
        }
        resolve(outcome);
      };
      let target: OfficeDialogUi;
      try {
        target = ui();
      } catch (error) {
        settle({ kind: "failed", code: 0, userMessage: error instanceof Error ? error.message : String(error) });
        return;
      }
      target.displayDialogAsync(url, { height: size.height, width: size.width, promptBeforeOpen: options.promptBeforeOpen ?? false }, (result) => {
        if (result.status !== SUCCEEDED) {
          const code = result.error?.code ?? 0;
          settle({ kind: "failed", code, userMessage: describe(code) });
          return;
        }
        dialog = result.value;
        dialog.addEventHandler(MESSAGE_RECEIVED, (arg) => {
          const message = "message" in arg ? arg.message : undefined;
          settle({ kind: "message", message: typeof message === "string" ? message : "" });
        });
        dialog.addEventHandler(EVENT_RECEIVED, (arg) => {
          const code = "error" in arg ? arg.error : 0;
          if (code === USER_CLOSED) settle({ kind: "closed" });
          else settle({ kind: "failed", code, userMessage: describe(code) });
        });
      });
    });
}
