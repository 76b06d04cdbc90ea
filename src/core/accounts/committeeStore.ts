// Buying committees already fetched (docs/accounts.md), kept in the user's storage (the one
// key-value port) like briefings, so they survive a reload and a cell shows them for free: keyed
// by the profile and user (the caller's scope), the company and the department (by its name, in
// any case). A stored entry is checked when read back; anything damaged counts as none.
import { Type, type Static } from "@sinclair/typebox";
import { compiledCheck } from "../contract/index.js";
import type { OrgChartMember } from "../api/hierarchyTypes.js";
import { jsonItems } from "../storage/jsonItems.js";
import type { KeyValueItems } from "../storage/keyValue.js";

const Member = Type.Object({
  personId: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  title: Type.String(),
  department: Type.String(),
  jobFunction: Type.String(),
  tier: Type.Number(),
  subTier: Type.Number(),
  hasEmail: Type.Boolean(),
  hasDirectPhone: Type.Boolean(),
  accuracy: Type.Optional(Type.Number()),
  companyId: Type.String(),
  companyName: Type.String(),
});

const StoredCommitteeSchema = Type.Object({
  companyId: Type.Integer({ minimum: 1 }),
  department: Type.String({ minLength: 1 }),
  people: Type.Array(Member),
  /** When it was fetched, ms since the epoch. */
  fetchedAt: Type.Number(),
});

export type StoredCommittee = Static<typeof StoredCommitteeSchema> & { people: OrgChartMember[] };

const isStoredCommittee = (value: unknown): value is StoredCommittee => compiledCheck(StoredCommitteeSchema).Check(value);

export const COMMITTEE_KEY_PREFIX = "bizdata.accounts.committee";

/** A department's name as the store keys it: trimmed, in lower case. */
export const departmentKey = (department: string): string => department.trim().toLowerCase();

export interface CommitteeStore {
  get(companyId: number, department: string): Promise<StoredCommittee | undefined>;
  put(committee: StoredCommittee): Promise<void>;
}

/** `scope` names the profile and user at the time of the call (it changes with the signed-in user). */
export function createCommitteeStore(storage: KeyValueItems, scope: () => string): CommitteeStore {
  const items = jsonItems(storage, isStoredCommittee);
  const keyOf = (companyId: number, department: string) => `${COMMITTEE_KEY_PREFIX}|${scope()}|${companyId}|${departmentKey(department)}`;
  return {
    get: (companyId, department) =>
      items.get(keyOf(companyId, department), (value) => value.companyId === companyId && departmentKey(value.department) === departmentKey(department)),
    put: (committee) => items.put(keyOf(committee.companyId, committee.department), committee),
  };
}

/** The committee's people by tier (then sub-tier, accuracy, last name), the first `n`. */
export function topByTier(people: readonly OrgChartMember[], n: number): OrgChartMember[] {
  return [...people]
    .sort((a, b) => a.tier - b.tier || a.subTier - b.subTier || (b.accuracy ?? 0) - (a.accuracy ?? 0) || a.lastName.localeCompare(b.lastName))
    .slice(0, Math.max(0, n));
}
