// A morning list in Saved searches ("Insights for my accounts", docs/signals.md): Refresh asks its
// accounts for the day's insights again and rewrites its table's rows in place (the columns the
// user added to its right stay), the insights not seen at the previous refresh marked New; the
// run shows its progress with Cancel. Delete forgets the list (its table stays in the sheet).
import { useState } from "react";
import { Button, makeStyles, tokens } from "@fluentui/react-components";
import type { BulkProgress } from "../../core/run/index.js";
import type { InsightList, SavedSearchRecord } from "../../core/search/savedSearchSchema.js";
import { useConfirm } from "../ConfirmDialog.js";
import { errorText } from "../errorText.js";
import { Notice } from "../Notice.js";
import { countOf, RunProgress } from "../run/RunProgress.js";
import { useRun } from "../run/useRun.js";
import { useServices } from "../services.js";
import { INSIGHTS_ARE_FREE, insightOutcomeText, refreshMorningList, type RefreshedList } from "../signals/insightTables.js";
import { useSavedSearches } from "./useSavedSearches.js";

const useStyles = makeStyles({
  actions: { display: "flex", gap: "8px", flexWrap: "wrap" },
  meta: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
});

const plural = (n: number, noun: string) => `${n.toLocaleString("en-US")} ${noun}${n === 1 ? "" : "s"}`;

type MorningList = SavedSearchRecord & { insights: InsightList; tableName: string };

export function isMorningList(search: SavedSearchRecord): search is MorningList {
  return search.insights !== undefined && search.tableName !== undefined;
}

export function MorningListItem({ search, onDelete }: { search: MorningList; onDelete(): void }) {
  const styles = useStyles();
  const { runtime, workbook } = useServices();
  const saved = useSavedSearches();
  const confirm = useConfirm();
  const run = useRun<BulkProgress, RefreshedList>();
  const [message, setMessage] = useState<{ intent: "success" | "error"; text: string } | undefined>();

  const refresh = async () => {
    setMessage(undefined);
    try {
      const done = await run.start(({ signal, report }) => refreshMorningList(runtime.insights, workbook, search, { signal, onProgress: report }, confirm.ask));
      if (!done) return;
      await saved.update(search.id, { insights: done.insights, savedAt: new Date().toISOString() });
      setMessage({ intent: "success", text: insightOutcomeText(done.result, done.table, done.fresh) });
    } catch (error) {
      setMessage({ intent: "error", text: errorText(error) });
    }
  };

  return (
    <>
      <strong>{search.name}</strong>
      <div className={styles.meta}>
        Insights · {plural(search.insights.accounts.length, "account")} · {plural(search.insights.types.length, "signal")} · table {search.tableName}
      </div>
      <div className={styles.actions}>
        <Button
          size="small"
          appearance="primary"
          disabled={run.running}
          onClick={() => void refresh()}
          aria-label={`Refresh ${search.name} with today's insights`}
        >
          Refresh
        </Button>
        <Button size="small" disabled={run.running} onClick={onDelete} aria-label={`Delete ${search.name}`}>
          Delete
        </Button>
      </div>
      <div className={styles.meta}>{INSIGHTS_ARE_FREE}</div>
      {run.running && run.progress && (
        <RunProgress
          label={countOf(run.progress.done, run.progress.total, "accounts")}
          done={run.progress.done}
          total={run.progress.total}
          barLabel="Refresh progress"
          onCancel={run.cancel}
        />
      )}
      {message && (
        <Notice intent={message.intent} role={message.intent === "error" ? "alert" : "status"} testId="morning-list-message">
          {message.text}
        </Notice>
      )}
      {confirm.dialog}
    </>
  );
}
