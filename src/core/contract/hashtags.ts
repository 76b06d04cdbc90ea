// Hashtags (the data API's hashtag enrich): what the service tags a company with, e.g. "250+
// Operations Employees" in the group "Number of Operations Employees". One company a request, no
// credit. The request, its wire answer, the plain item the add-in reads, and the fields a cell
// or a column asks (core/enrich/builtInKinds.ts declares the kind).
import { Type, type Static } from "@sinclair/typebox";
import { validateAgainst, type ValidationIssue } from "./validate.js";

export const HASHTAGS_PATH = "/data/v1/companies/hashtags/enrich";

const Open = { additionalProperties: true } as const;
const opt = Type.Optional;

export const HashtagEnrichRequest = Type.Object({
  data: Type.Object({
    type: Type.Literal("HashtagEnrich"),
    attributes: Type.Object({ companyId: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
  }),
});
export type HashtagEnrichRequest = Static<typeof HashtagEnrichRequest>;

export function hashtagBody(companyId: number): HashtagEnrichRequest {
  return { data: { type: "HashtagEnrich", attributes: { companyId } } };
}

export function validateHashtagBody(body: unknown): ValidationIssue[] {
  return validateAgainst(HashtagEnrichRequest, body);
}

/** One hashtag as the service sends it (its published HashtagEnrichResponseAttributes). */
export const HashtagWireItem = Type.Object(
  {
    id: Type.String(),
    type: Type.Literal("Hashtag"),
    attributes: Type.Object(
      {
        label: opt(Type.String()),
        displayLabel: opt(Type.String()),
        description: opt(Type.String()),
        group: opt(Type.String()),
        parentCategory: opt(Type.String()),
        priority: opt(Type.Integer()),
        displayScore: opt(Type.String()),
        searchString: opt(Type.String()),
        categorizedFlag: opt(Type.Boolean()),
        hidden: opt(Type.Boolean()),
      },
      Open,
    ),
  },
  Open,
);
export const HashtagsDocument = Type.Object({ data: Type.Array(HashtagWireItem) }, Open);
export type HashtagsDocument = Static<typeof HashtagsDocument>;

/** A hashtag as the cache and the cells hold it. */
export interface HashtagItem {
  id: string;
  label: string;
  group: string;
  category: string;
}

/** The plain items of an answer; hidden hashtags are left out, the rest by priority (highest first). */
export function readHashtags(doc: HashtagsDocument): HashtagItem[] {
  return doc.data
    .filter((item) => item.attributes.hidden !== true)
    .sort((a, b) => (b.attributes.priority ?? 0) - (a.attributes.priority ?? 0))
    .map((item) => ({
      id: item.id,
      label: item.attributes.displayLabel ?? item.attributes.label ?? item.id,
      group: item.attributes.group ?? "",
      category: item.attributes.parentCategory ?? "",
    }));
}

/** The fields of the hashtags kind: the labels as one line, their groups, and the list the cells read. */
export const HASHTAG_OUTPUT_FIELDS = {
  hashtagLabels: { label: "Hashtags", type: "string" },
  hashtagGroups: { label: "Hashtag groups", type: "string" },
  hashtags: { label: "Hashtags (list)", type: "list" },
} as const;
