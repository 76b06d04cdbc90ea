// The Accounts tab's buying committees in words and cells (docs/accounts.md): the estimate said
// before anything is sent (a credit per account request, accounts already fetched free), the
// outcome of a run, and the people by tier as table rows, each with the account it belongs to.
// Pure: the hook (useCommittees.ts) reads the store and the view shows the words.
import { topByTier, type CommitteePlan, type CommitteesResult } from "../../core/accounts/index.js";
import type { OrgChartMember } from "../../core/api/hierarchyTypes.js";
import { failureOf } from "../../core/errors/failure.js";
import type { ItemOutcome } from "../../core/run/index.js";
import type { CellValue, ColumnSpec } from "../../core/sheet/index.js";
import { errorText } from "../errorText.js";

const count = (n: number) => n.toLocaleString("en-US");
const plural = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;

const column = (key: string, header: string, type: ColumnSpec["type"] = "text"): ColumnSpec => ({ key, header, type, path: key, byDefault: true });

/** The committee table's columns: the account first, then the person by tier. */
export const COMMITTEE_COLUMNS: readonly ColumnSpec[] = [
  column("companyId", "Account id", "integer"),
  column("companyName", "Account"),
  column("department", "Department"),
  column("tier", "Tier", "integer"),
  column("subTier", "Sub-tier", "integer"),
  column("personId", "Person id", "integer"),
  column("firstName", "First name"),
  column("lastName", "Last name"),
  column("title", "Job title"),
  column("hasEmail", "Email known", "boolean"),
  column("hasDirectPhone", "Direct phone known", "boolean"),
];

/** The people of every account, account by account (in the order given), each account's people by tier. */
export function committeePeople(byAccount: readonly (readonly OrgChartMember[])[]): OrgChartMember[] {
  return byAccount.flatMap((people) => topByTier(people, people.length));
}

const idCell = (text: string): CellValue => (/^[0-9]{1,15}$/.test(text) ? Number(text) : text);

/** One row per person, in COMMITTEE_COLUMNS' order; the service's strings stay text. */
export function committeeRows(people: readonly OrgChartMember[]): CellValue[][] {
  return people.map((p) => [
    idCell(p.companyId),
    p.companyName,
    p.department,
    p.tier,
    p.subTier,
    idCell(p.personId),
    p.firstName,
    p.lastName,
    p.title,
    p.hasEmail,
    p.hasDirectPhone,
  ]);
}

/** What fetching costs, said first: "3 accounts in 2 departments: 2 credits (one per account); 1 already fetched (free)." */
export function committeeEstimateText(plan: CommitteePlan, departments: number, toMatch = 0): string {
  const accounts = plan.toFetch.length + plan.kept.length + toMatch;
  const requests = plan.requests + toMatch;
  const cost = requests === 0 ? "no credits" : `up to ${plural(requests, "credit", "credits")} (one per account)`;
  const kept = plan.kept.length > 0 ? `; ${count(plan.kept.length)} already fetched (free)` : "";
  return `${plural(accounts, "account", "accounts")} in ${plural(departments, "department", "departments")}: ${cost}${kept}.`;
}

/** How a run went: people found, accounts refused (with why), those a cancel or a stop left unasked. */
export function committeeOutcomeText(result: CommitteesResult, people: number): { intent: "success" | "warning"; text: string } {
  const stoppedByCancel = (o: ItemOutcome<unknown>) => o.status === "notSent" || (o.status === "refused" && failureOf(o.reason).reason === "cancelled");
  const refused = [...result.outcomes].filter(([, o]) => o.status === "refused" && !stoppedByCancel(o));
  const notSent = [...result.outcomes].filter(([, o]) => stoppedByCancel(o)).length;
  const refusedText = refused.map(([id, o]) => ` Account ${id}: ${errorText(o.status === "refused" ? o.reason : undefined)}`).join("");
  const notSentText = notSent > 0 ? ` ${plural(notSent, "account was", "accounts were")} not asked.` : "";
  const text = `${result.cancelled ? "Cancelled: " : ""}${plural(people, "person", "people")} found.${refusedText}${notSentText}`;
  return { intent: refused.length + notSent > 0 || result.cancelled ? "warning" : "success", text };
}
