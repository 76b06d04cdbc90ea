// Briefings already fetched, kept in the user's storage (the one key-value port) so they survive
// a reload and are never paid twice: keyed by the profile and user (the caller's scope) and the
// company. A stored entry is checked when read back; anything damaged counts as none.
import { Type, type Static } from "@sinclair/typebox";
import { compiledCheck } from "../contract/index.js";
import { jsonItems } from "../storage/jsonItems.js";
import type { KeyValueItems } from "../storage/keyValue.js";

const StoredBriefingSchema = Type.Object({
  companyId: Type.String({ minLength: 1 }),
  markdown: Type.String(),
  /** When it was fetched, ms since the epoch. */
  fetchedAt: Type.Number(),
});

export type StoredBriefing = Static<typeof StoredBriefingSchema>;

const isStoredBriefing = (value: unknown): value is StoredBriefing => compiledCheck(StoredBriefingSchema).Check(value);

export const BRIEFING_KEY_PREFIX = "bizdata.research.briefing";

export interface BriefingStore {
  get(companyId: string): Promise<StoredBriefing | undefined>;
  put(briefing: StoredBriefing): Promise<void>;
}

/** `scope` names the profile and user at the time of the call (it changes with the signed-in user). */
export function createBriefingStore(storage: KeyValueItems, scope: () => string): BriefingStore {
  const items = jsonItems(storage, isStoredBriefing);
  const keyOf = (companyId: string) => `${BRIEFING_KEY_PREFIX}|${scope()}|${companyId}`;
  return {
    get: (companyId) => items.get(keyOf(companyId), (value) => value.companyId === companyId),
    put: (briefing) => items.put(keyOf(briefing.companyId), briefing),
  };
}

/**
 * The company a briefing is about, by name: the briefing's title (its first top-level heading,
 * markdown escapes undone), or "company <id>" when it has none.
 */
export function briefingCompany(briefing: Pick<StoredBriefing, "companyId" | "markdown">): string {
  const heading = /^#[ \t]+(.+?)[ \t#]*$/m.exec(briefing.markdown)?.[1];
  const name = heading?.replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, "$1").trim();
  return name ? name.slice(0, 120) : `company ${briefing.companyId}`;
}
