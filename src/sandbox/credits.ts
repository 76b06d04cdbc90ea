// Accounts, credit balances and the records each account has under management (12-month window).
import type Database from "better-sqlite3";
import type { CreditKind, RecordKind } from "../core/contract/index.js";
import { sandboxClock, type CreditLedger, type Clock } from "./context.js";

const DEFAULT_CREDITS = 100_000;
const WINDOW_MS = 365 * 86_400_000;

/** The earliest purchase still under management on `clock` (ISO, as purchases are stored). */
export function managementWindowStart(clock: Pick<Clock, "now">): string {
  return new Date(clock.now() - WINDOW_MS).toISOString();
}

export type { RecordKind };

export interface LedgerEntry {
  kind: CreditKind;
  id: number;
  charged: boolean;
  at: string;
}

export interface AccountSummary {
  id: string;
  credits: number;
  initialCredits: number;
  underManagement: { company: number; contact: number };
  /** One page of the ledger, oldest first. */
  ledger: LedgerEntry[];
  /** Entries in the whole ledger. */
  ledgerTotal: number;
  ledgerPage: { number: number; size: number; total: number };
}

export const LEDGER_PAGE_SIZE = 1000;
export const MAX_LEDGER_PAGE_SIZE = 10_000;

export interface AccountStore extends CreditLedger {
  /** Creates the account or resets it: new balance, nothing under management, empty ledger. */
  resetAccount(account: string, credits: number): void;
  /** The account with one page of its ledger (page 1 is the oldest entries). */
  summary(account: string, page?: { number: number; size: number }): AccountSummary;
  /** Records under management now, by kind. */
  managedCount(account: string, kind?: CreditKind): number;
  /** Credits used since the account was (re)set. */
  creditsUsed(account: string): number;
  initialCredits(account: string): number;
  /** Purchase dates of the given ids under management (one query for a page of results). */
  purchaseDates(account: string, kind: RecordKind, ids: number[]): Map<number, string>;
}

/** The store's statements; data folders from before the compact ledger get its columns first. */
function accountStatements(db: Database.Database) {
  const ledgerColumns = (db.prepare("SELECT name FROM pragma_table_info('ledger')").all() as { name: string }[]).map((c) => c.name);
  if (!ledgerColumns.includes("ids")) db.exec("ALTER TABLE ledger ADD COLUMN ids TEXT");
  if (!ledgerColumns.includes("n")) db.exec("ALTER TABLE ledger ADD COLUMN n INTEGER NOT NULL DEFAULT 1");
  return {
    getAccount: db.prepare("SELECT id, credits, initial_credits FROM accounts WHERE id = ?"),
    insertAccount: db.prepare("INSERT OR IGNORE INTO accounts (id, credits, initial_credits, created_at) VALUES (?, ?, ?, ?)"),
    replaceAccount: db.prepare("INSERT OR REPLACE INTO accounts (id, credits, initial_credits, created_at) VALUES (?, ?, ?, ?)"),
    setCredits: db.prepare("UPDATE accounts SET credits = ? WHERE id = ?"),
    getManaged: db.prepare("SELECT purchased_at FROM managed WHERE account = ? AND kind = ? AND record_id = ?"),
    upsertManaged: db.prepare("INSERT OR REPLACE INTO managed (account, kind, record_id, purchased_at) VALUES (?, ?, ?, ?)"),
    addLedger: db.prepare("INSERT INTO ledger (account, kind, record_id, charged, at) VALUES (?, ?, ?, ?, ?)"),
    addFreeLedger: db.prepare("INSERT INTO ledger (account, kind, record_id, charged, at, ids, n) VALUES (?, ?, 0, 0, ?, ?, ?)"),
    deleteManaged: db.prepare("DELETE FROM managed WHERE account = ?"),
    deleteLedger: db.prepare("DELETE FROM ledger WHERE account = ?"),
    countManaged: db.prepare("SELECT kind, COUNT(*) AS n FROM managed WHERE account = ? AND purchased_at > ? GROUP BY kind"),
    ledgerTotal: db.prepare("SELECT COALESCE(SUM(n), 0) AS total FROM ledger WHERE account = ?"),
    // Rows whose entries reach past the page's first entry, with the entries before each row.
    ledgerRows: db.prepare(
      `SELECT kind, record_id, charged, at, ids, before FROM (
       SELECT seq, kind, record_id, charged, at, ids, SUM(n) OVER (ORDER BY seq) - n AS before, SUM(n) OVER (ORDER BY seq) AS upto
       FROM ledger WHERE account = ?)
     WHERE upto > ? AND before < ? ORDER BY seq`,
    ),
    managedDates: db.prepare(
      "SELECT record_id, purchased_at FROM managed WHERE account = ? AND kind = ? AND purchased_at > ? AND record_id IN (SELECT value FROM json_each(?))",
    ),
  };
}

type Statements = ReturnType<typeof accountStatements>;
type AccountRow = { id: string; credits: number; initial_credits: number };
type LedgerSql = { kind: CreditKind; record_id: number; charged: number; at: string; ids: string | null; before: number };

/** Entries first..last-1 of the account's ledger (a row of free entries holds several). */
function ledgerSlice(st: Statements, account: string, first: number, last: number): LedgerEntry[] {
  const ledger: LedgerEntry[] = [];
  for (const e of st.ledgerRows.all(account, first, last) as LedgerSql[]) {
    const entries =
      e.ids === null
        ? [{ kind: e.kind, id: e.record_id, charged: e.charged === 1, at: e.at }]
        : e.ids.split(",").map((id) => ({ kind: e.kind, id: Number(id), charged: false, at: e.at }));
    entries.forEach((entry, i) => {
      const position = e.before + i;
      if (position >= first && position < last) ledger.push(entry);
    });
  }
  return ledger;
}

function accountSummary(st: Statements, row: AccountRow, windowStart: string, page: { number: number; size: number }): AccountSummary {
  const account = row.id;
  const rows = st.countManaged.all(account, windowStart) as { kind: string; n: number }[];
  const total = (st.ledgerTotal.get(account) as { total: number }).total;
  const first = (page.number - 1) * page.size;
  return {
    id: row.id,
    credits: row.credits,
    initialCredits: row.initial_credits,
    underManagement: {
      company: rows.find((r) => r.kind === "company")?.n ?? 0,
      contact: rows.find((r) => r.kind === "contact")?.n ?? 0,
    },
    ledger: ledgerSlice(st, account, first, first + page.size),
    ledgerTotal: total,
    ledgerPage: { number: page.number, size: page.size, total: Math.ceil(total / page.size) },
  };
}

interface StoreParts {
  st: Statements;
  nowIso: () => string;
  ensure: (account: string) => AccountRow;
  underManagementSince: (account: string, kind: CreditKind, id: number) => string | undefined;
}

/** Charges a credit for each id not under management while the balance lasts; the rest are refused. */
function chargeTransaction(db: Database.Database, { st, nowIso, ensure, underManagementSince }: StoreParts) {
  return db.transaction((account: string, kind: CreditKind, ids: number[]) => {
    const row = ensure(account);
    let balance = row.credits;
    const free: number[] = [];
    const charged: number[] = [];
    const refused: number[] = [];
    const now = nowIso();
    for (const id of ids) {
      if (underManagementSince(account, kind, id)) {
        free.push(id);
      } else if (balance > 0) {
        balance -= 1;
        charged.push(id);
        st.upsertManaged.run(account, kind, id, now);
        st.addLedger.run(account, kind, id, 1, now);
      } else {
        refused.push(id);
      }
    }
    if (free.length > 0) st.addFreeLedger.run(account, kind, now, free.join(","), free.length);
    st.setCredits.run(balance, account);
    return { free, charged, refused };
  });
}

export function createAccountStore(db: Database.Database, clock: Clock = sandboxClock, defaultCredits = DEFAULT_CREDITS): AccountStore {
  const st = accountStatements(db);
  const nowIso = () => new Date(clock.now()).toISOString();
  const ensure = (account: string) => {
    st.insertAccount.run(account, defaultCredits, defaultCredits, nowIso());
    return st.getAccount.get(account) as AccountRow;
  };
  const windowStart = () => managementWindowStart(clock);
  const underManagementSince = (account: string, kind: CreditKind, id: number): string | undefined => {
    const row = st.getManaged.get(account, kind, id) as { purchased_at: string } | undefined;
    return row && row.purchased_at > windowStart() ? row.purchased_at : undefined;
  };
  const charge = chargeTransaction(db, { st, nowIso, ensure, underManagementSince });

  return {
    charge: (account, kind, ids) => charge(account, kind, ids),
    balance: (account) => ensure(account).credits,
    canSpend: (account) => ensure(account).credits > 0,
    purchaseDate: (account, kind, id) => underManagementSince(account, kind, id),
    purchaseDates(account, kind, ids) {
      const out = new Map<number, string>();
      if (ids.length === 0) return out;
      for (const r of st.managedDates.all(account, kind, windowStart(), JSON.stringify(ids)) as { record_id: number; purchased_at: string }[]) {
        out.set(r.record_id, r.purchased_at);
      }
      return out;
    },
    resetAccount: db.transaction((account: string, credits: number) => {
      st.replaceAccount.run(account, credits, credits, nowIso());
      st.deleteManaged.run(account);
      st.deleteLedger.run(account);
    }),
    managedCount(account, kind) {
      const rows = st.countManaged.all(account, windowStart()) as { kind: string; n: number }[];
      return rows.filter((r) => !kind || r.kind === kind).reduce((s, r) => s + r.n, 0);
    },
    creditsUsed(account) {
      const row = ensure(account);
      return row.initial_credits - row.credits;
    },
    initialCredits: (account) => ensure(account).initial_credits,
    summary: (account, page = { number: 1, size: LEDGER_PAGE_SIZE }) => accountSummary(st, ensure(account), windowStart(), page),
  };
}
