// Lookalikes: the selected companies (ids, websites or names) -> one table of similar companies
// with rank, score and the seed each came from, merged and deduplicated, leaving out the seeds
// and the companies already in the sheet; free (one request per seed), progress and Cancel.
import { useState } from "react";
import { Button, Checkbox, Field, Input, makeStyles } from "@fluentui/react-components";
import { chosenColumns, lookalikeRows, LOOKALIKE_COLUMNS, type LookalikeFilters, type Research } from "../../core/research/index.js";
import type { EnrichmentEngine } from "../../core/enrich/index.js";
import { useConfirm } from "../ConfirmDialog.js";
import { Notice } from "../Notice.js";
import { useServices } from "../services.js";
import {
  ColumnChoice,
  defaultKeys,
  ResearchEstimate,
  insertAndSay,
  ListProgressView,
  useCompaniesInSheet,
  useReveal,
  useSelectionSource,
} from "./researchParts.js";
import { useLookalikes } from "./useLookalikes.js";

const useStyles = makeStyles({
  row: { display: "flex", gap: "8px", marginTop: "8px", alignItems: "end", flexWrap: "wrap" },
  list: { paddingLeft: "20px", overflowWrap: "anywhere" },
});

const FILTERS: { key: keyof LookalikeFilters; label: string }[] = [
  { key: "sameCountry", label: "Same country" },
  { key: "sameIndustry", label: "Same industry" },
  { key: "sameRevenueRange", label: "Same revenue range" },
  { key: "sameEmployeeRange", label: "Same employee range" },
];

export function LookalikesPanel({ research, engine }: { research: Research; engine: EnrichmentEngine }) {
  const styles = useStyles();
  const services = useServices();
  const source = useSelectionSource();
  const inSheet = useCompaniesInSheet();
  const l = useLookalikes(research, engine);
  const confirm = useConfirm();
  const outcome = useReveal<HTMLDivElement>();
  const [limitText, setLimitText] = useState("100");
  const [filters, setFilters] = useState<LookalikeFilters>({});
  const [keys, setKeys] = useState(() => defaultKeys(LOOKALIKE_COLUMNS));
  const busy = l.step.kind !== "idle";
  const limit = Number(limitText);
  const limitOk = Number.isSafeInteger(limit) && limit >= 1 && limit <= 1000;

  const insert = async () => {
    if (!l.found) return;
    const columns = chosenColumns(LOOKALIKE_COLUMNS, keys);
    const table = {
      workbook: services.workbook,
      sheetName: "Lookalikes",
      tableName: "Lookalikes",
      columns,
      rows: lookalikeRows(l.found, columns),
      ask: confirm.ask,
    };
    await insertAndSay(table, "companies", l.setMessage);
    outcome.reveal();
  };

  return (
    <section aria-label="Lookalikes">
      <p>Select the cells of your seed companies (ids, websites or names), then Find similar companies. Free: one request per seed company.</p>
      <div className={styles.row}>
        <Field label="How many companies (1 to 1,000)" validationMessage={limitOk ? undefined : "A whole number from 1 to 1,000"}>
          <Input type="number" min={1} max={1000} value={limitText} onChange={(_, d) => setLimitText(d.value)} />
        </Field>
      </div>
      <div>
        {FILTERS.map((f) => (
          <Checkbox
            key={f.key}
            label={f.label}
            checked={filters[f.key] === true}
            onChange={(_, d) => setFilters({ ...filters, [f.key]: d.checked === true })}
          />
        ))}
      </div>
      <div className={styles.row}>
        <Button appearance="primary" disabled={busy || !limitOk} onClick={() => void l.start(source, inSheet, limit, filters)}>
          Find similar companies
        </Button>
      </div>
      {l.step.kind === "estimate" && (
        <ResearchEstimate summary={l.step.summary} confirmLabel="Find them" onConfirm={() => void l.confirm(limit, filters)} onCancel={l.dismiss} />
      )}
      {l.step.kind === "running" && <ListProgressView progress={l.step.progress} noun="seed companies" onCancel={l.cancel} />}
      {l.message && (
        <div ref={outcome.ref} tabIndex={-1}>
          <Notice intent={l.message.intent} role={l.message.intent === "error" ? "alert" : "status"} testId="lookalikes-message">
            {l.message.text}
          </Notice>
        </div>
      )}
      {l.found && l.found.length > 0 && (
        <>
          <ol className={styles.list} aria-label="Most similar companies">
            {l.found.slice(0, 5).map((c) => (
              <li key={c.companyId}>
                {c.companyName} ({c.score.toFixed(2)}; like {c.seeds.join(", ")})
              </li>
            ))}
          </ol>
          <ColumnChoice columns={LOOKALIKE_COLUMNS} chosen={keys} onChange={setKeys} />
          <div className={styles.row}>
            <Button appearance="primary" onClick={() => void insert()}>
              Insert {l.found.length.toLocaleString("en-US")} companies into sheet
            </Button>
          </div>
        </>
      )}
      {confirm.dialog}
    </section>
  );
}
