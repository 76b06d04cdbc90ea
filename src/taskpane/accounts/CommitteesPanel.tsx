// Buying committees in the Accounts tab (docs/accounts.md): the selected accounts (ids, websites
// or names) and the departments ticked from the lookup; the estimate first (a credit per account
// request, accounts already fetched free), then the run with progress and Cancel, and the people
// by tier inserted as a table with their account. Contact details come after, for the people
// ticked, through the contact enrichment with its own estimate (ContactDetailsPart).
import { useMemo } from "react";
import { Button, makeStyles } from "@fluentui/react-components";
import { ColumnCheckboxes, toggledKeys } from "../ColumnCheckboxes.js";
import { useConfirm } from "../ConfirmDialog.js";
import { errorText } from "../errorText.js";
import { Notice } from "../Notice.js";
import { EstimateConfirm } from "../run/EstimateConfirm.js";
import { countOf, RunProgress } from "../run/RunProgress.js";
import { useServices } from "../services.js";
import { matchingCredits, resolveCompanies, selectedCompanies } from "../research/companyInputs.js";
import { insertAndSay, useReveal, useSelectionSource } from "../research/researchParts.js";
import { committeeRows, COMMITTEE_COLUMNS } from "./committeeTable.js";
import { ContactDetailsPart } from "./ContactDetailsPart.js";
import { useCommittees, type CommitteeSources } from "./useCommittees.js";

const useStyles = makeStyles({
  row: { display: "flex", gap: "8px", marginTop: "8px", alignItems: "end", flexWrap: "wrap" },
  section: { minWidth: 0, overflowWrap: "anywhere" },
});

const count = (n: number) => n.toLocaleString("en-US");

/** The committee sources of the signed-in runtime: its client, the committee store, the match of websites and names. */
export function useCommitteeSources(): CommitteeSources {
  const { runtime } = useServices();
  return useMemo(
    () => ({
      client: runtime.client,
      store: runtime.committees,
      departments: async () => (await runtime.client.lookup("departments")).map((item) => item.attributes.name),
      matchCredits: (toMatch) => matchingCredits(runtime.engine, toMatch),
      resolve: (inputs) => resolveCompanies(runtime.engine, inputs),
    }),
    [runtime],
  );
}

export function CommitteesPanel({ sources }: { sources: CommitteeSources }) {
  const styles = useStyles();
  const services = useServices();
  const source = useSelectionSource();
  const confirm = useConfirm();
  const outcome = useReveal<HTMLDivElement>();
  const c = useCommittees(sources);

  const start = async () => {
    c.setMessage(undefined);
    try {
      const read = await selectedCompanies(source);
      if (!read.ok) return c.setMessage({ intent: "warning", text: read.message });
      await c.estimate(read.inputs);
    } catch (error) {
      c.setMessage({ intent: "error", text: errorText(error) });
    }
  };

  const insert = async () => {
    if (!c.people) return;
    const request = { workbook: services.workbook, sheetName: "Committees", tableName: "Buying_committees", columns: COMMITTEE_COLUMNS, ask: confirm.ask };
    await insertAndSay({ ...request, rows: committeeRows(c.people) }, "people", c.setMessage);
    outcome.reveal();
  };

  return (
    <section aria-label="Buying committees" className={styles.section}>
      <p>Select the cells of your accounts (ids, websites or names) and tick the departments. Each account costs one credit; one fetched before is free.</p>
      {c.departments && (
        <ColumnCheckboxes
          legend={`Departments (${count(c.chosen.length)} chosen)`}
          options={c.departments.map((name) => ({ key: name, label: name }))}
          chosen={c.chosen}
          onToggle={(key, checked) => c.setChosen(toggledKeys(c.chosen, key, checked))}
          disabled={c.running}
          scroll
          arrowKeys
        />
      )}
      <div className={styles.row}>
        <Button appearance="primary" disabled={c.running || c.departments === undefined} onClick={() => void start()}>
          Estimate committees
        </Button>
      </div>
      {c.pending && (
        <EstimateConfirm
          label="Committee estimate"
          testId="committee-estimate"
          confirmLabel="Get committees"
          onConfirm={() => void c.confirm()}
          onCancel={c.cancelEstimate}
        >
          <Notice intent="info">{c.pending.text}</Notice>
        </EstimateConfirm>
      )}
      {c.running && c.progress && (
        <RunProgress
          label={countOf(c.progress.done, c.progress.total, "accounts")}
          done={c.progress.done}
          total={c.progress.total}
          barLabel="Committee progress"
          onCancel={c.cancel}
        />
      )}
      {c.message && (
        <div ref={outcome.ref} tabIndex={-1}>
          <Notice intent={c.message.intent} role={c.message.intent === "error" ? "alert" : "status"} testId="committee-message">
            {c.message.text}
          </Notice>
        </div>
      )}
      {c.people && c.people.length > 0 && (
        <>
          <div className={styles.row}>
            <Button appearance="primary" onClick={() => void insert()}>
              Insert {count(c.people.length)} people into sheet
            </Button>
          </div>
          <ContactDetailsPart people={c.people} engine={services.runtime.engine} />
        </>
      )}
      {confirm.dialog}
    </section>
  );
}
