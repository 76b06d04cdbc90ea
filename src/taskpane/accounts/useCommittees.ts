// The Accounts tab's buying committees (docs/accounts.md): the departments from the service's
// lookup, the accounts of the selection, the estimate said first (a credit per account request,
// accounts already fetched free, websites and names matched first), then on Confirm the one bulk
// run (core/accounts fetchCommittees) on the pane's one run hook, with progress and Cancel, and
// the people by tier with their account, read back from the committee store (kept ones too).
import { useEffect, useState } from "react";
import { estimateCommittees, fetchCommittees, type CommitteeClient, type CommitteeStore } from "../../core/accounts/index.js";
import type { OrgChartMember } from "../../core/api/hierarchyTypes.js";
import type { BulkProgress } from "../../core/run/index.js";
import { errorText } from "../errorText.js";
import type { CompanyInputs, ResolvedCompanies } from "../research/companyInputs.js";
import { matchingText, missesText } from "../research/companyInputs.js";
import type { Message } from "../research/useBriefings.js";
import { useRun } from "../run/useRun.js";
import { committeeEstimateText, committeeOutcomeText, committeePeople } from "./committeeTable.js";

export interface CommitteeSources {
  client: CommitteeClient;
  store: CommitteeStore;
  /** The names of the departments lookup. */
  departments(): Promise<string[]>;
  /** Credits matching these websites and names may spend at most. */
  matchCredits(toMatch: readonly string[]): Promise<number>;
  /** The inputs' company ids (websites and names matched). */
  resolve(inputs: CompanyInputs): Promise<ResolvedCompanies>;
}

export interface CommitteeEstimate {
  inputs: CompanyInputs;
  departments: string[];
  text: string;
}

const numericIds = (ids: readonly string[]) => ids.map(Number).filter((id) => Number.isSafeInteger(id) && id > 0);

/** Every asked department's people of each account, from the store (fetched now or before). */
async function storedPeople(store: CommitteeStore, accounts: readonly number[], departments: readonly string[]): Promise<OrgChartMember[]> {
  const byAccount = await Promise.all(
    accounts.map(async (account) => {
      const kept = await Promise.all(departments.map((d) => store.get(account, d)));
      const people = kept.flatMap((c) => c?.people ?? []);
      return [...new Map(people.map((p) => [`${p.personId}|${p.department}`, p])).values()];
    }),
  );
  return committeePeople(byAccount);
}

function useDepartments(sources: CommitteeSources, say: (m: Message) => void) {
  const [departments, setDepartments] = useState<string[] | undefined>();
  useEffect(() => {
    let live = true;
    sources.departments().then(
      (names) => live && setDepartments(names),
      (error: unknown) => live && say({ intent: "error", text: `The departments could not be read: ${errorText(error)}` }),
    );
    return () => {
      live = false;
    };
  }, [sources]);
  return departments;
}

export function useCommittees(sources: CommitteeSources) {
  const [message, setMessage] = useState<Message | undefined>();
  const departments = useDepartments(sources, setMessage);
  const [chosen, setChosen] = useState<string[]>([]);
  const [pending, setPending] = useState<CommitteeEstimate | undefined>();
  const [people, setPeople] = useState<OrgChartMember[] | undefined>();
  const runner = useRun<BulkProgress>();

  /** The estimate for the accounts given, in the departments chosen: nothing is sent that costs. */
  const estimate = async (inputs: CompanyInputs) => {
    setMessage(undefined);
    if (chosen.length === 0) return setMessage({ intent: "warning", text: "Choose at least one department." });
    try {
      const plan = await estimateCommittees(sources.store, numericIds(inputs.ids), chosen);
      const matching = await sources.matchCredits(inputs.toMatch);
      const note = matchingText(inputs.toMatch.length, matching, "website or name", ["account", "accounts"]);
      setPending({ inputs, departments: [...chosen], text: committeeEstimateText(plan, chosen.length, inputs.toMatch.length) + note });
    } catch (error) {
      setMessage({ intent: "error", text: errorText(error) });
    }
  };

  const work = async (asked: CommitteeEstimate, signal: AbortSignal, report: (p: BulkProgress) => void) => {
    try {
      const resolved = await sources.resolve(asked.inputs);
      const accounts = numericIds(resolved.ids);
      const result = await fetchCommittees(sources.client, sources.store, accounts, asked.departments, { signal, onProgress: report });
      const found = await storedPeople(sources.store, accounts, asked.departments);
      setPeople(found);
      const said = committeeOutcomeText(result, found.length);
      const misses = missesText(resolved.misses);
      setMessage({ intent: misses ? "warning" : said.intent, text: said.text + misses });
    } catch (error) {
      setMessage({ intent: "error", text: errorText(error) });
    }
  };

  /** Confirm: the run, with its progress and Cancel. */
  const confirm = async () => {
    const asked = pending;
    if (!asked) return;
    setPending(undefined);
    const total = asked.inputs.ids.length + asked.inputs.toMatch.length;
    await runner.start(({ signal, report }) => work(asked, signal, report), { done: 0, total, requests: 0 });
  };

  return {
    departments,
    chosen,
    setChosen,
    pending,
    estimate,
    confirm,
    cancelEstimate: () => setPending(undefined),
    running: runner.running,
    progress: runner.progress,
    cancel: runner.cancel,
    people,
    message,
    setMessage,
  };
}
