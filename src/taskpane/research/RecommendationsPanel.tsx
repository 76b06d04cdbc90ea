// Recommended contacts: the selected accounts (ids, websites or names) and a use case -> a table
// of the people to talk to, each row linked to its account (account id, rank, contact id, name,
// job title, company, score, brief). Free: one request per account, with progress and Cancel, and
// a contact search by id for the names the answer lacks. Websites and names are matched first,
// which may cost credits: then the estimate is confirmed first.
import { useState } from "react";
import { Button, Field, Input, Select, makeStyles } from "@fluentui/react-components";
import {
  chosenColumns,
  contactRows,
  CONTACT_RECOMMENDATION_COLUMNS,
  USE_CASES,
  withContactNames,
  type AccountContact,
  type ListProgress,
  type Research,
  type UseCase,
} from "../../core/research/index.js";
import type { EnrichmentEngine } from "../../core/enrich/index.js";
import { useConfirm } from "../ConfirmDialog.js";
import { errorText } from "../errorText.js";
import { Notice } from "../Notice.js";
import { useRun } from "../run/useRun.js";
import { useServices } from "../services.js";
import { matchingCredits, matchingText, missesText, resolveCompanies, selectedCompanies, type CompanyInputs } from "./companyInputs.js";
import { failuresText } from "./outcomeText.js";
import { ColumnChoice, defaultKeys, ResearchEstimate, insertAndSay, ListProgressView, useReveal, useSelectionSource } from "./researchParts.js";
import { EARLIER, type Message } from "./useBriefings.js";

const useStyles = makeStyles({
  row: { display: "flex", gap: "8px", marginTop: "8px", alignItems: "end", flexWrap: "wrap" },
});

const count = (n: number) => n.toLocaleString("en-US");

export function RecommendationsPanel({ research, engine }: { research: Research; engine: EnrichmentEngine }) {
  const styles = useStyles();
  const services = useServices();
  const source = useSelectionSource();
  const confirm = useConfirm();
  const outcome = useReveal<HTMLDivElement>();
  const [useCase, setUseCase] = useState<UseCase>("PROSPECTING");
  const [sizeText, setSizeText] = useState("5");
  const [keys, setKeys] = useState(() => defaultKeys(CONTACT_RECOMMENDATION_COLUMNS));
  const [pending, setPending] = useState<{ inputs: CompanyInputs; summary: string } | undefined>();
  const runner = useRun<ListProgress>();
  const [contacts, setContacts] = useState<AccountContact[] | undefined>();
  const [message, setMessage] = useState<Message | undefined>();
  const size = Number(sizeText);
  const sizeOk = Number.isSafeInteger(size) && size >= 1 && size <= 100;

  /** The contacts' names from a free contact search; without them (it failed) the ids stay and the message says so. */
  const namesOf = async (found: AccountContact[], signal: AbortSignal) => {
    if (found.length === 0) return { contacts: found, note: "" };
    try {
      return { contacts: await withContactNames(found, (f, o) => services.runtime.client.searchContacts(f, o), signal), note: "" };
    } catch (error) {
      return { contacts: found, note: ` Their names could not be read (${errorText(error)}): the table has their contact ids.` };
    }
  };

  const run = (inputs: CompanyInputs) => {
    setPending(undefined);
    return runner.start(({ signal, report }) => recommend(inputs, signal, report), { done: 0, total: inputs.ids.length + inputs.toMatch.length });
  };

  /** The run's work: accounts matched, their recommendations with progress, the contacts' names, and the outcome said. */
  const recommend = async (inputs: CompanyInputs, signal: AbortSignal, onProgress: (progress: ListProgress) => void) => {
    try {
      const resolved = await resolveCompanies(engine, inputs);
      const result = await research.recommendations({ accounts: resolved.ids, useCase, size, signal, onProgress });
      // A run where no account answered leaves the contacts shown in place.
      const kept = result.accountsAsked === result.failures.length && contacts !== undefined;
      const named = await namesOf(result.contacts, signal);
      if (result.accountsAsked > result.failures.length) setContacts(named.contacts);
      const failed = failuresText(
        "No answer for",
        result.failures.map((f) => ({ item: f.accountId, error: f.error })),
      );
      const text = `${result.cancelled ? "Cancelled: " : ""}${count(result.contacts.length)} recommended contacts at ${count(result.accountsAsked)} ${result.accountsAsked === 1 ? "account" : "accounts"}.${failed}${named.note}${missesText(resolved.misses)}${kept ? EARLIER : ""}`;
      setMessage({ intent: failed || named.note || resolved.misses.length > 0 ? "warning" : "success", text });
    } catch (error) {
      setMessage({ intent: "error", text: errorText(error) });
    }
  };

  const start = async () => {
    setMessage(undefined);
    try {
      const read = await selectedCompanies(source);
      if (!read.ok) return setMessage({ intent: "warning", text: read.message });
      const credits = await matchingCredits(engine, read.inputs.toMatch);
      if (credits === 0) return await run(read.inputs);
      const accounts = read.inputs.ids.length + read.inputs.toMatch.length;
      setPending({
        inputs: read.inputs,
        summary: `${count(accounts)} ${accounts === 1 ? "account" : "accounts"}: recommendations are free (one request per account).${matchingText(read.inputs.toMatch.length, credits, "website or name", ["account", "accounts"])}`,
      });
    } catch (error) {
      setMessage({ intent: "error", text: errorText(error) });
    }
  };

  const insert = async () => {
    if (!contacts) return;
    const columns = chosenColumns(CONTACT_RECOMMENDATION_COLUMNS, keys);
    const rows = contactRows(contacts, columns);
    await insertAndSay(
      { workbook: services.workbook, sheetName: "Contacts", tableName: "Recommended_contacts", columns, rows, ask: confirm.ask },
      "contacts",
      setMessage,
    );
    outcome.reveal();
  };

  return (
    <section aria-label="Recommended contacts">
      <p>
        Select the cells of your accounts (ids, websites or names) and choose a use case. Free: one request per account, and a search for the contacts&apos;
        names.
      </p>
      <div className={styles.row}>
        <Field label="Use case">
          <Select value={useCase} onChange={(_, d) => setUseCase(d.value as UseCase)}>
            {USE_CASES.map((u) => (
              <option key={u.value} value={u.value}>
                {u.label}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Contacts per account" validationMessage={sizeOk ? undefined : "1 to 100"}>
          <Input type="number" min={1} max={100} value={sizeText} onChange={(_, d) => setSizeText(d.value)} />
        </Field>
      </div>
      <div className={styles.row}>
        <Button appearance="primary" disabled={runner.running || !sizeOk} onClick={() => void start()}>
          Recommend contacts
        </Button>
      </div>
      {pending && (
        <ResearchEstimate
          summary={pending.summary}
          confirmLabel="Recommend"
          onConfirm={() => void run(pending.inputs)}
          onCancel={() => setPending(undefined)}
        />
      )}
      {runner.progress && <ListProgressView progress={runner.progress} noun="accounts" onCancel={runner.cancel} />}
      {message && (
        <div ref={outcome.ref} tabIndex={-1}>
          <Notice intent={message.intent} role={message.intent === "error" ? "alert" : "status"} testId="recommendations-message">
            {message.text}
          </Notice>
        </div>
      )}
      {contacts && contacts.length > 0 && (
        <>
          <ColumnChoice columns={CONTACT_RECOMMENDATION_COLUMNS} chosen={keys} onChange={setKeys} />
          <div className={styles.row}>
            <Button appearance="primary" onClick={() => void insert()}>
              Insert {count(contacts.length)} contacts into sheet
            </Button>
          </div>
        </>
      )}
      {confirm.dialog}
    </section>
  );
}
