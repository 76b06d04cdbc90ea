// The one question dialog of the task pane: "write over existing data?", "replace the saved
// search?". useConfirm returns ask(question) -> Promise<boolean> and the dialog to render.
import { useState } from "react";
import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle } from "@fluentui/react-components";

export interface ConfirmQuestion {
  title: string;
  text: string;
  /** The safe answer; it is the default button. */
  no: string;
  yes: string;
}

/** Asking to write over cells that hold data (inserts and enrichment). */
export const overwriteQuestion = (text: string): ConfirmQuestion => ({ title: "Write over existing data?", text, no: "Keep my data", yes: "Write over it" });

function ConfirmDialog({ question, answer }: { question: ConfirmQuestion; answer(yes: boolean): void }) {
  return (
    <Dialog open modalType="alert">
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{question.title}</DialogTitle>
          <DialogContent>{question.text}</DialogContent>
          <DialogActions>
            <Button appearance="primary" onClick={() => answer(false)}>
              {question.no}
            </Button>
            <Button onClick={() => answer(true)}>{question.yes}</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

/** A question for the user that resolves to their answer. */
export function useConfirm() {
  const [pending, setPending] = useState<{ question: ConfirmQuestion; answer(yes: boolean): void } | undefined>();
  const ask = (question: ConfirmQuestion) => new Promise<boolean>((resolve) => setPending({ question, answer: resolve }));
  const dialog = pending ? (
    <ConfirmDialog
      question={pending.question}
      answer={(yes) => {
        pending.answer(yes);
        setPending(undefined);
      }}
    />
  ) : null;
  return { ask, dialog };
}
