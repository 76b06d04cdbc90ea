// "Get contact details" for the committee people the user picks (docs/accounts.md): the existing
// contact enrichment (the engine: cached, counted in the daily cap and the plan) on their person
// ids, its own estimate said first (credits for people new to the account, the cached and those
// under management free), then the run with progress and Cancel, the details laid out as rows with
// each person's account.
import { useState } from "react";
import type { OrgChartMember } from "../../core/api/hierarchyTypes.js";
import type { EnrichIdsProgress, EnrichmentEngine } from "../../core/enrich/index.js";
import type { CellValue, ColumnSpec } from "../../core/sheet/index.js";
import { errorText } from "../errorText.js";
import type { Message } from "../research/useBriefings.js";
import { useRun } from "../run/useRun.js";

export type ContactDetailsEngine = Pick<EnrichmentEngine, "planInputs" | "enrichIds">;

/** The contact fields asked. */
export const CONTACT_DETAIL_FIELDS = ["email", "phone", "mobilePhone"] as const;

const column = (key: string, header: string, type: ColumnSpec["type"] = "text"): ColumnSpec => ({ key, header, type, path: key, byDefault: true });

export const CONTACT_DETAIL_COLUMNS: readonly ColumnSpec[] = [
  column("personId", "Person id", "integer"),
  column("firstName", "First name"),
  column("lastName", "Last name"),
  column("title", "Job title"),
  column("companyId", "Account id", "integer"),
  column("companyName", "Account"),
  column("email", "Email"),
  column("phone", "Phone"),
  column("mobilePhone", "Mobile phone"),
];

const count = (n: number) => n.toLocaleString("en-US");
const plural = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;
const idOf = (text: string) => (/^[0-9]{1,15}$/.test(text) ? Number(text) : undefined);

interface Pending {
  people: OrgChartMember[];
  text: string;
}

/** The details of one person as a row; a person the service did not answer for keeps empty details. */
const detailRow = (p: OrgChartMember, values: readonly CellValue[] | undefined): CellValue[] => [
  idOf(p.personId) ?? p.personId,
  p.firstName,
  p.lastName,
  p.title,
  idOf(p.companyId) ?? p.companyId,
  p.companyName,
  ...CONTACT_DETAIL_FIELDS.map((_, i) => values?.[i] ?? ""),
];

export function useContactDetails(engine: ContactDetailsEngine) {
  const [pending, setPending] = useState<Pending | undefined>();
  const [rows, setRows] = useState<CellValue[][] | undefined>();
  const [message, setMessage] = useState<Message | undefined>();
  const runner = useRun<EnrichIdsProgress>();

  const estimate = async (people: readonly OrgChartMember[]) => {
    setMessage(undefined);
    const chosen = people.filter((p) => idOf(p.personId) !== undefined);
    if (chosen.length === 0) return setMessage({ intent: "warning", text: "Tick the people whose contact details you want." });
    try {
      const plan = await engine.planInputs(
        "contact",
        chosen.map((p) => idOf(p.personId)!),
        [...CONTACT_DETAIL_FIELDS],
      );
      const free = plan.cachedCount + plan.underManagementCount;
      const cost = plan.maxCredits === 0 ? "no credits" : `up to ${plural(plan.maxCredits, "credit", "credits")}`;
      const text = `Contact details of ${plural(chosen.length, "person", "people")}: ${cost}${free > 0 ? `; ${count(free)} free (fetched before or already yours)` : ""}.`;
      setPending({ people: chosen, text });
    } catch (error) {
      setMessage({ intent: "error", text: errorText(error) });
    }
  };

  const work = async (people: OrgChartMember[], signal: AbortSignal, report: (p: EnrichIdsProgress) => void) => {
    try {
      const ids = people.map((p) => idOf(p.personId)!);
      const answers = await engine.enrichIds("contact", ids, [...CONTACT_DETAIL_FIELDS], { signal, onProgress: report });
      const results = people.map((p) => answers.get(idOf(p.personId)!));
      const missing = results.filter((r) => !r?.ok).length;
      setRows(people.map((p, i) => detailRow(p, results[i]?.ok ? results[i].values : undefined)));
      const note = missing > 0 ? ` No details for ${plural(missing, "person", "people")}.` : "";
      setMessage({
        intent: missing > 0 || signal.aborted ? "warning" : "success",
        text: `${signal.aborted ? "Cancelled: " : ""}Contact details of ${plural(people.length - missing, "person", "people")}.${note}`,
      });
    } catch (error) {
      setMessage({ intent: "error", text: errorText(error) });
    }
  };

  const confirm = async () => {
    const asked = pending;
    if (!asked) return;
    setPending(undefined);
    const first = { recordsDone: 0, recordsTotal: asked.people.length, requestsDone: 0, requestsTotal: 0 };
    await runner.start(({ signal, report }) => work(asked.people, signal, report), first);
  };

  return {
    pending,
    estimate,
    confirm,
    cancelEstimate: () => setPending(undefined),
    running: runner.running,
    progress: runner.progress,
    cancel: runner.cancel,
    rows,
    message,
    setMessage,
  };
}
