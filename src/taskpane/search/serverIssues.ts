// What the service said about a refused search, shown on the form's fields beside the form's own
// checks until the user edits the field it points at (the search tabs and the signal searches).
import { useState } from "react";
import type { ValidationIssue } from "../../core/contract/index.js";
import { serverIssuesOf, withServerIssues, withoutField } from "./formModel.js";

export interface ServerIssues {
  /** The form's own issues, then the service's where the form has none at the same pointer. */
  all: ValidationIssue[];
  /** A failed search: a 400 that points at fields is kept to show there. */
  fromError(error: unknown): void;
  /** The user edited the field: what the service said about it no longer holds. */
  clearField(name: string): void;
  clear(): void;
}

export function useServerIssues(own: readonly ValidationIssue[]): ServerIssues {
  const [server, setServer] = useState<ValidationIssue[]>([]);
  return {
    all: withServerIssues(own, server),
    fromError: (error) => {
      const issues = serverIssuesOf(error);
      if (issues) setServer(issues);
    },
    clearField: (name) => setServer((s) => withoutField(s, name)),
    clear: () => setServer([]),
  };
}
