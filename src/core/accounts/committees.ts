// Buying committees for a list of accounts (docs/accounts.md): one org-chart request per account
// with every department asked in it, read to its last page, on the one bulk run (core/run), its
// people kept per account and department (committeeStore.ts) so a cell shows them for free. The
// estimate comes first: a credit per account request (the service charges the company once per
// request, however many people come back; its further pages cost nothing more), and an account
// whose every department is already kept is not asked again.
import { systemClock } from "../api/clock.js";
import type { HierarchyOperations, OrgChartMember } from "../api/hierarchyTypes.js";
import type { Clock } from "../contract/index.js";
import { failureOf } from "../errors/failure.js";
import { runBulk, type BulkProgress, type ItemOutcome } from "../run/index.js";
import { departmentKey, type CommitteeStore } from "./committeeStore.js";

export type CommitteeClient = Pick<HierarchyOperations, "orgChart">;

export interface CommitteePlan {
  /** The accounts that need a request (distinct, in order). */
  toFetch: number[];
  /** The accounts whose every department is already kept: free. */
  kept: number[];
  /** Requests and credits: one each per account to fetch. */
  requests: number;
  credits: number;
}

export interface FetchCommitteesOptions {
  signal?: AbortSignal;
  onProgress?: (progress: BulkProgress) => void;
  /** Ask again even for accounts already kept. */
  refresh?: boolean;
  /** Fetched-at times (default the system clock). */
  clock?: Pick<Clock, "now">;
}

export interface CommitteesResult {
  plan: CommitteePlan;
  /** Per account fetched: its people, or why it was refused or not sent. */
  outcomes: Map<number, ItemOutcome<OrgChartMember[]>>;
  cancelled: boolean;
}

const distinct = (accounts: readonly number[]) => [...new Set(accounts.filter((id) => Number.isSafeInteger(id) && id > 0))];
const distinctDepartments = (departments: readonly string[]) => [
  ...new Map(departments.filter((d) => d.trim() !== "").map((d) => [departmentKey(d), d.trim()])).values(),
];

/** No credits, no sign-in or no permission: every further account would be refused the same way. */
const stopsRun = (error: unknown): boolean => ["noCredits", "signIn", "forbidden"].includes(failureOf(error).reason);

/** What fetching costs: a request and a credit per account not already kept for every department. */
export async function estimateCommittees(
  store: CommitteeStore,
  accounts: readonly number[],
  departments: readonly string[],
  refresh = false,
): Promise<CommitteePlan> {
  const toFetch: number[] = [];
  const kept: number[] = [];
  const asked = distinctDepartments(departments);
  for (const account of distinct(accounts)) {
    const known = refresh ? [] : await Promise.all(asked.map((d) => store.get(account, d)));
    if (!refresh && asked.length > 0 && known.every(Boolean)) kept.push(account);
    else toFetch.push(account);
  }
  return { toFetch, kept, requests: toFetch.length, credits: toFetch.length };
}

/** Keeps each asked department's people of one account (an empty committee too, so a cell can say so). */
async function keep(store: CommitteeStore, account: number, departments: readonly string[], people: readonly OrgChartMember[], fetchedAt: number) {
  for (const department of departments) {
    const key = departmentKey(department);
    await store.put({ companyId: account, department, people: people.filter((p) => departmentKey(p.department) === key), fetchedAt });
  }
}

/**
 * Fetches the committees of `accounts` (company ids) in `departments` (names from the departments
 * lookup): one request per account, every page, on the bulk run; the store filled as each ends.
 */
export async function fetchCommittees(
  client: CommitteeClient,
  store: CommitteeStore,
  accounts: readonly number[],
  departments: readonly string[],
  options: FetchCommitteesOptions = {},
): Promise<CommitteesResult> {
  const asked = distinctDepartments(departments);
  if (asked.length === 0) throw new Error("Choose at least one department.");
  const plan = await estimateCommittees(store, accounts, asked, options.refresh);
  const clock = options.clock ?? systemClock;
  const run = await runBulk<number, OrgChartMember[]>(
    plan.toFetch,
    async (batch, call) => {
      const account = batch.items[0]!;
      const people = await client.orgChart({ companyId: account, departments: asked }, call);
      await keep(store, account, asked, people, clock.now());
      return [people];
    },
    { cap: 1, stopsRun, ...(options.signal ? { signal: options.signal } : {}), ...(options.onProgress ? { onProgress: options.onProgress } : {}) },
  );
  const outcomes = new Map(plan.toFetch.map((account, i) => [account, run.outcomes[i]!]));
  return { plan, outcomes, cancelled: run.cancelled };
}
