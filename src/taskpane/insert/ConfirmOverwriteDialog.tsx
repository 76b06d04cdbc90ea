// Asks before a table is written over cells that hold data. Loaded only when needed.
import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle } from "@fluentui/react-components";

export function ConfirmOverwriteDialog({ text, answer }: { text: string; answer(yes: boolean): void }) {
  return (
    <Dialog open modalType="alert">
      <DialogSurface>
        <DialogBody>
          <DialogTitle>Write over existing data?</DialogTitle>
          <DialogContent>{text}</DialogContent>
          <DialogActions>
            <Button appearance="primary" onClick={() => answer(false)}>
              Keep my data
            </Button>
            <Button onClick={() => answer(true)}>Write over it</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
