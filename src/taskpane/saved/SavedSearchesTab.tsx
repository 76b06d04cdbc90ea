// The workbook's saved searches: run one into a new sheet, Refresh its table in place (only
// that table's rows; the user's columns to its right stay), open it in the form, or delete it.
// A morning list of insights (MorningListItem) is refreshed in place the same way.
import { useState } from "react";
import { Button, Field, Input, makeStyles, tokens } from "@fluentui/react-components";
import type { SavedSearchRecord } from "../../office/workbook.js";
import type { InsertOutcome, ResumeState } from "../insert/insertSearch.js";
import { useConfirm } from "../ConfirmDialog.js";
import { OutcomeMessage, ProgressView, useInsertRunner } from "../insert/InsertPanel.js";
import { isMorningList, MorningListItem } from "./MorningListItem.js";
import { renameProblem } from "./renameSaved.js";
import { useSavedSearches } from "./useSavedSearches.js";

/** "1 filter", "3 filters". */
const plural = (n: number, noun: string) => `${n.toLocaleString("en-US")} ${noun}${n === 1 ? "" : "s"}`;

const useStyles = makeStyles({
  item: { borderBottom: `1px solid ${tokens.colorNeutralStroke2}`, padding: "8px 0" },
  actions: { display: "flex", gap: "8px", flexWrap: "wrap" },
  meta: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
});

export function SavedSearchesTab({ onEdit }: { onEdit(search: SavedSearchRecord): void }) {
  const styles = useStyles();
  const saved = useSavedSearches();
  const runner = useInsertRunner();
  const confirm = useConfirm();
  // The search being renamed, with the name typed so far and what is wrong with it.
  const [renaming, setRenaming] = useState<{ id: string; name: string; problem?: string } | undefined>();

  const rename = async () => {
    if (!renaming) return;
    const problem = renameProblem(saved.list, renaming.id, renaming.name);
    if (problem) {
      setRenaming({ ...renaming, problem });
      return;
    }
    await saved.update(renaming.id, { name: renaming.name.trim() });
    setRenaming(undefined);
  };

  const remove = async (search: SavedSearchRecord) => {
    const yes = await confirm.ask({
      title: "Delete the saved search?",
      text: `"${search.name}" is removed from this workbook. Its table${search.tableName ? ` ${search.tableName}` : ""} stays in the sheet.`,
      no: "Keep it",
      yes: "Delete",
    });
    if (yes) await saved.remove(search.id);
  };

  const run = async (search: SavedSearchRecord, refresh: boolean) => {
    const title = search.name;
    const result = await runner.run(
      { kind: search.kind, filters: search.filters, ...(search.sort ? { sort: search.sort } : {}) },
      search.columns,
      { kind: "newSheet", sheetName: title },
      title,
      refresh ? search.tableName : undefined,
    );
    await keepResume(search, result);
  };
  // Pages an import missed stay with the saved search, so Resume works after the pane was closed.
  const keepResume = async (search: SavedSearchRecord, result: InsertOutcome | undefined) => {
    if (!result?.table) return;
    if (result.table.tableName === search.tableName && !result.resume && !search.pendingImport) return;
    await saved.update(search.id, { tableName: result.table.tableName, pendingImport: result.resume });
  };
  const resume = async (search: SavedSearchRecord, state: ResumeState) => keepResume(search, await runner.resume(state));

  if (saved.problem) return <p role="alert">{saved.problem}</p>;
  if (saved.list.length === 0) return <p>No saved searches in this workbook yet. Save one from the Companies or Contacts tab.</p>;
  return (
    <section aria-label="Saved searches">
      <ul style={{ listStyle: "none", padding: 0 }}>
        {saved.list.map((s) =>
          isMorningList(s) ? (
            <li key={s.id} className={styles.item}>
              <MorningListItem search={s} onDelete={() => void remove(s)} />
            </li>
          ) : (
            <li key={s.id} className={styles.item}>
              <strong>{s.name}</strong>
              <div className={styles.meta}>
                {s.kind === "company" ? "Companies" : "Contacts"} · {plural(Object.keys(s.filters).length, "filter")} · {plural(s.columns.length, "column")}
                {s.tableName ? ` · table ${s.tableName}` : ""}
              </div>
              <div className={styles.actions}>
                <Button
                  size="small"
                  appearance="primary"
                  disabled={runner.busy}
                  onClick={() => void run(s, false)}
                  aria-label={`Run ${s.name} into a new sheet`}
                >
                  Run
                </Button>
                {s.tableName && (
                  <Button size="small" disabled={runner.busy} onClick={() => void run(s, true)} aria-label={`Refresh the table of ${s.name}`}>
                    Refresh
                  </Button>
                )}
                {s.pendingImport && (
                  <Button size="small" disabled={runner.busy} onClick={() => void resume(s, s.pendingImport!)} aria-label={`Resume the import of ${s.name}`}>
                    Resume
                  </Button>
                )}
                <Button size="small" disabled={runner.busy} onClick={() => onEdit(s)} aria-label={`Open ${s.name} in the form`}>
                  Open
                </Button>
                <Button size="small" disabled={runner.busy} onClick={() => setRenaming({ id: s.id, name: s.name })} aria-label={`Rename ${s.name}`}>
                  Rename
                </Button>
                <Button size="small" disabled={runner.busy} onClick={() => void remove(s)} aria-label={`Delete ${s.name}`}>
                  Delete
                </Button>
              </div>
              {renaming?.id === s.id && (
                <form
                  className={styles.actions}
                  onSubmit={(e) => {
                    e.preventDefault();
                    void rename();
                  }}
                >
                  <Field label="New name" validationState={renaming.problem ? "error" : "none"} validationMessage={renaming.problem}>
                    <Input value={renaming.name} onChange={(_, d) => setRenaming({ id: s.id, name: d.value })} />
                  </Field>
                  <Button size="small" appearance="primary" type="submit">
                    Save name
                  </Button>
                  <Button size="small" onClick={() => setRenaming(undefined)}>
                    Cancel
                  </Button>
                </form>
              )}
            </li>
          ),
        )}
      </ul>
      {runner.progress && <ProgressView progress={runner.progress} noun="rows" onCancel={runner.cancel} />}
      {runner.outcome && <OutcomeMessage outcome={runner.outcome} />}
      {runner.dialog}
      {confirm.dialog}
    </section>
  );
}
