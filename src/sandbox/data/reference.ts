// Reference tables the seeded records draw from. The lookup operation serves the same tables,
// so every value a lookup offers really occurs in the data.
import { MANAGEMENT_LEVELS, SUB_UNIT_TYPES } from "../../core/contract/index.js";

export interface Industry {
  id: string;
  name: string;
  sic: string;
  naics: string;
}

export const INDUSTRIES: Industry[] = [
  { id: "software", name: "Software", sic: "7372", naics: "5112" },
  { id: "it-services", name: "IT Services & Consulting", sic: "7371", naics: "5415" },
  { id: "internet", name: "Internet Services", sic: "7374", naics: "5182" },
  { id: "telecommunications", name: "Telecommunications", sic: "4813", naics: "5173" },
  { id: "computer-hardware", name: "Computer Hardware", sic: "3571", naics: "3341" },
  { id: "semiconductors", name: "Semiconductors", sic: "3674", naics: "3344" },
  { id: "banking", name: "Banking", sic: "6021", naics: "5221" },
  { id: "insurance", name: "Insurance", sic: "6311", naics: "5241" },
  { id: "investment-management", name: "Investment Management", sic: "6282", naics: "5239" },
  { id: "real-estate", name: "Real Estate", sic: "6531", naics: "5312" },
  { id: "hospitals", name: "Hospitals & Physicians Clinics", sic: "8062", naics: "6221" },
  { id: "pharmaceuticals", name: "Pharmaceuticals", sic: "2834", naics: "3254" },
  { id: "biotechnology", name: "Biotechnology", sic: "2836", naics: "5417" },
  { id: "medical-devices", name: "Medical Devices", sic: "3841", naics: "3391" },
  { id: "retail", name: "Retail", sic: "5311", naics: "4522" },
  { id: "ecommerce", name: "E-commerce", sic: "5961", naics: "4541" },
  { id: "restaurants", name: "Restaurants", sic: "5812", naics: "7225" },
  { id: "hotels", name: "Hotels & Lodging", sic: "7011", naics: "7211" },
  { id: "industrial-machinery", name: "Industrial Machinery", sic: "3559", naics: "3332" },
  { id: "automotive", name: "Automotive", sic: "3711", naics: "3361" },
  { id: "aerospace-defense", name: "Aerospace & Defense", sic: "3721", naics: "3364" },
  { id: "chemicals", name: "Chemicals", sic: "2899", naics: "3251" },
  { id: "oil-gas", name: "Oil & Gas", sic: "1311", naics: "2111" },
  { id: "electric-utilities", name: "Electric Utilities", sic: "4911", naics: "2211" },
  { id: "construction", name: "Construction", sic: "1542", naics: "2362" },
  { id: "freight-logistics", name: "Freight & Logistics", sic: "4213", naics: "4841" },
  { id: "airlines", name: "Airlines", sic: "4512", naics: "4811" },
  { id: "media-publishing", name: "Media & Publishing", sic: "2711", naics: "5111" },
  { id: "advertising-marketing", name: "Advertising & Marketing", sic: "7311", naics: "5418" },
  { id: "legal-services", name: "Legal Services", sic: "8111", naics: "5411" },
  { id: "accounting", name: "Accounting Services", sic: "8721", naics: "5412" },
  { id: "management-consulting", name: "Management Consulting", sic: "8742", naics: "5416" },
  { id: "staffing", name: "Staffing & Recruiting", sic: "7363", naics: "5613" },
  { id: "food-beverage", name: "Food & Beverage Manufacturing", sic: "2099", naics: "3119" },
  { id: "agriculture", name: "Agriculture", sic: "0100", naics: "1111" },
  { id: "k12-schools", name: "K-12 Schools", sic: "8211", naics: "6111" },
  { id: "colleges-universities", name: "Colleges & Universities", sic: "8221", naics: "6113" },
  { id: "government", name: "Government Administration", sic: "9199", naics: "9211" },
  { id: "non-profit", name: "Non-Profit Organizations", sic: "8399", naics: "8132" },
];
export const INDUSTRY_BY_ID = new Map(INDUSTRIES.map((i) => [i.id, i]));
/** Industries by company type, so a school is not a semiconductor maker. */
export const INDUSTRIES_FOR_TYPE: Record<string, string[]> = {
  education: ["k12-schools", "colleges-universities"],
  government: ["government"],
  npo: ["non-profit", "hospitals"],
};
export const COMMERCIAL_INDUSTRIES = INDUSTRIES.map((i) => i.id).filter(
  (id) => !["k12-schools", "colleges-universities", "government", "non-profit"].includes(id),
);

export const TECH_PRODUCTS: { id: string; name: string }[] = [
  ["salesforce-sales-cloud", "Salesforce Sales Cloud"],
  ["hubspot", "HubSpot"],
  ["marketo", "Adobe Marketo Engage"],
  ["dynamics-365", "Microsoft Dynamics 365"],
  ["sap-s4hana", "SAP S/4HANA"],
  ["netsuite", "Oracle NetSuite"],
  ["workday", "Workday"],
  ["servicenow", "ServiceNow"],
  ["zendesk", "Zendesk"],
  ["slack", "Slack"],
  ["microsoft-teams", "Microsoft Teams"],
  ["zoom", "Zoom"],
  ["aws", "Amazon Web Services"],
  ["azure", "Microsoft Azure"],
  ["google-cloud", "Google Cloud"],
  ["snowflake", "Snowflake"],
  ["databricks", "Databricks"],
  ["tableau", "Tableau"],
  ["power-bi", "Power BI"],
  ["shopify", "Shopify"],
  ["magento", "Adobe Commerce"],
  ["wordpress", "WordPress"],
  ["stripe", "Stripe"],
  ["okta", "Okta"],
  ["jira", "Atlassian Jira"],
  ["github", "GitHub"],
  ["kubernetes", "Kubernetes"],
  ["mongodb", "MongoDB"],
  ["postgresql", "PostgreSQL"],
  ["excel", "Microsoft Excel"],
].map(([id, name]) => ({ id: id as string, name: name as string }));

/**
 * The service's own names of a product: a numeric id (the tech-products lookup's id) and a dotted
 * attribute tag ("333.104.24104": what technologies enrich answers in `attribute` and what the
 * techAttributeTagList filter takes). The seed keeps the readable slug.
 */
export const TECH_PRODUCT_IDS = TECH_PRODUCTS.map((p, i) => ({ slug: p.id, number: String(24_101 + i), tag: `333.${101 + (i % 9)}.${24_101 + i}` }));

/** A product's slug from its slug, name, numeric id or attribute tag (as given when unknown). */
export function techSlugOf(value: string): string {
  const k = value.trim().toLowerCase();
  const byName = TECH_PRODUCTS.find((t) => t.id.toLowerCase() === k || t.name.toLowerCase() === k);
  return byName?.id ?? TECH_PRODUCT_IDS.find((t) => t.number === k || t.tag === k)?.slug ?? value;
}

export const HASHTAGS: { id: string; name: string }[] = [
  "hiring",
  "remote-work",
  "ai",
  "saas",
  "fintech",
  "cybersecurity",
  "sustainability",
  "esg",
  "diversity",
  "expansion",
  "acquisition",
  "ipo",
  "cloud-migration",
  "digital-transformation",
  "layoffs",
].map((id) => ({ id, name: `#${id}` }));

export const FUNDING_ROUND_TYPES: { id: string; name: string }[] = [
  ["angel", "Angel"],
  ["seed", "Seed"],
  ["series-a", "Series A"],
  ["series-b", "Series B"],
  ["series-c", "Series C"],
  ["series-d", "Series D"],
  ["series-e-plus", "Series E+"],
  ["venture-debt", "Venture Debt"],
  ["convertible-note", "Convertible Note"],
  ["private-equity", "Private Equity"],
  ["grant", "Grant"],
  ["ipo", "IPO"],
].map(([id, name]) => ({ id: id as string, name: name as string }));
/** The usual order of venture rounds. */
export const VENTURE_LADDER = ["seed", "series-a", "series-b", "series-c", "series-d", "series-e-plus"];

export interface Bucket {
  id: string;
  name: string;
  /** Inclusive lower bound. */
  min: number;
  /** Inclusive upper bound. */
  max: number;
}

/** Employee count ranges (lookup `employee-count`). */
export const EMPLOYEE_RANGES: Bucket[] = [
  { id: "1to4", name: "1 - 5", min: 1, max: 4 },
  { id: "5to9", name: "5 - 10", min: 5, max: 9 },
  { id: "10to19", name: "10 - 20", min: 10, max: 19 },
  { id: "20to49", name: "20 - 50", min: 20, max: 49 },
  { id: "50to99", name: "50 - 100", min: 50, max: 99 },
  { id: "100to249", name: "100 - 250", min: 100, max: 249 },
  { id: "250to499", name: "250 - 500", min: 250, max: 499 },
  { id: "500to999", name: "500 - 1,000", min: 500, max: 999 },
  { id: "1000to4999", name: "1,000 - 5,000", min: 1000, max: 4999 },
  { id: "5000to9999", name: "5,000 - 10,000", min: 5000, max: 9999 },
  { id: "10000plus", name: "10,000+", min: 10000, max: Number.MAX_SAFE_INTEGER },
];

/** Revenue ranges in thousands of U.S. dollars (lookup `revenue-ranges`). */
export const REVENUE_RANGES: Bucket[] = [
  { id: "under1M", name: "Under $1M", min: 0, max: 999 },
  { id: "1Mto5M", name: "$1M - $5M", min: 1000, max: 4999 },
  { id: "5Mto10M", name: "$5M - $10M", min: 5000, max: 9999 },
  { id: "10Mto25M", name: "$10M - $25M", min: 10000, max: 24999 },
  { id: "25Mto50M", name: "$25M - $50M", min: 25000, max: 49999 },
  { id: "50Mto100M", name: "$50M - $100M", min: 50000, max: 99999 },
  { id: "100Mto250M", name: "$100M - $250M", min: 100000, max: 249999 },
  { id: "250Mto500M", name: "$250M - $500M", min: 250000, max: 499999 },
  { id: "500Mto1B", name: "$500M - $1B", min: 500000, max: 999999 },
  { id: "1Bto5B", name: "$1B - $5B", min: 1000000, max: 4999999 },
  { id: "over5B", name: "$5B and over", min: 5000000, max: Number.MAX_SAFE_INTEGER },
];

export function bucketOf(buckets: Bucket[], value: number): Bucket {
  return buckets.find((b) => value >= b.min && value <= b.max) ?? (buckets[buckets.length - 1] as Bucket);
}

export const COMPANY_TYPE_NAMES: Record<string, string> = {
  private: "Private",
  public: "Public",
  npo: "Non-Profit",
  education: "Education",
  government: "Government",
  other: "Other",
  none: "Not specified",
};

export const SUB_UNIT_TYPE_NAMES: Record<(typeof SUB_UNIT_TYPES)[number], string> = {
  UNSPECIFIED: "Unspecified",
  LOCATION: "Location",
  DIVISION: "Division",
  ACQUISITION: "Acquisition",
  SUBSIDIARY: "Subsidiary",
  FORMER_NEW_NAME: "Former or new name",
};

export const COMPANY_STATUS_DEFUNCT = ["DEFUNCT_DOMAIN_DOWN", "DEFUNCT_DECLARATION", "DEFUNCT_MANUAL", "DEFUNCT_FORMER_NAME", "DEFUNCT_ACQUISITION"];

export interface Department {
  id: string;
  name: string;
  functions: string[];
  /** Title stem for each management level. */
  titles: Record<(typeof MANAGEMENT_LEVELS)[number], string>;
}

export const DEPARTMENTS: Department[] = [
  {
    id: "engineering",
    name: "Engineering & Technical",
    functions: ["Software Development", "Quality Assurance", "Engineering Management"],
    titles: { "C-Level": "Chief Technology Officer", "VP-Level": "VP of Engineering", Director: "Director of Engineering", Manager: "Engineering Manager", "Non-Manager": "Software Engineer", "Board Member": "Board Member" },
  },
  {
    id: "sales",
    name: "Sales",
    functions: ["Account Management", "Business Development", "Sales Operations"],
    titles: { "C-Level": "Chief Revenue Officer", "VP-Level": "VP of Sales", Director: "Director of Sales", Manager: "Sales Manager", "Non-Manager": "Account Executive", "Board Member": "Board Member" },
  },
  {
    id: "marketing",
    name: "Marketing",
    functions: ["Demand Generation", "Product Marketing", "Marketing Operations"],
    titles: { "C-Level": "Chief Marketing Officer", "VP-Level": "VP of Marketing", Director: "Director of Marketing", Manager: "Marketing Manager", "Non-Manager": "Marketing Specialist", "Board Member": "Board Member" },
  },
  {
    id: "finance",
    name: "Finance",
    functions: ["Accounting", "Financial Planning & Analysis", "Procurement"],
    titles: { "C-Level": "Chief Financial Officer", "VP-Level": "VP of Finance", Director: "Finance Director", Manager: "Controller", "Non-Manager": "Financial Analyst", "Board Member": "Board Member" },
  },
  {
    id: "human-resources",
    name: "Human Resources",
    functions: ["Recruiting", "Compensation & Benefits", "People Operations"],
    titles: { "C-Level": "Chief People Officer", "VP-Level": "VP of Human Resources", Director: "HR Director", Manager: "HR Manager", "Non-Manager": "Recruiter", "Board Member": "Board Member" },
  },
  {
    id: "operations",
    name: "Operations",
    functions: ["Supply Chain", "Facilities", "Business Operations"],
    titles: { "C-Level": "Chief Operating Officer", "VP-Level": "VP of Operations", Director: "Director of Operations", Manager: "Operations Manager", "Non-Manager": "Operations Analyst", "Board Member": "Board Member" },
  },
  {
    id: "information-technology",
    name: "Information Technology",
    functions: ["IT Infrastructure", "Information Security", "IT Support"],
    titles: { "C-Level": "Chief Information Officer", "VP-Level": "VP of Information Technology", Director: "IT Director", Manager: "IT Manager", "Non-Manager": "Systems Administrator", "Board Member": "Board Member" },
  },
  {
    id: "legal",
    name: "Legal",
    functions: ["Corporate Counsel", "Compliance", "Contracts"],
    titles: { "C-Level": "Chief Legal Officer", "VP-Level": "VP, Legal", Director: "Director of Legal Affairs", Manager: "Legal Manager", "Non-Manager": "Paralegal", "Board Member": "Board Member" },
  },
  {
    id: "customer-success",
    name: "Customer Success",
    functions: ["Customer Support", "Customer Onboarding", "Account Management"],
    titles: { "C-Level": "Chief Customer Officer", "VP-Level": "VP of Customer Success", Director: "Director of Customer Success", Manager: "Customer Success Manager", "Non-Manager": "Support Specialist", "Board Member": "Board Member" },
  },
  {
    id: "executive",
    name: "C-Suite",
    functions: ["General Management", "Strategy"],
    titles: { "C-Level": "Chief Executive Officer", "VP-Level": "Executive Vice President", Director: "Director of Strategy", Manager: "Chief of Staff", "Non-Manager": "Executive Assistant", "Board Member": "Board Member" },
  },
];
export const JOB_FUNCTIONS = [...new Set(DEPARTMENTS.flatMap((d) => d.functions))].sort();
export const EXECUTIVE_LEVELS = ["C-Level", "VP-Level", "Board Member"];

export const NAME_FIRST_WORDS = [
  "Blue", "Red", "Silver", "Golden", "Green", "Summit", "Harbor", "North", "South", "East", "West", "Pacific",
  "Atlantic", "Granite", "Cedar", "Maple", "Pine", "River", "Lake", "Bright", "Clear", "Swift", "Prime", "Apex",
  "Vertex", "Nova", "Stellar", "Quantum", "Alpine", "Coastal", "Iron", "Copper", "Falcon", "Eagle", "Oak",
  "Crescent", "Liberty", "Pioneer", "Keystone", "Frontier", "Beacon", "Horizon", "Sterling", "Evergreen",
  "Redwood", "Aspen", "Meridian", "Orion", "Polar", "Vista", "Cobalt", "Crimson", "Ember", "Lumen",
];
export const NAME_SECOND_WORDS = [
  "Ridge", "Point", "Bridge", "Stone", "Field", "Wave", "Peak", "Line", "Gate", "Path", "Works", "Labs",
  "Forge", "Grove", "Harbor", "Crest", "Valley", "Rock", "Wind", "Star", "Light", "Hill", "Bay", "Brook",
  "Spring", "Mark", "Core", "Sphere", "Scale", "Shift", "Loop", "Stream", "Craft", "Yard", "Mill", "Well",
];
export const NAME_INDUSTRY_WORDS: Record<string, string[]> = {
  default: ["Systems", "Solutions", "Group", "Partners", "Holdings", "Technologies", "Industries", "Enterprises"],
  "k12-schools": ["Academy", "School District", "Preparatory School"],
  "colleges-universities": ["University", "College", "Institute of Technology"],
  government: ["County Government", "City Council", "Public Authority"],
  "non-profit": ["Foundation", "Alliance", "Trust"],
  hospitals: ["Health", "Medical Center", "Clinics"],
  banking: ["Bank", "Bancorp", "Financial"],
  insurance: ["Insurance", "Mutual", "Assurance"],
  software: ["Software", "Systems", "Technologies"],
  restaurants: ["Kitchen", "Grill", "Restaurants"],
};
export const NAME_SUFFIXES = ["Inc.", "LLC", "Corp.", "Co.", "Ltd.", ""];

export const FIRST_NAMES = [
  "James", "Mary", "John", "Patricia", "Robert", "Jennifer", "Michael", "Linda", "William", "Elizabeth", "David",
  "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Charles", "Karen", "Christopher", "Nancy",
  "Daniel", "Lisa", "Matthew", "Betty", "Anthony", "Margaret", "Mark", "Sandra", "Donald", "Ashley", "Steven",
  "Kimberly", "Paul", "Emily", "Andrew", "Donna", "Joshua", "Michelle", "Kenneth", "Carol", "Kevin", "Amanda",
  "Brian", "Melissa", "George", "Deborah", "Priya", "Wei", "Hiroshi", "Aisha", "Carlos", "Sofia", "Mohammed",
  "Fatima", "Lars", "Ingrid", "Pierre", "Amelie", "Raj", "Ananya", "Diego", "Lucia", "Chen", "Mei", "Olusegun",
  "Chiamaka", "Dmitri", "Olga", "Sean", "Siobhan", "Noah", "Olivia", "Liam", "Emma", "Ethan", "Ava",
];
export const LAST_NAMES = [
  "Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
  "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin", "Lee",
  "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson", "Walker", "Young",
  "Allen", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores", "Green", "Adams", "Nelson", "Baker",
  "Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Roberts", "Patel", "Kim", "Chen", "Wang", "Singh", "Tanaka",
  "Muller", "Schmidt", "Dubois", "Rossi", "Okafor", "Ivanova", "O'Brien", "Murphy", "Kowalski", "Johansson",
  "Silva", "Santos", "Cohen", "Levi", "Khan", "Ali", "Yamamoto", "Fischer", "Novak", "Costa", "Andersen",
];
