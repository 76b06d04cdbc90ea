// Company and contact enrichment (docs/service.md, "Enrichment" and "Records").
import { Type, type Static } from "@sinclair/typebox";
import { LIMITS } from "./common.js";

/** How an output field is shaped, so cells and columns get the right type. */
export type OutputFieldType = "string" | "integer" | "number" | "boolean" | "date" | "datetime" | "url" | "list" | "object";

export interface OutputFieldSpec {
  label: string;
  type: OutputFieldType;
}

/** Company output fields: the basic list and the further ones (docs/service.md, "Records"). */
export const COMPANY_OUTPUT_FIELDS = {
  id: { label: "Company ID", type: "integer" },
  name: { label: "Company name", type: "string" },
  ticker: { label: "Ticker", type: "string" },
  website: { label: "Website", type: "url" },
  socialMediaUrls: { label: "Social media", type: "list" },
  revenue: { label: "Revenue ($K)", type: "integer" },
  numberOfContactsInService: { label: "Contacts held", type: "integer" },
  country: { label: "Country", type: "string" },
  continent: { label: "Continent", type: "string" },
  companyStatus: { label: "Company status", type: "string" },
  siteRank: { label: "Site rank", type: "integer" },
  hashtags: { label: "Hashtags", type: "list" },
  certified: { label: "Certified", type: "boolean" },
  employeeRange: { label: "Employee range", type: "string" },
  employeeGrowth: { label: "Employee growth", type: "object" },
  parentId: { label: "Parent ID", type: "integer" },
  parentName: { label: "Parent name", type: "string" },
  locationCount: { label: "Locations", type: "integer" },
  foundedYear: { label: "Founded", type: "string" },
  city: { label: "City", type: "string" },
  state: { label: "State", type: "string" },
  street: { label: "Street", type: "string" },
  zipCode: { label: "Zip code", type: "string" },
  phone: { label: "Phone", type: "string" },
  fax: { label: "Fax", type: "string" },
  description: { label: "Description", type: "string" },
  industries: { label: "Industries", type: "list" },
  primaryIndustry: { label: "Primary industry", type: "list" },
  industryCodes: { label: "Industry codes", type: "list" },
  sicCodes: { label: "SIC codes", type: "list" },
  naicsCodes: { label: "NAICS codes", type: "list" },
  employeeCount: { label: "Employees", type: "integer" },
  revenueRange: { label: "Revenue range", type: "string" },
  logo: { label: "Logo", type: "url" },
  type: { label: "Company type", type: "string" },
  businessModel: { label: "Business model", type: "list" },
  isDefunct: { label: "Defunct", type: "boolean" },
  companyFunding: { label: "Funding rounds", type: "list" },
  totalFundingAmount: { label: "Total funding ($K)", type: "integer" },
  recentFundingAmount: { label: "Recent funding ($K)", type: "integer" },
  recentFundingDate: { label: "Recent funding date", type: "date" },
  ultimateParentId: { label: "Ultimate parent ID", type: "integer" },
  ultimateParentName: { label: "Ultimate parent name", type: "string" },
  metroArea: { label: "Metro area", type: "string" },
  products: { label: "Products", type: "list" },
  competitors: { label: "Competitors", type: "list" },
  domainList: { label: "Domains", type: "list" },
  departmentBudgets: { label: "Department budgets", type: "object" },
  employeeCountByDepartment: { label: "Employees by department", type: "object" },
  lastUpdatedDate: { label: "Last updated", type: "datetime" },
} as const satisfies Record<string, OutputFieldSpec>;

export type CompanyOutputField = keyof typeof COMPANY_OUTPUT_FIELDS;
export const COMPANY_OUTPUT_FIELD_NAMES = Object.keys(COMPANY_OUTPUT_FIELDS) as CompanyOutputField[];

/** Contact output fields (docs/service.md, "Records"). Company fields come back nested under `company`. */
export const CONTACT_OUTPUT_FIELDS = {
  id: { label: "Person ID", type: "integer" },
  firstName: { label: "First name", type: "string" },
  middleName: { label: "Middle name", type: "string" },
  lastName: { label: "Last name", type: "string" },
  jobTitle: { label: "Job title", type: "string" },
  email: { label: "Email", type: "string" },
  phone: { label: "Phone", type: "string" },
  mobilePhone: { label: "Mobile phone", type: "string" },
  directPhoneDoNotCall: { label: "Direct phone do-not-call", type: "boolean" },
  mobilePhoneDoNotCall: { label: "Mobile do-not-call", type: "boolean" },
  managementLevel: { label: "Management level", type: "list" },
  jobFunction: { label: "Job function", type: "list" },
  city: { label: "City", type: "string" },
  state: { label: "State", type: "string" },
  country: { label: "Country", type: "string" },
  contactAccuracyScore: { label: "Accuracy score", type: "integer" },
  lastUpdatedDate: { label: "Last updated", type: "datetime" },
  validDate: { label: "Valid date", type: "datetime" },
  companyId: { label: "Company ID", type: "integer" },
  companyName: { label: "Company name", type: "string" },
} as const satisfies Record<string, OutputFieldSpec>;

export type ContactOutputField = keyof typeof CONTACT_OUTPUT_FIELDS;
export const CONTACT_OUTPUT_FIELD_NAMES = Object.keys(CONTACT_OUTPUT_FIELDS) as ContactOutputField[];

const S = LIMITS.maxStringLength;
/** A record id: 0 is an id no record has (the service answers it with NO_MATCH, as its own example shows). */
const recordId = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });

export const MatchCompanyInput = Type.Object(
  {
    companyId: Type.Optional(recordId),
    companyName: Type.Optional(Type.String({ maxLength: S })),
    companyWebsite: Type.Optional(Type.String({ maxLength: S })),
    companyTicker: Type.Optional(Type.String({ maxLength: S })),
    companyPhone: Type.Optional(Type.String({ maxLength: S })),
    companyStreet: Type.Optional(Type.String({ maxLength: S })),
    companyCity: Type.Optional(Type.String({ maxLength: S })),
    companyState: Type.Optional(Type.String({ maxLength: S })),
    companyZipCode: Type.Optional(Type.String({ maxLength: S })),
    companyCountry: Type.Optional(Type.String({ maxLength: S })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type MatchCompanyInput = Static<typeof MatchCompanyInput>;

export const MatchPersonInput = Type.Object(
  {
    personId: Type.Optional(recordId),
    firstName: Type.Optional(Type.String({ maxLength: S })),
    lastName: Type.Optional(Type.String({ maxLength: S })),
    fullName: Type.Optional(Type.String({ maxLength: S })),
    emailAddress: Type.Optional(Type.String({ maxLength: S })),
    companyId: Type.Optional(recordId),
    companyName: Type.Optional(Type.String({ maxLength: S })),
    jobTitle: Type.Optional(Type.String({ maxLength: S })),
    phone: Type.Optional(Type.String({ maxLength: S })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type MatchPersonInput = Static<typeof MatchPersonInput>;

const companyFieldName = Type.Union(
  COMPANY_OUTPUT_FIELD_NAMES.map((f) => Type.Literal(f)),
  {
    "x-rule": "outputField",
  },
);
const contactFieldName = Type.Union(
  CONTACT_OUTPUT_FIELD_NAMES.map((f) => Type.Literal(f)),
  {
    "x-rule": "outputField",
  },
);

export const CompanyEnrichBody = Type.Object(
  {
    data: Type.Object(
      {
        type: Type.Literal("CompanyEnrich"),
        attributes: Type.Object(
          {
            matchCompanyInput: Type.Array(MatchCompanyInput, { minItems: 1, maxItems: LIMITS.maxEnrichInputs }),
            outputFields: Type.Array(companyFieldName, { minItems: 1, maxItems: COMPANY_OUTPUT_FIELD_NAMES.length }),
          },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type CompanyEnrichBody = Static<typeof CompanyEnrichBody>;

export const ContactEnrichBody = Type.Object(
  {
    data: Type.Object(
      {
        type: Type.Literal("ContactEnrich"),
        attributes: Type.Object(
          {
            matchPersonInput: Type.Array(MatchPersonInput, { minItems: 1, maxItems: LIMITS.maxEnrichInputs }),
            outputFields: Type.Array(contactFieldName, { minItems: 1, maxItems: CONTACT_OUTPUT_FIELD_NAMES.length }),
            requiredFields: Type.Optional(Type.Array(contactFieldName, { maxItems: CONTACT_OUTPUT_FIELD_NAMES.length })),
          },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type ContactEnrichBody = Static<typeof ContactEnrichBody>;

/** One item of an enrichment response: a match or a miss. Open to unknown statuses. */
export const EnrichResultItem = Type.Object(
  {
    id: Type.String(),
    type: Type.String(),
    attributes: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    meta: Type.Object(
      {
        matchStatus: Type.String(),
        input: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
        warnings: Type.Optional(Type.Array(Type.Unknown())),
      },
      { additionalProperties: true },
    ),
  },
  { additionalProperties: true },
);
export type EnrichResultItem = Static<typeof EnrichResultItem>;

export const EnrichResultDocument = Type.Object({ data: Type.Array(EnrichResultItem) }, { additionalProperties: true });
export type EnrichResultDocument = Static<typeof EnrichResultDocument>;
