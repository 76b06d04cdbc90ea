// How an enrichment job matches a written audience's rows (docs/audiences.md, "Matching"): the
// match column's criteria say which column holds a website, a name, an email, an id, …; a row's
// values under them become the enrichment's match input, and the sandbox's one matcher (the
// enrichment's, src/sandbox/match/) finds the record. The service's own mapping ("AUTO") reads
// the columns' names and data types.
import type { MatchCompanyInput, MatchPersonInput } from "../../core/contract/index.js";
import type { AudienceKind, ColumnRecord, RowRecord } from "./store.js";

type CompanyField = keyof MatchCompanyInput;
type PersonField = keyof MatchPersonInput;

/** What each criterion fills in a company audience's match input. */
const COMPANY_FIELDS: Readonly<Record<string, CompanyField>> = {
  COMPANY_WEBSITE: "companyWebsite",
  COMPANY_NAME: "companyName",
  ZOOMINFO_COMPANY_ID: "companyId",
  COMPANY_COUNTRY: "companyCountry",
  COMPANY_STATE: "companyState",
  COMPANY_CITY: "companyCity",
  COMPANY_ZIP_CODE: "companyZipCode",
  COMPANY_PHONE: "companyPhone",
  COMPANY_TICKER: "companyTicker",
};

/** What each criterion fills in a contact audience's match input. */
const PERSON_FIELDS: Readonly<Record<string, PersonField>> = {
  CONTACT_EMAIL: "emailAddress",
  CONTACT_FIRST_NAME: "firstName",
  CONTACT_LAST_NAME: "lastName",
  ZOOMINFO_CONTACT_ID: "personId",
  COMPANY_NAME: "companyName",
  CONTACT_ZOOMINFO_COMPANY_ID: "companyId",
  JOB_TITLE: "jobTitle",
  DIRECT_PHONE: "phone",
  MOBILE_PHONE: "phone",
};

/** Criteria the service lists for the other kind of record, or for both (website, name). */
const COMPANY_ONLY = /^(ZOOMINFO_COMPANY_ID|COMPANY_)/;
const CONTACT_ONLY = /^(CONTACT_|ZOOMINFO_CONTACT_ID|JOB_TITLE|DIRECT_PHONE|MOBILE_PHONE)/;

/** Whether a criterion identifies this kind of record (the service's descriptions of MatchFields). */
export function criterionFits(kind: AudienceKind, criterion: string): boolean {
  if (criterion === "COMPANY_WEBSITE" || criterion === "COMPANY_NAME") return true;
  return kind === "COMPANY" ? COMPANY_ONLY.test(criterion) : CONTACT_ONLY.test(criterion);
}

/** The service's own mapping, by a column's name (and an EMAIL or URL data type). */
const AUTO_RULES: ReadonlyArray<{ kinds: AudienceKind[]; criterion: string; test: (c: ColumnRecord, name: string) => boolean }> = [
  { kinds: ["CONTACT"], criterion: "CONTACT_EMAIL", test: (c, n) => c.dataType === "EMAIL" || /e-?mail/.test(n) },
  { kinds: ["COMPANY", "CONTACT"], criterion: "COMPANY_WEBSITE", test: (c, n) => c.dataType === "URL" || /website|domain|\burl\b|web site/.test(n) },
  { kinds: ["COMPANY"], criterion: "ZOOMINFO_COMPANY_ID", test: (_c, n) => /^(zoominfo )?company id$/.test(n) },
  { kinds: ["CONTACT"], criterion: "ZOOMINFO_CONTACT_ID", test: (_c, n) => /^(zoominfo )?(contact|person) id$/.test(n) },
  { kinds: ["CONTACT"], criterion: "CONTACT_FIRST_NAME", test: (_c, n) => /^first ?name$/.test(n) },
  { kinds: ["CONTACT"], criterion: "CONTACT_LAST_NAME", test: (_c, n) => /^(last ?name|surname)$/.test(n) },
  { kinds: ["COMPANY", "CONTACT"], criterion: "COMPANY_NAME", test: (_c, n) => /^(company|account|organi[sz]ation)( name)?$/.test(n) || n === "name" },
  { kinds: ["COMPANY"], criterion: "COMPANY_COUNTRY", test: (_c, n) => /^country$/.test(n) },
  { kinds: ["COMPANY"], criterion: "COMPANY_CITY", test: (_c, n) => /^city$/.test(n) },
];

export function autoCriteria(kind: AudienceKind, columns: readonly ColumnRecord[]): { columnId: string; mappedTo: string }[] {
  const out: { columnId: string; mappedTo: string }[] = [];
  for (const column of columns.filter((c) => c.columnType === "CUSTOM")) {
    const name = column.name.trim().toLowerCase().replace(/[_-]+/g, " ");
    const rule = AUTO_RULES.find((r) => r.kinds.includes(kind) && r.test(column, name) && !out.some((o) => o.mappedTo === r.criterion));
    if (rule) out.push({ columnId: column.id, mappedTo: rule.criterion });
  }
  return out;
}

/** A row's match input from its values under the criteria; undefined when it holds none of them. */
export function matchInput(
  kind: AudienceKind,
  criteria: readonly { columnId: string; mappedTo: string }[],
  row: RowRecord,
): MatchCompanyInput | MatchPersonInput | undefined {
  const fields = kind === "COMPANY" ? COMPANY_FIELDS : PERSON_FIELDS;
  const input: Record<string, string | number> = {};
  for (const { columnId, mappedTo } of criteria) {
    const field = fields[mappedTo];
    const value = row.cells[columnId]?.state === "RESULT" ? row.cells[columnId]?.value : undefined;
    if (field === undefined || value === undefined || value === null || value === "") continue;
    if (field === "companyId" || field === "personId") {
      const id = Number(String(value).trim());
      if (Number.isSafeInteger(id) && id > 0) input[field] = id;
    } else if (input[field] === undefined) {
      input[field] = String(value);
    }
  }
  return Object.keys(input).length === 0 ? undefined : (input as MatchCompanyInput | MatchPersonInput);
}
