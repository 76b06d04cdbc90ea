// How much room each kind of stored data may take, and how it is measured. OfficeRuntime.storage
// holds 10 MB per DOMAIN, shared by every add-in served from it (and in a browser, localStorage
// holds about 5 million characters per origin): the small items (settings, job lists, daily
// counts) must always fit there, so the caches get only a share. IndexedDB (in the shared runtime's
// page and in browser mode) has a quota far larger, so the caches get more room there.

/** OfficeRuntime.storage's quota, for the whole domain. */
export const DOMAIN_QUOTA_BYTES = 10 * 1024 * 1024;

/** The bytes a stored item takes: key and value as UTF-16 (what JavaScript and Chromium's Web Storage count). */
export function storedBytes(key: string, value: string): number {
  return 2 * (key.length + value.length);
}

/** Where the caches are kept and what each may take there. */
export interface CacheBudgets {
  /** Enrichment records, known matches and signals (one area). */
  enrichmentBytes: number;
  /** Research briefings already fetched. */
  briefingBytes: number;
}

/**
 * In the small store (OfficeRuntime.storage or localStorage): 3 MB + 1 MB, so at least 6 MB of the
 * domain's 10 MB stay for the small items and for other add-ins of the domain.
 */
export const SMALL_STORE_CACHE_BUDGETS: CacheBudgets = { enrichmentBytes: 3 * 1024 * 1024, briefingBytes: 1024 * 1024 };

/** In IndexedDB: its own quota is hundreds of MB or more; the caches still stay modest. */
export const INDEXED_DB_CACHE_BUDGETS: CacheBudgets = { enrichmentBytes: 50 * 1024 * 1024, briefingBytes: 10 * 1024 * 1024 };
