// Briefings already fetched, kept in the user's storage (the one key-value port) so they survive
// a reload and are never paid twice: keyed by the profile and user (the caller's scope) and the
// company. A stored entry is checked when read back; anything damaged counts as none.
import { Type, type Static } from "@sinclair/typebox";
import { compiledCheck } from "../contract/index.js";
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
  const memory = new Map<string, StoredBriefing>();
  const keyOf = (companyId: string) => `${BRIEFING_KEY_PREFIX}|${scope()}|${companyId}`;
  return {
    async get(companyId) {
      const key = keyOf(companyId);
      const known = memory.get(key);
      if (known) return known;
      const text = await storage.getItem(key);
      if (text === null) return undefined;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        return undefined;
      }
      if (!isStoredBriefing(value) || value.companyId !== companyId) return undefined;
      memory.set(key, value);
      return value;
    },
    async put(briefing) {
      const key = keyOf(briefing.companyId);
      memory.set(key, briefing);
      await storage.setItem(key, JSON.stringify(briefing));
    },
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
