// What the user is told when the computer's storage refuses a read or a write: once per kind of
// data and session (a full storage fails every write after the first; one notice says it all).
// The stores report here; the task pane shows the notices (src/taskpane/StorageNotice.tsx).

/** Which data could not be kept. */
export type StorageProblem = "cache" | "items" | "spend";

/** The sentence shown for each problem, in the user's terms. */
export const STORAGE_PROBLEM_TEXT: Record<StorageProblem, string> = {
  cache:
    "Results can't be kept on this computer (its storage for add-ins is full or blocked). Everything still works; cells may take longer to fill after Excel restarts.",
  items: "Your settings or job list could not be saved on this computer (its storage for add-ins is full or blocked). Changes last until Excel closes.",
  spend:
    "Your daily limit's count could not be read or saved on this computer, so nothing that costs credits is fetched until it can be. What you already have still shows.",
};

export type StorageNoticeListener = (problem: StorageProblem, text: string) => void;

export class StorageNotices {
  private readonly told = new Set<StorageProblem>();
  private readonly listeners = new Set<StorageNoticeListener>();

  /** A read or write failed: the first time for this kind of data, the listeners are told. */
  report(problem: StorageProblem): void {
    if (this.told.has(problem)) return;
    this.told.add(problem);
    for (const listener of this.listeners) listener(problem, STORAGE_PROBLEM_TEXT[problem]);
  }

  /** The problems told so far (a pane opened after them still shows them). */
  current(): StorageProblem[] {
    return [...this.told];
  }

  /** Returns the unsubscribe. */
  subscribe(listener: StorageNoticeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
