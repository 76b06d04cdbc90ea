// Writing audiences (docs/audiences.md): create a CUSTOM audience and its columns, map columns to
// match criteria, upsert rows (the bulk operation, 500 a request), find rows by the add-in's own
// key column, delete rows (1,000 a request), rename and delete audiences, folders. The same
// studio documents and paths (relative to the audience base URL) in both profiles. Every body
// is checked with the contract before sending; a request over a limit is refused, not cut.
import {
  AUDIENCE_WRITE_LIMITS,
  ERROR_CODES,
  UpsertedRowsDocument,
  WrittenAudienceDocument,
  isUuid,
  validateAddColumnsBody,
  validateCreateAudienceBody,
  validateCreateFolderBody,
  validateDeleteRowsBody,
  validateMatchCriteriaBody,
  validatePatchAudienceBody,
  validateRowSearch,
  validateUpsertRowsBody,
  type ValidationIssue,
  type WrittenColumn,
} from "../contract/index.js";
import type {
  AudienceColumn,
  AudienceColumnInput,
  AudienceRowInput,
  AudienceWriteOperations,
  AudienceWriteOptions,
  UpsertedRow,
} from "./audienceWriteTypes.js";
import { refuse, type ClientContext } from "./clientContext.js";
import { serviceError } from "./errors.js";
import { callOperation, operationLabel, sendOperation } from "./operationCall.js";

/** The service's names for the data types the specification's seeded columns use. */
const SERVICE_DATA_TYPES: Readonly<Record<string, string>> = { STRING: "TEXT", NUMBER: "DECIMAL" };
const SOURCES: Readonly<Record<string, string>> = {
  CUSTOM: "custom",
  MATCH: "match",
  ZOOMINFO_MATCH: "match",
  ENRICHMENT: "enrichment",
  ZOOMINFO_COMPANY: "enrichment",
  ZOOMINFO_CONTACT: "enrichment",
  INPUT: "input",
};

/** A column document as the add-in reads it (the production edge keeps the published data type as serviceDataType). */
export function toAudienceColumn(column: WrittenColumn): AudienceColumn {
  const a = column.attributes;
  const published = typeof a.serviceDataType === "string" ? a.serviceDataType : undefined;
  const dataType = published ?? (a.dataType === undefined ? "" : (SERVICE_DATA_TYPES[a.dataType] ?? a.dataType));
  const type = typeof a.serviceColumnType === "string" ? a.serviceColumnType : a.columnType;
  const out: AudienceColumn = { columnId: column.id, name: a.name, dataType };
  if (type !== undefined) out.source = SOURCES[type] ?? type.toLowerCase();
  if (a.matchCriteria) out.matchCriteria = a.matchCriteria.map((m) => ({ columnId: m.columnId, criterion: m.mappedTo }));
  return out;
}

function idIssue(parameter: string, label: string): ValidationIssue {
  return { parameter, label, rule: "uuid", code: ERROR_CODES.validation, message: `${label} must be an id like 3f2b1c9e-1234-4abc-9def-0123456789ab.` };
}

function checked(issues: ValidationIssue[], operation: string): void {
  if (issues.length > 0) refuse(issues, operation);
}

function checkAudienceId(audienceId: string, operation: string): void {
  if (!isUuid(audienceId)) refuse([idIssue("audienceId", "Audience")], operation);
}

const columnBody = (c: AudienceColumnInput) => ({ type: "Column" as const, attributes: { name: c.name, dataType: c.dataType, columnType: "CUSTOM" as const } });

/** A row's cells as the service's values; null clears a cell (""). A number that is not finite is refused. */
function rowsBody(rows: readonly AudienceRowInput[], operation: string) {
  const issues: ValidationIssue[] = [];
  const data = rows.map((row, r) => {
    const values = Object.entries(row.cells).map(([columnId, value], c) => {
      if (typeof value === "number" && !Number.isFinite(value)) {
        const message = `Row ${r + 1} has a value for column ${columnId} that is not a number that can be sent (${String(value)}).`;
        issues.push({ pointer: `/data/${r}/attributes/values/${c}/value`, label: "Cell", rule: "finite", code: ERROR_CODES.invalidValue, message });
      }
      return { columnId, value: value ?? "" };
    });
    return { type: "Row" as const, ...(row.rowId !== undefined ? { id: row.rowId } : {}), attributes: { values } };
  });
  checked(issues, operation);
  return { data };
}

/** The answer's rows against the rows sent: as many, in order, an updated row under its own id. */
function upsertedRows(doc: UpsertedRowsDocument, rows: readonly AudienceRowInput[], operation: string): UpsertedRow[] {
  const wrong = (why: string) => serviceError("invalidResponse", { operation, status: 200, message: `${operation} answered ${why}` });
  if (doc.data.length !== rows.length) throw wrong(`${doc.data.length} rows for the ${rows.length} sent`);
  return doc.data.map((answered, i) => {
    const sent = rows[i]!;
    if (sent.rowId !== undefined && answered.id !== sent.rowId) throw wrong(`row ${answered.id} where row ${sent.rowId} was sent`);
    const columns = new Set(Object.keys(sent.cells));
    const cells = answered.attributes.values
      .filter((v) => columns.has(v.columnId))
      .map((v) => {
        const error = v.errorDetails?.description ?? v.errorDetails?.summary;
        return { columnId: v.columnId, state: v.state, ...(v.state === "ERROR" && error !== undefined ? { error } : {}) };
      });
    return { rowId: answered.id, created: sent.rowId === undefined, cells };
  });
}

/** The caller's signal and priority, as a call of the table carries them. */
const asked = (options: AudienceWriteOptions | undefined) => ({ signal: options?.signal, priority: options?.priority });

type Structure = Pick<AudienceWriteOperations, "createAudience" | "addAudienceColumns" | "listAudienceColumns" | "setMatchCriteria">;

function structureOperations(ctx: ClientContext): Structure {
  const listAudienceColumns: AudienceWriteOperations["listAudienceColumns"] = async (audienceId, options) => {
    const operation = operationLabel("getAudience");
    checkAudienceId(audienceId, operation);
    const doc = await callOperation(ctx, "getAudience", { params: { audienceId }, answer: WrittenAudienceDocument, ...asked(options) });
    return (doc.data.attributes.columns ?? []).map(toAudienceColumn);
  };

  return {
    async createAudience(input, options) {
      const operation = operationLabel("createAudience");
      const attributes = {
        name: input.name,
        type: input.kind,
        origin: "CUSTOM" as const,
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.folderId !== undefined ? { folderId: input.folderId } : {}),
        ...(input.columns !== undefined ? { columns: input.columns.map(columnBody) } : {}),
      };
      const body = { data: { type: "Audience" as const, attributes } };
      checked(validateCreateAudienceBody(body), operation);
      // A repeat could make a second audience (the table says so): retried only when the service surely refused it.
      const doc = await callOperation(ctx, "createAudience", { body, expect: [201, 200], ...asked(options) });
      const kind = doc.data.attributes.type === "CONTACT" ? "CONTACT" : "COMPANY";
      return { audienceId: doc.data.id, name: doc.data.attributes.name, kind, columns: (doc.data.attributes.columns ?? []).map(toAudienceColumn) };
    },

    async addAudienceColumns(audienceId, columns, options) {
      const operation = operationLabel("addColumns");
      checkAudienceId(audienceId, operation);
      const body = { data: columns.map(columnBody) };
      checked(validateAddColumnsBody(body), operation);
      const doc = await callOperation(ctx, "addColumns", { params: { audienceId }, body, expect: [201, 200], ...asked(options) });
      return doc.data.map(toAudienceColumn);
    },

    listAudienceColumns,

    async setMatchCriteria(audienceId, criteria, options) {
      const operation = operationLabel("setMatchCriteria");
      checkAudienceId(audienceId, operation);
      const matchCriteria = criteria === "AUTO" ? undefined : criteria.map((c) => ({ columnId: c.columnId, mappedTo: c.criterion }));
      // No matchCriteria: the service maps the columns itself.
      const body = { data: { type: "UpsertMatchCriteria" as const, attributes: matchCriteria ? { matchCriteria } : {} } };
      checked(validateMatchCriteriaBody(body), operation);
      // The mapping replaces the previous one: the same request twice leaves the same mapping.
      const doc = await callOperation(ctx, "setMatchCriteria", { params: { audienceId }, body, ...asked(options) });
      return toAudienceColumn(doc.data);
    },
  };
}

function rowOperations(ctx: ClientContext): Pick<AudienceWriteOperations, "upsertAudienceRows" | "findAudienceRowsByKey" | "deleteAudienceRows"> {
  return {
    async upsertAudienceRows(audienceId, rows, options) {
      const operation = operationLabel("bulkUpsertRows");
      checkAudienceId(audienceId, operation);
      // No rows: nothing to send (the service takes at least one).
      if (rows.length === 0) return [];
      const body = rowsBody(rows, operation);
      checked(validateUpsertRowsBody(body, AUDIENCE_WRITE_LIMITS.bulkUpsertRows), operation);
      // Rows that all carry their id are updated: a repeat writes the same values. A request that creates rows is not repeated blindly.
      const idempotent = rows.every((r) => r.rowId !== undefined);
      const doc = await callOperation(ctx, "bulkUpsertRows", {
        params: { audienceId },
        body,
        idempotent,
        signal: options?.signal,
        priority: options?.priority ?? "bulk",
      });
      return upsertedRows(doc, rows, operation);
    },

    async findAudienceRowsByKey(audienceId, keyColumnId, keys, options) {
      const operation = operationLabel("searchAudienceRows");
      checkAudienceId(audienceId, operation);
      const found = new Map<string, string[]>();
      const wanted = [...new Set(keys)];
      if (wanted.length === 0) return found;
      if (wanted.length > AUDIENCE_WRITE_LIMITS.bulkUpsertRows) {
        const message = `At most ${AUDIENCE_WRITE_LIMITS.bulkUpsertRows} keys can be looked up at once; ${wanted.length} were given.`;
        refuse([{ parameter: "keys", label: "Keys", rule: "maxItems", code: ERROR_CODES.validation, message }], operation);
      }
      const filter = { operator: "AND", filters: [{ type: "Filter", columnId: keyColumnId, values: wanted, filterOperator: "EQUALS" }] };
      const body = { data: { type: "RowSearch", attributes: { filter } } };
      checked(validateRowSearch(body), operation);
      for (let page = 1; ; page++) {
        const doc = await callOperation(ctx, "searchAudienceRows", {
          params: { audienceId },
          query: { "page[number]": page, "page[size]": AUDIENCE_WRITE_LIMITS.bulkUpsertRows, columns: keyColumnId },
          body,
          answer: UpsertedRowsDocument,
          signal: options?.signal,
          priority: options?.priority ?? "bulk",
        });
        for (const row of doc.data) {
          const key = row.attributes.values.find((v) => v.columnId === keyColumnId)?.value;
          if (key === undefined || key === null) continue;
          found.set(String(key), [...(found.get(String(key)) ?? []), row.id]);
        }
        if (doc.data.length < AUDIENCE_WRITE_LIMITS.bulkUpsertRows) return found;
      }
    },

    async deleteAudienceRows(audienceId, rowIds, options) {
      const operation = operationLabel("deleteRows");
      checkAudienceId(audienceId, operation);
      if (rowIds.length === 0) return;
      const body = { data: rowIds.map((id) => ({ type: "Row" as const, id })) };
      checked(validateDeleteRowsBody(body), operation);
      // Deleting rows already gone changes nothing: the table calls a repeat harmless.
      await callOperation(ctx, "deleteRows", { params: { audienceId }, body, expect: [202, 200], ...asked(options) });
    },
  };
}

type Management = Pick<AudienceWriteOperations, "renameAudience" | "deleteAudience" | "listFolders" | "createFolder">;

function managementOperations(ctx: ClientContext): Management {
  return {
    async renameAudience(audienceId, name, options) {
      const operation = operationLabel("patchAudience");
      checkAudienceId(audienceId, operation);
      const body = { data: { type: "Audience" as const, attributes: { name } } };
      checked(validatePatchAudienceBody(body), operation);
      await callOperation(ctx, "patchAudience", { params: { audienceId }, body, ...asked(options) });
    },

    async deleteAudience(audienceId, options) {
      const operation = operationLabel("deleteAudience");
      checkAudienceId(audienceId, operation);
      await sendOperation(ctx, "deleteAudience", { params: { audienceId }, expect: [204, 200], ...asked(options) });
    },

    async listFolders(options) {
      const folders: { folderId: string; name: string }[] = [];
      for (let page = 1; page <= 100; page++) {
        const doc = await callOperation(ctx, "listFolders", { query: { "page[number]": page, "page[size]": 100 }, ...asked(options) });
        folders.push(...doc.data.map((f) => ({ folderId: f.id, name: f.attributes.name })));
        const total = doc.meta?.total;
        if (doc.data.length < 100 || (total !== undefined && folders.length >= total)) break;
      }
      return folders;
    },

    async createFolder(name, options) {
      const operation = operationLabel("createFolder");
      const body = { data: { type: "Folder" as const, attributes: { name } } };
      checked(validateCreateFolderBody(body), operation);
      const doc = await callOperation(ctx, "createFolder", { body, expect: [201, 200], ...asked(options) });
      return { folderId: doc.data.id, name: doc.data.attributes.name };
    },
  };
}

export function audienceWriteOperations(ctx: ClientContext): AudienceWriteOperations {
  return { ...structureOperations(ctx), ...rowOperations(ctx), ...managementOperations(ctx) };
}
