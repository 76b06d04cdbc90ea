// A fake Office.context.ui: records displayDialogAsync calls and lets a test play the dialog
// (send a message, close it) the way Office would.
import type { OfficeDialogUi } from "../../../src/office/dialog.js";

export type DialogScript = { message: unknown } | { event: number } | { openError: number };

export class FakeOfficeUi implements OfficeDialogUi {
  readonly opened: string[] = [];
  readonly options: Office.DialogOptions[] = [];
  closed = 0;
  private readonly pending: (() => void)[] = [];
  /** manual: the dialogs' events wait for deliverAll() instead of the next turn. */
  constructor(
    private readonly script: (url: string) => DialogScript,
    private readonly mode: { manual?: boolean } = {},
  ) {}

  /** Plays the events of the dialogs opened so far (manual mode). */
  deliverAll(): void {
    for (const play of this.pending.splice(0)) play();
  }

  displayDialogAsync(url: string, options: Office.DialogOptions, callback: (result: Office.AsyncResult<Office.Dialog>) => void): void {
    this.opened.push(url);
    this.options.push(options);
    const step = this.script(url);
    if ("openError" in step) {
      callback({ status: "failed", error: { code: step.openError, message: "", name: "" } } as unknown as Office.AsyncResult<Office.Dialog>);
      return;
    }
    const handlers = new Map<string, (arg: unknown) => void>();
    const dialog = {
      addEventHandler: (type: string, handler: (arg: unknown) => void) => {
        handlers.set(type, handler);
      },
      close: () => {
        this.closed++;
      },
      messageChild: () => undefined,
      sendMessage: () => undefined,
    };
    callback({ status: "succeeded", value: dialog } as unknown as Office.AsyncResult<Office.Dialog>);
    // Office delivers events after the dialog has opened.
    const play = () => {
      if ("message" in step) handlers.get("dialogMessageReceived")?.({ message: step.message, origin: "https://localhost:3000" });
      else handlers.get("dialogEventReceived")?.({ error: step.event });
    };
    if (this.mode.manual) this.pending.push(play);
    else setTimeout(play, 0);
  }
}
