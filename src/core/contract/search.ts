// Company and contact search (docs/service.md, "Search"): filters, bodies,
// query parameters and result items.
import { Type, type Static } from "@sinclair/typebox";
import { LIMITS, SearchDocument } from "./common.js";
import { array, boolean, choice, choiceList, date, filtersObject, integer, list, numericText, text, type FilterSpec, type RangePair } from "./fields.js";

const COMPANY_TYPES = ["none", "private", "public", "npo", "education", "government", "other"] as const;
export const SUB_UNIT_TYPES = ["UNSPECIFIED", "LOCATION", "DIVISION", "ACQUISITION", "SUBSIDIARY", "FORMER_NEW_NAME"] as const;
const LOCATION_SEARCH_TYPES = ["PersonOrHQ", "PersonAndHQ", "Person", "HQ", "PersonThenHQ"] as const;
export const ENGAGEMENT_TYPES = ["email", "phone", "online meeting"] as const;
const ZIP_RADII = [10, 25, 50, 100, 250] as const;
const BUSINESS_MODELS = ["B2C", "B2B", "B2G"] as const;

const budgetMin = (label: string) => integer(label, "growth", 0);
const budgetMax = (label: string) => integer(label, "growth", 1);

/** Every company search filter, in form order. */
export const COMPANY_FILTERS = {
  // company
  companyName: text("Company name", "company", { common: true }),
  companyId: list("Company id", "company", { hint: "Comma-separated company ids" }),
  companyWebsite: list("Website", "company", { hint: "http://www.example.com; comma-separated", common: true }),
  companyDescription: text("Description words", "company", { hint: "Space-separated words" }),
  companyTicker: array("Stock tickers", "company"),
  companyType: choiceList("Company type", "company", COMPANY_TYPES, true, { lookup: "company-types" }),
  companyRanking: list("Company ranking", "company", { hint: "Comma-separated ranking ids" }),
  businessModel: array("Business model", "company", { values: BUSINESS_MODELS }),
  certified: choice("Certified", "company", [0, 1], { hint: "1: activity confirmed in the past 12 months" }),
  excludeDefunctCompanies: boolean("Exclude defunct companies", "company"),
  underManagement: boolean("Under management", "company", { hint: "Show whether each record is under management" }),
  // location
  address: text("Address", "location"),
  street: text("Street", "location"),
  state: text("State", "location", { lookup: "states", common: true }),
  zipCode: list("Zip code", "location", {
    schema: Type.String({ maxLength: LIMITS.maxStringLength, pattern: "^[A-Za-z0-9\\s,-]*$", "x-rule": "zipCode" }),
    common: true,
  }),
  zipCodeRadiusMiles: choice("Radius (miles)", "location", ZIP_RADII, { hint: "Used with zip code", common: true }),
  country: text("Country", "location", { lookup: "countries", common: true }),
  continent: text("Continent", "location", { lookup: "continents" }),
  metroRegion: list("Metro region", "location", { lookup: "metro-regions" }),
  excludedRegions: list("Excluded regions", "location", { lookup: "metro-regions" }),
  locationSearchType: choice("Location search type", "location", LOCATION_SEARCH_TYPES),
  // industry and technology
  industryCodes: list("Industries", "industry", { lookup: "industries", common: true }),
  primaryIndustriesOnly: boolean("Primary industry only", "industry"),
  industryKeywords: text("Industry keywords", "industry", { hint: "May use AND / OR" }),
  sicCodes: list("SIC codes", "industry", {
    schema: Type.String({ maxLength: LIMITS.maxStringLength, pattern: "^\\s*\\d{4}\\s*(,\\s*\\d{4}\\s*)*$", "x-rule": "fourDigitCodes" }),
  }),
  naicsCodes: list("NAICS codes", "industry", {
    schema: Type.String({ maxLength: LIMITS.maxStringLength, pattern: "^\\s*\\d{4}\\s*(,\\s*\\d{4}\\s*)*$", "x-rule": "fourDigitCodes" }),
  }),
  hashTagString: list("Hashtags", "industry", { lookup: "hashtags" }),
  // The service takes technology tags here (the tech-products lookup's `attribute`, "333.104.24104").
  techAttributeTagList: list("Technologies used", "industry", { lookup: "tech-products", lookupValue: "attribute" }),
  excludeTechAttributeTagList: list("Technologies not used", "industry", { hint: "Comma = OR; AND combines" }),
  // size and revenue
  revenue: list("Revenue ranges", "size", { lookup: "revenue-ranges" }),
  revenueMin: integer("Revenue from ($K)", "size", 0, LIMITS.maxInt32, { common: true }),
  revenueMax: integer("Revenue to ($K)", "size", 0, LIMITS.maxInt32, { common: true }),
  employeeCount: list("Employee count ranges", "size", { lookup: "employee-count" }),
  employeeRangeMin: numericText("Employees from", "size", { common: true }),
  employeeRangeMax: numericText("Employees to", "size", { common: true }),
  serviceContactsMin: numericText("Contacts held from", "size"),
  serviceContactsMax: numericText("Contacts held to", "size"),
  // growth and department budgets
  oneYearEmployeeGrowthRateMin: numericText("1-year employee growth from (%)", "growth"),
  oneYearEmployeeGrowthRateMax: numericText("1-year employee growth to (%)", "growth"),
  twoYearEmployeeGrowthRateMin: numericText("2-year employee growth from (%)", "growth"),
  twoYearEmployeeGrowthRateMax: numericText("2-year employee growth to (%)", "growth"),
  marketingDepartmentBudgetMin: budgetMin("Marketing budget from ($K)"),
  marketingDepartmentBudgetMax: budgetMax("Marketing budget to ($K)"),
  financeDepartmentBudgetMin: budgetMin("Finance budget from ($K)"),
  financeDepartmentBudgetMax: budgetMax("Finance budget to ($K)"),
  itDepartmentBudgetMin: budgetMin("IT budget from ($K)"),
  itDepartmentBudgetMax: budgetMax("IT budget to ($K)"),
  hrDepartmentBudgetMin: budgetMin("HR budget from ($K)"),
  hrDepartmentBudgetMax: budgetMax("HR budget to ($K)"),
  // funding
  fundingAmountMin: integer("Funding from ($K)", "funding", 0),
  fundingAmountMax: integer("Funding to ($K)", "funding", 0),
  fundingStartDate: date("Funding from date", "funding"),
  fundingEndDate: date("Funding to date", "funding"),
  recentFundingRoundTypes: array("Most recent funding round", "funding", { lookup: "funding-round-types" }),
  allFundingRoundTypes: array("Any funding round", "funding", { lookup: "funding-round-types" }),
  // engagement
  engagementStartDate: date("Engagement from date", "engagement"),
  engagementEndDate: date("Engagement to date", "engagement"),
  engagementType: array("Engagement type", "engagement", { values: ENGAGEMENT_TYPES }),
  // corporate structure
  parentId: text("Parent company id", "structure"),
  ultimateParentId: text("Ultimate parent company id", "structure"),
  subUnitTypes: list("Sub-unit types", "structure", { lookup: "sub-unit-types", hint: "Used with a parent id" }),
  companyStructureIncludedSubUnitTypes: choiceList("Include sub-units of type", "structure", SUB_UNIT_TYPES, false),
} satisfies Record<string, FilterSpec>;

export const CompanySearchFilters = filtersObject(COMPANY_FILTERS);
export type CompanySearchFilters = Static<typeof CompanySearchFilters>;

/** Contact fields a contact search can require to be present (requiredFields). */
const REQUIRED_FIELD_NAMES = ["email", "phone", "directPhone", "mobilePhone", "jobTitle", "middleName", "city", "state", "country"] as const;
export type RequiredFieldName = (typeof REQUIRED_FIELD_NAMES)[number];

export const MANAGEMENT_LEVELS = ["C-Level", "VP-Level", "Director", "Manager", "Non-Manager", "Board Member"] as const;

/** Contact search filters: the shared company filters plus the person filters (docs/service.md, "Search"). */
export const CONTACT_FILTERS = {
  personId: list("Person id", "person", { hint: "Comma-separated person ids" }),
  firstName: text("First name", "person", { common: true }),
  lastName: text("Last name", "person", { common: true }),
  fullName: text("Full name", "person"),
  jobTitle: text("Job title", "person", { common: true }),
  exactJobTitle: text("Exact job title", "person"),
  excludeJobTitle: text("Exclude job titles", "person"),
  managementLevel: list("Management level", "person", { lookup: "management-levels", common: true }),
  department: list("Department", "person", { lookup: "departments", common: true }),
  jobFunction: list("Job function", "person", { lookup: "job-functions" }),
  contactAccuracyScoreMin: integer("Accuracy score from", "person", 70, 99, { common: true }),
  contactAccuracyScoreMax: integer("Accuracy score to", "person", 70, 99),
  lastUpdatedDateAfter: date("Updated after", "person"),
  validDateAfter: date("Valid after", "person"),
  requiredFields: choiceList("Required fields", "person", REQUIRED_FIELD_NAMES, false, { hint: "e.g. email,phone" }),
  executivesOnly: boolean("Executives only", "person"),
  ...COMPANY_FILTERS,
} satisfies Record<string, FilterSpec>;

export const ContactSearchFilters = filtersObject(CONTACT_FILTERS);
export type ContactSearchFilters = Static<typeof ContactSearchFilters>;

/** Pairs whose min must not exceed max. */
export const COMPANY_RANGES: readonly RangePair[] = [
  { min: "revenueMin", max: "revenueMax" },
  { min: "employeeRangeMin", max: "employeeRangeMax" },
  { min: "serviceContactsMin", max: "serviceContactsMax" },
  { min: "oneYearEmployeeGrowthRateMin", max: "oneYearEmployeeGrowthRateMax" },
  { min: "twoYearEmployeeGrowthRateMin", max: "twoYearEmployeeGrowthRateMax" },
  { min: "marketingDepartmentBudgetMin", max: "marketingDepartmentBudgetMax" },
  { min: "financeDepartmentBudgetMin", max: "financeDepartmentBudgetMax" },
  { min: "itDepartmentBudgetMin", max: "itDepartmentBudgetMax" },
  { min: "hrDepartmentBudgetMin", max: "hrDepartmentBudgetMax" },
  { min: "fundingAmountMin", max: "fundingAmountMax" },
];

export const CONTACT_RANGES: readonly RangePair[] = [...COMPANY_RANGES, { min: "contactAccuracyScoreMin", max: "contactAccuracyScoreMax" }];

export const CompanySearchBody = Type.Object(
  {
    data: Type.Object({ type: Type.Literal("CompanySearch"), attributes: CompanySearchFilters }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);
export type CompanySearchBody = Static<typeof CompanySearchBody>;

export const ContactSearchBody = Type.Object(
  {
    data: Type.Object({ type: Type.Literal("ContactSearch"), attributes: ContactSearchFilters }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);
export type ContactSearchBody = Static<typeof ContactSearchBody>;

/** A filter's name, checked by the compiler against the filter tables above. */
export type CompanyFilterName = keyof typeof COMPANY_FILTERS;
export type ContactFilterName = keyof typeof CONTACT_FILTERS;
export type FilterName = CompanyFilterName | ContactFilterName;

export const COMPANY_SORT_FIELDS = ["name", "employeeCount", "revenue"] as const;
export const CONTACT_SORT_FIELDS = ["contactAccuracyScore", "lastName", "companyName", "relevance"] as const;
export const DEFAULT_COMPANY_SORT = "-revenue";
export const DEFAULT_CONTACT_SORT = "-relevance";

// ---------- result items ----------

const ManagementStatus = Type.Object(
  {
    underManagement: Type.Optional(Type.Boolean()),
    purchaseDate: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);

export const CompanyItem = Type.Object(
  {
    id: Type.String(),
    type: Type.Literal("Company"),
    attributes: Type.Object(
      {
        name: Type.Optional(Type.String()),
        city: Type.Optional(Type.String()),
        state: Type.Optional(Type.String()),
        country: Type.Optional(Type.String()),
        revenue: Type.Optional(Type.String()),
        employeeCount: Type.Optional(Type.String()),
        website: Type.Optional(Type.String()),
        logo: Type.Optional(Type.String()),
        managementStatus: Type.Optional(ManagementStatus),
      },
      { additionalProperties: true },
    ),
  },
  { additionalProperties: true },
);
export type CompanyItem = Static<typeof CompanyItem>;

export const ContactItem = Type.Object(
  {
    id: Type.String(),
    type: Type.Literal("Contact"),
    attributes: Type.Object(
      {
        company: Type.Optional(Type.Object({ id: Type.Integer(), name: Type.String() }, { additionalProperties: true })),
        contactAccuracyScore: Type.Optional(Type.Integer()),
        directPhoneDoNotCall: Type.Optional(Type.Boolean()),
        mobilePhoneDoNotCall: Type.Optional(Type.Boolean()),
        firstName: Type.Optional(Type.String()),
        middleName: Type.Optional(Type.String()),
        lastName: Type.Optional(Type.String()),
        jobTitle: Type.Optional(Type.String()),
        lastUpdatedDate: Type.Optional(Type.String()),
        validDate: Type.Optional(Type.String()),
        managementStatus: Type.Optional(ManagementStatus),
      },
      { additionalProperties: true },
    ),
  },
  { additionalProperties: true },
);
export type ContactItem = Static<typeof ContactItem>;

export const CompanySearchResult = SearchDocument(CompanyItem);
export type CompanySearchResult = Static<typeof CompanySearchResult>;
export const ContactSearchResult = SearchDocument(ContactItem);
export type ContactSearchResult = Static<typeof ContactSearchResult>;
