// AI action credits: a balance of their own per account (apart from the bulk credits), spent by
// research (one per briefing, question or contact briefing, charged only when the call succeeds).
// Every account starts with DEFAULT_AI_CREDITS; POST /__sandbox/accounts sets another limit.
import type Database from "better-sqlite3";

export const DEFAULT_AI_CREDITS = 250;

export interface AiCreditBalance {
  limit: number;
  used: number;
  remaining: number;
}

export interface AiCreditStore {
  balance(account: string): AiCreditBalance;
  /** Sets the account's limit and clears what it used. */
  reset(account: string, limit: number): void;
  /** Spends `n` credits if that many are left; false (nothing spent) when not. */
  spend(account: string, n: number): boolean;
}

export function createAiCreditStore(db: Database.Database, defaultLimit = DEFAULT_AI_CREDITS): AiCreditStore {
  db.exec("CREATE TABLE IF NOT EXISTS ai_credits (account TEXT PRIMARY KEY, total INTEGER NOT NULL, used INTEGER NOT NULL)");
  const get = db.prepare("SELECT total, used FROM ai_credits WHERE account = ?");
  const insert = db.prepare("INSERT OR IGNORE INTO ai_credits (account, total, used) VALUES (?, ?, 0)");
  const replace = db.prepare("INSERT OR REPLACE INTO ai_credits (account, total, used) VALUES (?, ?, 0)");
  const use = db.prepare("UPDATE ai_credits SET used = used + ? WHERE account = ? AND total - used >= ?");
  const row = (account: string) => {
    insert.run(account, defaultLimit);
    return get.get(account) as { total: number; used: number };
  };
  return {
    balance(account) {
      const r = row(account);
      return { limit: r.total, used: r.used, remaining: Math.max(0, r.total - r.used) };
    },
    reset: (account, limit) => void replace.run(account, limit),
    spend(account, n) {
      row(account);
      return use.run(n, account, n).changes === 1;
    },
  };
}
