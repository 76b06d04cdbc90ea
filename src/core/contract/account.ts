// Lookup, usage, audiences and enrichment jobs (docs/service.md, "Lookup", "Usage", "Audiences and jobs").
import { Type, type Static } from "@sinclair/typebox";

export const LOOKUP_FIELDS = [
  "funding-round-types",
  "industries",
  "employee-count",
  "revenue-ranges",
  "metro-regions",
  "company-types",
  "countries",
  "states",
  "continents",
  "sub-unit-types",
  "tech-products",
  "hashtags",
  "management-levels",
  "departments",
  "job-functions",
] as const;

export const LookupItem = Type.Object(
  {
    id: Type.String(),
    type: Type.String(),
    attributes: Type.Object({ name: Type.String() }, { additionalProperties: true }),
  },
  { additionalProperties: true },
);
export type LookupItem = Static<typeof LookupItem>;
export const LookupDocument = Type.Object({ data: Type.Array(LookupItem) }, { additionalProperties: true });
export type LookupDocument = Static<typeof LookupDocument>;

export const UsageEntry = Type.Object(
  {
    limitType: Type.String(),
    description: Type.Optional(Type.String()),
    totalLimit: Type.Number(),
    currentUsage: Type.Number(),
    usageRemaining: Type.Number(),
  },
  { additionalProperties: true },
);
export type UsageEntry = Static<typeof UsageEntry>;
export const UsageDocument = Type.Object(
  {
    data: Type.Array(
      Type.Object(
        {
          type: Type.String(),
          attributes: Type.Object({ usage: Type.Array(UsageEntry) }, { additionalProperties: true }),
        },
        { additionalProperties: true },
      ),
    ),
  },
  { additionalProperties: true },
);
export type UsageDocument = Static<typeof UsageDocument>;

// ---------- audiences ----------

const UUID_PATTERN = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";
const Uuid = Type.String({ pattern: UUID_PATTERN, "x-rule": "uuid" });
export function isUuid(value: string): boolean {
  return new RegExp(UUID_PATTERN).test(value);
}

export const AUDIENCE_TYPES = ["COMPANY", "CONTACT"] as const;

const AudienceColumn = Type.Object(
  {
    id: Type.String(),
    type: Type.Literal("Column"),
    attributes: Type.Object({ name: Type.String(), dataType: Type.String(), columnType: Type.String() }, { additionalProperties: true }),
  },
  { additionalProperties: true },
);
export type AudienceColumn = Static<typeof AudienceColumn>;

export const Audience = Type.Object(
  {
    id: Type.String(),
    type: Type.Literal("Audience"),
    attributes: Type.Object(
      {
        name: Type.String(),
        description: Type.Optional(Type.String()),
        recordCount: Type.Integer(),
        type: Type.String(),
        columns: Type.Array(AudienceColumn),
      },
      { additionalProperties: true },
    ),
  },
  { additionalProperties: true },
);
export type Audience = Static<typeof Audience>;

export const AudienceListDocument = Type.Object({ data: Type.Array(Audience) }, { additionalProperties: true });
export const AudienceDocument = Type.Object({ data: Audience }, { additionalProperties: true });

const RowValue = Type.Object(
  {
    columnId: Type.String(),
    value: Type.Optional(Type.Unknown()),
    state: Type.String(),
    errorDetails: Type.Optional(
      Type.Object(
        { summary: Type.String(), description: Type.Optional(Type.String()), retryable: Type.Optional(Type.Boolean()) },
        { additionalProperties: true },
      ),
    ),
  },
  { additionalProperties: true },
);
export type RowValue = Static<typeof RowValue>;

export const AudienceRow = Type.Object(
  {
    id: Type.String(),
    type: Type.Literal("Row"),
    attributes: Type.Object({ values: Type.Array(RowValue) }, { additionalProperties: true }),
  },
  { additionalProperties: true },
);
export type AudienceRow = Static<typeof AudienceRow>;

const ENRICH_SCOPES = ["AUDIENCE", "ROW"] as const;

/** Start an audience enrichment. The ROW scope needs at least one row: see validate.ts. */
export const AudienceEnrichBody = Type.Object(
  {
    data: Type.Object(
      {
        type: Type.Literal("AudienceEnrichment"),
        attributes: Type.Object(
          {
            scope: Type.Union(ENRICH_SCOPES.map((s) => Type.Literal(s))),
            rows: Type.Optional(Type.Array(Uuid, { maxItems: 20000 })),
            columns: Type.Optional(Type.Array(Type.String({ maxLength: 500 }), { maxItems: 500 })),
          },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type AudienceEnrichBody = Static<typeof AudienceEnrichBody>;

export const EnrichJobDocument = Type.Object(
  {
    data: Type.Object({ id: Type.String({ minLength: 1 }), type: Type.String() }, { additionalProperties: true }),
  },
  { additionalProperties: true },
);
export type EnrichJobDocument = Static<typeof EnrichJobDocument>;

const TERMINAL_JOB_STATES = ["SUCCEEDED", "PARTIALLY_SUCCEEDED", "FAILED", "CANCELLED"] as const;
export function isTerminalJobState(state: string): boolean {
  return (TERMINAL_JOB_STATES as readonly string[]).includes(state);
}

export const JobStatusDocument = Type.Object(
  {
    data: Type.Object(
      {
        id: Type.String(),
        type: Type.String(),
        attributes: Type.Object(
          {
            status: Type.String(),
            percentProgress: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
          },
          { additionalProperties: true },
        ),
      },
      { additionalProperties: true },
    ),
  },
  { additionalProperties: true },
);
export type JobStatusDocument = Static<typeof JobStatusDocument>;
