// "Get contact details" under a fetched committee: the people to tick (each with their title and
// account, as text), the contact enrichment's own estimate confirmed first, its progress with
// Cancel, and the details inserted as a table with each person's account.
import { useState } from "react";
import { Button, makeStyles } from "@fluentui/react-components";
import type { OrgChartMember } from "../../core/api/hierarchyTypes.js";
import { ColumnCheckboxes, toggledKeys } from "../ColumnCheckboxes.js";
import { useConfirm } from "../ConfirmDialog.js";
import { Notice } from "../Notice.js";
import { EstimateConfirm } from "../run/EstimateConfirm.js";
import { countOf, RunProgress } from "../run/RunProgress.js";
import { useServices } from "../services.js";
import { insertAndSay } from "../research/researchParts.js";
import { CONTACT_DETAIL_COLUMNS, useContactDetails, type ContactDetailsEngine } from "./useContactDetails.js";

const useStyles = makeStyles({
  row: { display: "flex", gap: "8px", marginTop: "8px", alignItems: "end", flexWrap: "wrap" },
  people: { marginTop: "8px" },
});

const personLabel = (p: OrgChartMember) => `${p.firstName} ${p.lastName}, ${p.title} (${p.companyName})`;

export function ContactDetailsPart({ people, engine }: { people: readonly OrgChartMember[]; engine: ContactDetailsEngine }) {
  const styles = useStyles();
  const services = useServices();
  const confirm = useConfirm();
  const [picked, setPicked] = useState<string[]>([]);
  const d = useContactDetails(engine);
  const chosen = people.filter((p) => picked.includes(p.personId));

  const insert = async () => {
    if (!d.rows) return;
    const request = {
      workbook: services.workbook,
      sheetName: "Contact details",
      tableName: "Committee_contacts",
      columns: CONTACT_DETAIL_COLUMNS,
      ask: confirm.ask,
    };
    await insertAndSay({ ...request, rows: d.rows }, "people", d.setMessage);
  };

  return (
    <div>
      <ColumnCheckboxes
        className={styles.people}
        legend={`People for contact details (${chosen.length} chosen)`}
        options={people.map((p) => ({ key: p.personId, label: personLabel(p) }))}
        chosen={picked}
        onToggle={(key, checked) => setPicked(toggledKeys(picked, key, checked))}
        disabled={d.running}
        scroll
        arrowKeys
      />
      <div className={styles.row}>
        <Button disabled={d.running || chosen.length === 0} onClick={() => void d.estimate(chosen)}>
          Get contact details
        </Button>
      </div>
      {d.pending && (
        <EstimateConfirm
          label="Contact details estimate"
          testId="contact-details-estimate"
          confirmLabel="Get details"
          onConfirm={() => void d.confirm()}
          onCancel={d.cancelEstimate}
        >
          <Notice intent="info">{d.pending.text}</Notice>
        </EstimateConfirm>
      )}
      {d.running && d.progress && (
        <RunProgress
          label={countOf(d.progress.recordsDone, d.progress.recordsTotal, "people")}
          done={d.progress.recordsDone}
          total={d.progress.recordsTotal}
          barLabel="Contact details progress"
          onCancel={d.cancel}
        />
      )}
      {d.message && (
        <Notice intent={d.message.intent} role={d.message.intent === "error" ? "alert" : "status"} testId="contact-details-message">
          {d.message.text}
        </Notice>
      )}
      {d.rows && d.rows.length > 0 && (
        <div className={styles.row}>
          <Button appearance="primary" onClick={() => void insert()}>
            Insert {d.rows.length} contact details into sheet
          </Button>
        </div>
      )}
      {confirm.dialog}
    </div>
  );
}
