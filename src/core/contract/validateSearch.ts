// Search requests checked beyond their schema: the cross-field rules of search (ranges in order,
// dates in order, fields that need or exclude another) and the page and sort parameters, with
// the same issues in the client and the sandbox (validate.ts holds the schema check).
import type { TSchema } from "@sinclair/typebox";
import { ERROR_CODES, LIMITS, type RecordKind } from "./common.js";
import type { FilterSpec, RangePair } from "./fields.js";
import {
  COMPANY_FILTERS,
  COMPANY_RANGES,
  COMPANY_SORT_FIELDS,
  CONTACT_FILTERS,
  CONTACT_RANGES,
  CONTACT_SORT_FIELDS,
  CompanySearchBody,
  ContactSearchBody,
} from "./search.js";
import { validateAgainst, type ValidationIssue } from "./validate.js";

const ATTR = "/data/attributes";

function asNumber(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "string" && value.trim() !== "" && !Number.isNaN(Number(value))) return Number(value);
  return undefined;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}/;

/**
 * What the rules across fields share (search here, signals in signals.ts): a field's label, an
 * issue added at a field's pointer unless that pointer has one already (from the schema or an
 * earlier rule), and ranges in order: numbers (or numeric text) compared as numbers, dates as dates.
 */
export function crossFieldRules(filters: Record<string, FilterSpec>, issues: ValidationIssue[]) {
  const taken = new Set(issues.map((i) => i.pointer ?? ""));
  const label = (f: string) => (Object.hasOwn(filters, f) ? filters[f]?.label : undefined) ?? f;
  const add = (field: string, rule: string, message: string, code: string = ERROR_CODES.invalidValue) => {
    const pointer = `${ATTR}/${field}`;
    if (taken.has(pointer)) return;
    taken.add(pointer);
    issues.push({ pointer, label: label(field), rule, code, message });
  };
  /** The ranges of these filters whose lower end lies beyond the upper one. */
  const rangesInOrder = (attrs: Record<string, unknown>, ranges: readonly RangePair[]) => {
    for (const { min, max } of ranges) {
      if (!Object.hasOwn(filters, min)) continue;
      const [lo, hi] = [attrs[min], attrs[max]];
      const [loNumber, hiNumber] = [asNumber(lo), asNumber(hi)];
      if (loNumber !== undefined && hiNumber !== undefined) {
        if (loNumber > hiNumber) add(min, "minAboveMax", `${label(min)} must not be greater than ${label(max)}.`);
      } else if (typeof lo === "string" && typeof hi === "string" && ISO_DATE.test(lo) && ISO_DATE.test(hi) && lo > hi) {
        add(min, "minAboveMax", `${label(min)} must not be after ${label(max)}.`);
      }
    }
  };
  return { label, add, rangesInOrder };
}

/** The cross-field rules of search (docs/service.md, "Search"), checked only when the fields are well formed. */
function crossFieldIssues(attrs: Record<string, unknown>, filters: Record<string, FilterSpec>, ranges: readonly RangePair[], issues: ValidationIssue[]): void {
  const { label, add, rangesInOrder } = crossFieldRules(filters, issues);
  rangesInOrder(attrs, ranges);
  const fs = attrs.fundingStartDate;
  const fe = attrs.fundingEndDate;
  if (typeof fs === "string" && typeof fe === "string" && fs > fe) {
    add("fundingStartDate", "dateOrder", `${label("fundingStartDate")} must be on or before ${label("fundingEndDate")}.`);
  }
  if (attrs.engagementEndDate !== undefined && attrs.engagementStartDate === undefined) {
    add("engagementEndDate", "requires", `${label("engagementEndDate")} needs ${label("engagementStartDate")} too.`);
  }
  const es = attrs.engagementStartDate;
  const ee = attrs.engagementEndDate;
  if (typeof es === "string" && typeof ee === "string" && es > ee) {
    add("engagementStartDate", "dateOrder", `${label("engagementStartDate")} must be on or before ${label("engagementEndDate")}.`);
  }
  if (attrs.recentFundingRoundTypes !== undefined && attrs.allFundingRoundTypes !== undefined) {
    add("allFundingRoundTypes", "exclusive", `Use either ${label("recentFundingRoundTypes")} or ${label("allFundingRoundTypes")}, not both.`);
  }
  if (attrs.zipCodeRadiusMiles !== undefined && (typeof attrs.zipCode !== "string" || attrs.zipCode.trim() === "")) {
    add("zipCodeRadiusMiles", "requires", `${label("zipCodeRadiusMiles")} needs a ${label("zipCode")}.`);
  }
  if (attrs.subUnitTypes !== undefined && attrs.parentId === undefined && attrs.ultimateParentId === undefined) {
    add("subUnitTypes", "requires", `${label("subUnitTypes")} needs a ${label("parentId")} or ${label("ultimateParentId")}.`);
  }
}

function validateSearchBody(body: unknown, schema: TSchema, filters: Record<string, FilterSpec>, ranges: readonly RangePair[]): ValidationIssue[] {
  const issues = validateAgainst(schema, body, filters);
  const attrs = (body as { data?: { attributes?: unknown } } | null)?.data?.attributes;
  if (attrs && typeof attrs === "object" && !Array.isArray(attrs)) crossFieldIssues(attrs as Record<string, unknown>, filters, ranges, issues);
  return issues;
}

export function validateCompanySearchBody(body: unknown): ValidationIssue[] {
  return validateSearchBody(body, CompanySearchBody, COMPANY_FILTERS, COMPANY_RANGES);
}

export function validateContactSearchBody(body: unknown): ValidationIssue[] {
  return validateSearchBody(body, ContactSearchBody, CONTACT_FILTERS, CONTACT_RANGES);
}

/** Builds a search body from filters; validating it gives pointers the sandbox would give. */
export function companySearchBody(filters: object) {
  return { data: { type: "CompanySearch" as const, attributes: filters } };
}
export function contactSearchBody(filters: object) {
  return { data: { type: "ContactSearch" as const, attributes: filters } };
}

/** The kind of record a search finds (the contract's one record kind). */
export type SearchKind = RecordKind;

/**
 * Query parameters of a search, as strings from the URL (the sandbox) or as the
 * client's numbers turned to strings. `page[number]` above 100 is refused as in production.
 */
export function validateSearchQuery(query: Record<string, string | undefined>, kind: SearchKind): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const v = ERROR_CODES.validation;
  const n = query["page[number]"];
  if (n !== undefined) {
    if (!/^\d+$/.test(n)) {
      issues.push({ parameter: "page[number]", label: "Page number", rule: "type", code: v, message: "Page number must be a whole number." });
    } else if (Number(n) < 1) {
      issues.push({ parameter: "page[number]", label: "Page number", rule: "minimum", code: v, message: "Page number must be 1 or more." });
    } else if (Number(n) > LIMITS.maxPageNumber) {
      issues.push({
        parameter: "page[number]",
        label: "Page number",
        rule: "maximum",
        code: v,
        message: `Page number must be ${LIMITS.maxPageNumber} or less: the service returns at most ${LIMITS.maxPageNumber} pages for one search.`,
      });
    }
  }
  const s = query["page[size]"];
  if (s !== undefined) {
    if (!/^\d+$/.test(s)) {
      issues.push({ parameter: "page[size]", label: "Page size", rule: "type", code: v, message: "Page size must be a whole number." });
    } else if (Number(s) < 1 || Number(s) > LIMITS.maxPageSize) {
      issues.push({
        parameter: "page[size]",
        label: "Page size",
        rule: Number(s) < 1 ? "minimum" : "maximum",
        code: v,
        message: `Page size must be between 1 and ${LIMITS.maxPageSize}.`,
      });
    }
  }
  const sort = query.sort;
  if (sort !== undefined) {
    const fields: readonly string[] = kind === "company" ? COMPANY_SORT_FIELDS : CONTACT_SORT_FIELDS;
    const bare = sort.startsWith("-") ? sort.slice(1) : sort;
    if (!fields.includes(bare)) {
      issues.push({
        parameter: "sort",
        label: "Sort",
        rule: "oneOf",
        code: v,
        message: `Sort must be one of: ${fields.join(", ")} (with - in front for descending).`,
      });
    }
  }
  return issues;
}
