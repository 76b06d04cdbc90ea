// Writing audiences (docs/audiences.md): create an audience with custom columns, add columns,
// map columns to match criteria, upsert rows (50 a call, or 500 with the bulk operation), delete
// rows (1,000 a call), rename or delete an audience, and folders. The request documents are the
// service's studio documents (its published description), in both profiles; the client checks
// them before sending and the sandbox on receipt, with these schemas.
import { Type, type Static, type TLiteral, type TSchema, type TUnion } from "@sinclair/typebox";
import { AUDIENCE_TYPES } from "./account.js";
import { ERROR_CODES } from "./common.js";
import { validateAgainst, type ValidationIssue } from "./validate.js";

/** Data types a CUSTOM column may have (the service's list for loaded values); fixed at creation. */
export const AUDIENCE_DATA_TYPES = [
  "TEXT",
  "LARGE_TEXT",
  "EMAIL",
  "PHONE",
  "URL",
  "INTEGER",
  "DECIMAL",
  "PERCENT",
  "CURRENCY",
  "BOOLEAN",
  "CHECKBOX",
  "DATE",
  "STRING_LIST",
  "NUMBER_LIST",
  "EMAIL_LIST",
  "PHONE_LIST",
  "URL_LIST",
  "OBJECT",
] as const;
export type AudienceDataType = (typeof AUDIENCE_DATA_TYPES)[number];

/** What a column may be mapped to for matching (the service's MatchFields). */
export const MATCH_CRITERIA = [
  "COMPANY_WEBSITE",
  "COMPANY_NAME",
  "ZOOMINFO_COMPANY_ID",
  "COMPANY_COUNTRY",
  "COMPANY_STATE",
  "COMPANY_CITY",
  "COMPANY_ZIP_CODE",
  "COMPANY_PHONE",
  "COMPANY_TICKER",
  "COMPANY_LINKEDIN_ID",
  "COMPANY_IP_ADDRESSES",
  "COMPANY_METRO_AREA",
  "COMPANY_LINKEDIN_URL",
  "COMPANY_FACEBOOK_URL",
  "COMPANY_TWITTER_URL",
  "COMPANY_GOOGLE_PLUS_URL",
  "COMPANY_YOUTUBE_URL",
  "COMPANY_LOCATION",
  "COMPANY_LOCATION_CODE",
  "CONTACT_FIRST_NAME",
  "CONTACT_LAST_NAME",
  "CONTACT_EMAIL",
  "JOB_TITLE",
  "DIRECT_PHONE",
  "MOBILE_PHONE",
  "CONTACT_STREET",
  "CONTACT_CITY",
  "CONTACT_STATE",
  "CONTACT_COUNTRY",
  "CONTACT_ZIP_CODE",
  "ZOOMINFO_CONTACT_ID",
  "CONTACT_MIDDLE_NAME",
  "CONTACT_LINKEDIN_URL",
  "CONTACT_TWITTER_URL",
  "CONTACT_LINKEDIN_COMPANY_ID",
  "CONTACT_ZOOMINFO_COMPANY_ID",
  "CONTACT_PARENT_ID",
  "CONTACT_HASHED_EMAILS",
  "CONTACT_LINKEDIN_PRIVATE_IDS",
] as const;
export type MatchCriterion = (typeof MATCH_CRITERIA)[number];

/** Rows one call takes: upsert 50, bulk upsert 500, bulk delete 1,000 (the published maxItems). */
export const AUDIENCE_WRITE_LIMITS = { upsertRows: 50, bulkUpsertRows: 500, deleteRows: 1000 } as const;

/** Paths of the write operations, relative to the audience base URL (production: /gtm/studio). */
export const AUDIENCE_WRITE_PATHS = {
  audiences: "/v1/audiences",
  audience: (audienceId: string) => `/v1/audiences/${encodeURIComponent(audienceId)}`,
  addColumns: (audienceId: string) => `/v1/audiences/${encodeURIComponent(audienceId)}/columns/actions/bulk/create`,
  matchCriteria: (audienceId: string) => `/v1/audiences/${encodeURIComponent(audienceId)}/actions/match-criteria`,
  upsertRows: (audienceId: string) => `/v1/audiences/${encodeURIComponent(audienceId)}/rows/actions/upsert`,
  bulkUpsertRows: (audienceId: string) => `/v1/audiences/${encodeURIComponent(audienceId)}/rows/actions/bulk/upsert`,
  deleteRows: (audienceId: string) => `/v1/audiences/${encodeURIComponent(audienceId)}/rows/actions/bulk/delete`,
  folders: "/v1/folders",
  folder: (folderId: string) => `/v1/folders/${encodeURIComponent(folderId)}`,
} as const;

const Name = Type.String({ minLength: 1, maxLength: 200, pattern: "\\S" });
const literals = <T extends readonly string[]>(values: T) => Type.Union(values.map((v) => Type.Literal(v))) as unknown as TUnion<TLiteral<T[number]>[]>;
const closed = <T extends Parameters<typeof Type.Object>[0]>(properties: T) => Type.Object(properties, { additionalProperties: false });

/** An audience's, folder's, column's or row's id as a request names it. */
const Id = Type.String({ minLength: 1, maxLength: 200 });
/** What an audience and a folder say of themselves besides their name. */
const described = { description: Type.Optional(Type.String({ maxLength: 2000 })), notes: Type.Optional(Type.String({ maxLength: 2000 })) };
const folderFields = { ...described, starred: Type.Optional(Type.Boolean()) };

/** A CUSTOM column to create: a name and a data type (values are loaded by upserting rows). */
const NewColumn = closed({
  type: Type.Literal("Column"),
  attributes: closed({
    name: Name,
    dataType: literals(AUDIENCE_DATA_TYPES),
    columnType: Type.Literal("CUSTOM"),
    isFrozen: Type.Optional(Type.Boolean()),
    isHidden: Type.Optional(Type.Boolean()),
  }),
});

export const CreateAudienceBody = closed({
  data: closed({
    type: Type.Literal("Audience"),
    attributes: closed({
      name: Name,
      type: literals(AUDIENCE_TYPES),
      origin: Type.Literal("CUSTOM"),
      ...described,
      folderId: Type.Optional(Id),
      columns: Type.Optional(Type.Array(NewColumn, { maxItems: 500 })),
    }),
  }),
});
export type CreateAudienceBody = Static<typeof CreateAudienceBody>;

export const AddColumnsBody = closed({ data: Type.Array(NewColumn, { minItems: 1, maxItems: 500 }) });
export type AddColumnsBody = Static<typeof AddColumnsBody>;

const MatchCriteriaItem = closed({ columnId: Id, mappedTo: literals(MATCH_CRITERIA) });
/** No body, or no `matchCriteria`: the service maps the columns itself. */
export const MatchCriteriaBody = closed({
  data: closed({
    type: Type.Literal("UpsertMatchCriteria"),
    attributes: closed({ matchCriteria: Type.Optional(Type.Array(MatchCriteriaItem, { maxItems: 100 })) }),
  }),
});
export type MatchCriteriaBody = Static<typeof MatchCriteriaBody>;

/** A cell as sent: the service's value shapes (text, number, true/false, lists); "" clears a cell. How long a text may be is the cell's rule (audienceWriteCells.ts), not the request's. */
export const CellValue = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Array(Type.String()), Type.Array(Type.Number())]);
export type CellValue = Static<typeof CellValue>;

const UpsertRow = closed({
  type: Type.Literal("Row"),
  /** The row to update; none creates a row. */
  id: Type.Optional(Id),
  attributes: closed({ values: Type.Array(closed({ columnId: Id, value: CellValue }), { maxItems: 1000 }) }),
});
export type UpsertRow = Static<typeof UpsertRow>;

const rowsBody = (maxItems: number) => closed({ data: Type.Array(UpsertRow, { minItems: 1, maxItems }) });
export const UpsertRowsBody = rowsBody(AUDIENCE_WRITE_LIMITS.upsertRows);
export const BulkUpsertRowsBody = rowsBody(AUDIENCE_WRITE_LIMITS.bulkUpsertRows);
export type UpsertRowsBody = Static<typeof BulkUpsertRowsBody>;

export const DeleteRowsBody = closed({
  data: Type.Array(closed({ type: Type.Literal("Row"), id: Id }), {
    minItems: 1,
    maxItems: AUDIENCE_WRITE_LIMITS.deleteRows,
  }),
});
export type DeleteRowsBody = Static<typeof DeleteRowsBody>;

export const PatchAudienceBody = closed({
  data: closed({
    type: Type.Literal("Audience"),
    attributes: closed({
      name: Type.Optional(Name),
      ...described,
      folderId: Type.Optional(Id),
    }),
  }),
});
export type PatchAudienceBody = Static<typeof PatchAudienceBody>;

export const CreateFolderBody = closed({
  data: closed({
    type: Type.Literal("Folder"),
    attributes: closed({ name: Name, ...folderFields }),
  }),
});
export type CreateFolderBody = Static<typeof CreateFolderBody>;

export const PatchFolderBody = closed({
  data: closed({
    type: Type.Literal("Folder"),
    attributes: closed({ name: Type.Optional(Name), ...folderFields }),
  }),
});
export type PatchFolderBody = Static<typeof PatchFolderBody>;

/** A column's name (and how it shows: frozen, hidden); its data type never changes. */
export const PatchColumnBody = closed({
  data: closed({
    type: Type.Literal("Column"),
    attributes: closed({ name: Type.Optional(Name), isFrozen: Type.Optional(Type.Boolean()), isHidden: Type.Optional(Type.Boolean()) }),
  }),
});
export type PatchColumnBody = Static<typeof PatchColumnBody>;

// ---------- answers (read leniently: the service may add fields) ----------

const open = <T extends Parameters<typeof Type.Object>[0]>(properties: T) => Type.Object(properties, { additionalProperties: true });

/** A column as answered: computed columns (AI) may have no data type. */
export const WrittenColumn = open({
  id: Type.String({ minLength: 1 }),
  type: Type.String(),
  attributes: open({
    name: Type.String(),
    dataType: Type.Optional(Type.String()),
    columnType: Type.Optional(Type.String()),
    /** The published data and column type, where the production edge gave the contract's in their place. */
    serviceDataType: Type.Optional(Type.String()),
    serviceColumnType: Type.Optional(Type.String()),
    matchCriteria: Type.Optional(Type.Array(open({ columnId: Type.String(), mappedTo: Type.String() }))),
  }),
});
export type WrittenColumn = Static<typeof WrittenColumn>;

export const WrittenAudienceDocument = open({
  data: open({
    id: Type.String({ minLength: 1 }),
    type: Type.String(),
    attributes: open({ name: Type.String(), type: Type.String(), columns: Type.Optional(Type.Array(WrittenColumn)) }),
  }),
});
export const ColumnListDocument = open({ data: Type.Array(WrittenColumn) });
export const ColumnDocument = open({ data: WrittenColumn });

const AnsweredCell = open({
  columnId: Type.String(),
  value: Type.Optional(Type.Unknown()),
  state: Type.String(),
  errorDetails: Type.Optional(open({ summary: Type.Optional(Type.String()), description: Type.Optional(Type.String()) })),
});
export const UpsertedRowsDocument = open({
  data: Type.Array(open({ id: Type.String({ minLength: 1 }), type: Type.String(), attributes: open({ values: Type.Array(AnsweredCell) }) })),
});
export type UpsertedRowsDocument = Static<typeof UpsertedRowsDocument>;

export const RowAsyncJobDocument = open({ data: open({ id: Type.String({ minLength: 1 }), type: Type.String() }) });

const Folder = open({ id: Type.String({ minLength: 1 }), type: Type.String(), attributes: open({ name: Type.String() }) });
export const FolderDocument = open({ data: Folder });
export const FolderListDocument = open({ data: Type.Array(Folder), meta: Type.Optional(open({ total: Type.Optional(Type.Integer()) })) });

// ---------- validation beyond the schemas ----------

function duplicates(values: readonly string[]): Map<string, number> {
  const seen = new Set<string>();
  const repeated = new Map<string, number>();
  values.forEach((value, i) => {
    if (seen.has(value) && !repeated.has(value)) repeated.set(value, i);
    seen.add(value);
  });
  return repeated;
}

function issue(pointer: string, label: string, rule: string, message: string, code: string = ERROR_CODES.validation): ValidationIssue {
  return { pointer, label, rule, code, message };
}

function validateColumnNames(names: readonly string[], base: string): ValidationIssue[] {
  return [...duplicates(names.map((n) => n.trim().toLowerCase()))].map(([name, i]) =>
    issue(`${base}/${i}/attributes/name`, "Column name", "unique", `Two columns are named "${name}"; each column needs its own name.`),
  );
}

export function validateCreateAudienceBody(body: unknown): ValidationIssue[] {
  const issues = validateAgainst(CreateAudienceBody, body);
  if (issues.length > 0) return issues;
  const columns = (body as CreateAudienceBody).data.attributes.columns ?? [];
  return validateColumnNames(
    columns.map((c) => c.attributes.name),
    "/data/attributes/columns",
  );
}

export function validateAddColumnsBody(body: unknown): ValidationIssue[] {
  const issues = validateAgainst(AddColumnsBody, body);
  if (issues.length > 0) return issues;
  return validateColumnNames(
    (body as AddColumnsBody).data.map((c) => c.attributes.name),
    "/data",
  );
}

/** An absent body is valid: the service maps the columns itself. Columns must not repeat. */
export function validateMatchCriteriaBody(body: unknown): ValidationIssue[] {
  if (body === undefined || body === null || body === "") return [];
  const issues = validateAgainst(MatchCriteriaBody, body);
  if (issues.length > 0) return issues;
  const criteria = (body as MatchCriteriaBody).data.attributes.matchCriteria ?? [];
  return [...duplicates(criteria.map((c) => c.columnId))].map(([columnId, i]) =>
    issue(`/data/attributes/matchCriteria/${i}/columnId`, "Match column", "unique", `Column ${columnId} is mapped twice; map each column once.`),
  );
}

/** Rows to upsert (at most `max`): a row id once, a column once per row. */
export function validateUpsertRowsBody(body: unknown, max: number = AUDIENCE_WRITE_LIMITS.bulkUpsertRows): ValidationIssue[] {
  const schema: TSchema = max <= AUDIENCE_WRITE_LIMITS.upsertRows ? UpsertRowsBody : BulkUpsertRowsBody;
  const rows = (body as { data?: unknown } | null)?.data;
  if (Array.isArray(rows) && rows.length > max) {
    return [
      issue(
        "/data",
        "Rows",
        "maxItems",
        `At most ${max.toLocaleString("en-US")} rows can be sent in one request; this one has ${rows.length.toLocaleString("en-US")}.`,
      ),
    ];
  }
  const issues = validateAgainst(schema, body);
  if (issues.length > 0) return issues;
  const data = (body as UpsertRowsBody).data;
  const seenIds = new Set<string>();
  data.forEach((row, r) => {
    if (row.id === undefined) return;
    if (seenIds.has(row.id)) issues.push(issue(`/data/${r}/id`, "Row", "unique", `Row ${row.id} is sent twice in one request; send each row once.`));
    seenIds.add(row.id);
  });
  data.forEach((row, r) => {
    for (const [columnId, c] of duplicates(row.attributes.values.map((v) => v.columnId))) {
      issues.push(issue(`/data/${r}/attributes/values/${c}/columnId`, "Cell", "unique", `Row ${r + 1} has two values for column ${columnId}.`));
    }
  });
  return issues;
}

export function validateDeleteRowsBody(body: unknown): ValidationIssue[] {
  const rows = (body as { data?: unknown } | null)?.data;
  if (Array.isArray(rows) && rows.length > AUDIENCE_WRITE_LIMITS.deleteRows) {
    const max = AUDIENCE_WRITE_LIMITS.deleteRows.toLocaleString("en-US");
    return [issue("/data", "Rows", "maxItems", `At most ${max} rows can be deleted in one request; this one has ${rows.length.toLocaleString("en-US")}.`)];
  }
  return validateAgainst(DeleteRowsBody, body);
}

export function validatePatchAudienceBody(body: unknown): ValidationIssue[] {
  return validateAgainst(PatchAudienceBody, body);
}

export function validateCreateFolderBody(body: unknown): ValidationIssue[] {
  return validateAgainst(CreateFolderBody, body);
}

export function validatePatchFolderBody(body: unknown): ValidationIssue[] {
  return validateAgainst(PatchFolderBody, body);
}

export function validatePatchColumnBody(body: unknown): ValidationIssue[] {
  return validateAgainst(PatchColumnBody, body);
}
