// An in-memory audience service behind the client's public audience operations (the port the
// add-in's audience code takes), with faults a test injects: a request the service applies and
// then answers 5xx (the answer lost), or refuses before applying. Rows keep their order of
// creation; a page read answers 500 rows at most.
import { serviceError } from "../../../src/core/api/errors.js";
import type { AudienceRow } from "../../../src/core/contract/index.js";
import type { AudienceColumnInfo, AudiencePort, AudienceRowsPage, NewAudienceColumn, UpsertRow, UpsertedRow } from "../../../src/core/audiences/index.js";

type Fault = "appliedThen5xx" | "5xxBefore" | "timeoutAfterApply" | "validation" | "forbidden";

interface StoredRow {
  id: string;
  cells: Map<string, unknown>;
}

export class FakeAudienceService implements AudiencePort {
  readonly columns: AudienceColumnInfo[] = [];
  readonly rows: StoredRow[] = [];
  readonly calls: string[] = [];
  criteria: unknown;
  audienceId = "";
  /** Faults of the next upsert calls, by call number (1-based, counting every upsert). */
  readonly upsertFaults = new Map<number, Fault>();
  /** Page numbers whose read fails once. */
  readonly failingPages = new Set<number>();
  private upserts = 0;
  private nextId = 1;
  /** Called before each upsert answers (a test may cancel here). */
  onUpsert?: (call: number) => void;

  async createAudience(input: { name: string; kind: "COMPANY" | "CONTACT"; columns?: NewAudienceColumn[] }) {
    this.calls.push("createAudience");
    this.audienceId = "aud-1";
    const columns = await this.addAudienceColumns(this.audienceId, input.columns ?? []);
    return { audienceId: this.audienceId, name: input.name, kind: input.kind, columns };
  }

  async addAudienceColumns(_audienceId: string, columns: NewAudienceColumn[]): Promise<AudienceColumnInfo[]> {
    const made = columns.map((c) => ({ columnId: `col-${this.columns.length + columns.indexOf(c) + 1}`, ...c, source: "custom" }));
    this.columns.push(...made);
    return made;
  }

  async listAudienceColumns(): Promise<AudienceColumnInfo[]> {
    this.calls.push("listAudienceColumns");
    return [...this.columns];
  }

  async setMatchCriteria(_audienceId: string, criteria: unknown) {
    this.criteria = criteria;
    return { columnId: "match", name: "Match", dataType: "", source: "match" };
  }

  /** Adds an enrichment column the way a job does, with a value per row computed from its cells. */
  enrich(name: string, dataType: string, value: (cells: Map<string, unknown>) => unknown): string {
    const columnId = `col-${this.columns.length + 1}`;
    this.columns.push({ columnId, name, dataType, source: "enrichment" });
    for (const row of this.rows) row.cells.set(columnId, value(row.cells));
    return columnId;
  }

  private apply(rows: UpsertRow[]): UpsertedRow[] {
    return rows.map((input) => {
      const existing = input.rowId !== undefined ? this.rows.find((r) => r.id === input.rowId) : undefined;
      if (input.rowId !== undefined && !existing) throw serviceError("notFound", { status: 404 });
      const row = existing ?? { id: `row-${this.nextId++}`, cells: new Map() };
      if (!existing) this.rows.push(row);
      const cells = Object.entries(input.cells).map(([columnId, value]) => {
        const column = this.columns.find((c) => c.columnId === columnId);
        if (column?.dataType === "INTEGER" && value !== null && !Number.isInteger(value)) {
          return { columnId, state: "ERROR", error: `This column (INTEGER) takes a whole number; ${JSON.stringify(value)} is not one.` };
        }
        row.cells.set(columnId, value);
        return { columnId, state: value === null ? "BLANK" : "RESULT" };
      });
      return { rowId: row.id, created: !existing, cells };
    });
  }

  async upsertAudienceRows(_audienceId: string, rows: UpsertRow[], options?: { signal?: AbortSignal }): Promise<UpsertedRow[]> {
    const call = ++this.upserts;
    this.calls.push(`upsert:${rows.length}`);
    if (rows.length > 500) throw serviceError("validation", { status: 400, userMessage: "At most 500 rows a request." });
    const fault = this.upsertFaults.get(call);
    if (fault === "5xxBefore") throw serviceError("server", { status: 503, requestId: "req-503" });
    if (fault === "forbidden") throw serviceError("forbidden", { status: 403, userMessage: "You cannot write audiences.", requestId: "req-403" });
    if (fault === "validation") throw serviceError("validation", { status: 400, userMessage: "The request was refused.", requestId: "req-400" });
    const answer = this.apply(rows);
    this.onUpsert?.(call);
    if (options?.signal?.aborted) throw serviceError("cancelled");
    if (fault === "appliedThen5xx") throw serviceError("server", { status: 502, requestId: "req-502" });
    if (fault === "timeoutAfterApply") throw serviceError("timeout");
    return answer;
  }

  async findAudienceRowsByKey(_audienceId: string, keyColumnId: string, keys: string[]): Promise<Map<string, string[]>> {
    this.calls.push(`find:${keys.length}`);
    const found = new Map<string, string[]>();
    for (const row of this.rows) {
      const key = row.cells.get(keyColumnId);
      if (typeof key === "string" && keys.includes(key)) found.set(key, [...(found.get(key) ?? []), row.id]);
    }
    return found;
  }

  async getAudienceRows(_audienceId: string, options: { page?: number; size?: number } = {}): Promise<AudienceRowsPage> {
    const page = options.page ?? 1;
    const size = Math.min(options.size ?? 100, 500);
    this.calls.push(`rows:${page}`);
    if (this.failingPages.delete(page)) throw serviceError("server", { status: 500, requestId: "req-500" });
    // Newest first: the audience's order is not the sheet's.
    const ordered = [...this.rows].reverse();
    const rows: AudienceRow[] = ordered.slice((page - 1) * size, page * size).map((r) => ({
      id: r.id,
      type: "Row",
      attributes: { values: [...r.cells].map(([columnId, value]) => ({ columnId, value, state: value === null || value === undefined ? "BLANK" : "RESULT" })) },
    }));
    return { rows, totalResults: this.rows.length, pageNumber: page, totalPages: Math.max(1, Math.ceil(this.rows.length / size)) };
  }

  /** How many audience rows carry each value of a column (a duplicate shows as 2). */
  countsBy(columnName: string): Map<unknown, number> {
    const id = this.columns.find((c) => c.name === columnName)?.columnId;
    const counts = new Map<unknown, number>();
    for (const row of this.rows) counts.set(row.cells.get(id as string), (counts.get(row.cells.get(id as string)) ?? 0) + 1);
    return counts;
  }
}
