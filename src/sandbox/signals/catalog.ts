// The fixed vocabularies of the signals: intent topics in categories, scoop types, topics and
// departments, news categories and source sites, and the technology catalogue (category, vendor,
// product) behind the seeded companies' technology tags.
import { DEPARTMENTS, TECH_PRODUCT_IDS, TECH_PRODUCTS } from "../data/reference.js";

/** A hundred intent topics in categories (a company researches a few of them). */
const TOPICS_BY_CATEGORY: Record<string, string[]> = {
  "Cloud Computing": ["Cloud Migration", "Cloud Storage", "Multi-Cloud", "Serverless", "Infrastructure as a Service", "Platform as a Service", "Hybrid Cloud", "Cloud Cost Management"],
  Security: ["Cloud Security", "Zero Trust", "Endpoint Security", "Identity Management", "Ransomware", "Penetration Testing", "Security Awareness Training", "Firewall", "Data Loss Prevention"],
  "Data and Analytics": ["Business Intelligence", "Data Warehousing", "Data Governance", "Predictive Analytics", "Data Integration", "Master Data Management", "Big Data", "Data Visualization", "Data Quality"],
  "Artificial Intelligence": ["Machine Learning", "Generative AI", "Conversational AI", "Computer Vision", "AI Governance", "Natural Language Processing", "Intelligent Automation", "AI Agents"],
  "Sales Technology": ["CRM Software", "Sales Engagement", "Sales Enablement", "Revenue Intelligence", "Configure Price Quote", "Lead Scoring", "Sales Forecasting", "Account-Based Marketing"],
  Marketing: ["Marketing Automation", "Content Marketing", "SEO", "Email Marketing", "Customer Data Platform", "Event Marketing", "Social Media Marketing", "Marketing Attribution"],
  "Human Resources": ["Applicant Tracking", "Employee Engagement", "Payroll Software", "Learning Management", "Workforce Planning", "Benefits Administration", "Remote Work", "Talent Management"],
  Finance: ["Accounts Payable Automation", "Expense Management", "Financial Planning", "Procurement Software", "Treasury Management", "Tax Compliance", "ERP Software", "Billing and Invoicing"],
  "Customer Experience": ["Customer Support Software", "Contact Center", "Customer Success", "Net Promoter Score", "Self-Service Portal", "Field Service Management", "Customer Journey Mapping"],
  Collaboration: ["Video Conferencing", "Team Messaging", "Project Management", "Document Management", "Digital Workplace", "E-Signature", "Knowledge Management"],
  "IT Operations": ["IT Service Management", "Network Monitoring", "Observability", "DevOps", "Container Orchestration", "Backup and Recovery", "IT Asset Management", "Edge Computing"],
  Commerce: ["E-Commerce Platform", "Payment Processing", "Supply Chain Visibility", "Inventory Management", "Order Management", "Point of Sale", "Subscription Management"],
  Sustainability: ["Carbon Accounting", "ESG Reporting", "Energy Management", "Sustainable Packaging", "Renewable Energy"],
};

/**
 * The topics of the service's own examples (intent search and enrich), so its example requests
 * find signals. Kept apart from the hundred above so the seeded companies' topics stay the same;
 * a quarter of the companies research one of them (generate.ts).
 */
const EXAMPLE_TOPICS_BY_CATEGORY: Record<string, string[]> = {
  Cloud: ["Cloud Applications"],
  "Application Development": ["Java", "Node.js"],
  Security: ["Credit Card Fraud"],
  Finance: ["Direct Deposit", "Risk Management Services"],
  Marketing: ["Google Search", "In-App Advertising"],
};

/** The department and job function a category's buyers sit in (the intent-topics lookup's attributes). */
const CATEGORY_AUDIENCE: Record<string, [department: string, jobFunction: string]> = {
  "Cloud Computing": ["Information Technology", "Cloud / Mobility"],
  Cloud: ["Information Technology", "Cloud / Mobility"],
  Security: ["Information Technology", "Information Security"],
  "Data and Analytics": ["Information Technology", "Business Intelligence"],
  "Artificial Intelligence": ["Engineering & Technical", "Data Science"],
  "Application Development": ["Engineering & Technical", "Software Development"],
  "Sales Technology": ["Sales", "Sales Operations"],
  Marketing: ["Marketing", "Marketing Operations"],
  "Human Resources": ["Human Resources", "Talent Acquisition"],
  Finance: ["Finance", "Accounting"],
  "Customer Experience": ["Operations", "Customer Service"],
  Collaboration: ["Information Technology", "Collaboration"],
  "IT Operations": ["Information Technology", "IT Operations"],
  Commerce: ["Operations", "E-Commerce"],
  Sustainability: ["Operations", "Facilities"],
};

export interface Topic {
  index: number;
  name: string;
  category: string;
  /** Relative popularity: a few topics are researched far more than others. */
  weight: number;
}

const topicList = (table: Record<string, string[]>, first: number): Topic[] =>
  Object.entries(table)
    .flatMap(([category, names]) => names.map((name) => ({ category, name })))
    .map((t, i) => ({ ...t, index: first + i, weight: 1 + (((first + i) * 37) % 11) / 2 }));
/** The hundred topics the seeded companies research. */
export const SEEDED_TOPICS: Topic[] = topicList(TOPICS_BY_CATEGORY, 0);
/** The service's example topics (after the hundred). */
export const EXAMPLE_TOPICS: Topic[] = topicList(EXAMPLE_TOPICS_BY_CATEGORY, SEEDED_TOPICS.length);
export const TOPICS: Topic[] = [...SEEDED_TOPICS, ...EXAMPLE_TOPICS];
export const TOPIC_BY_NAME = new Map(TOPICS.map((t) => [t.name.toLowerCase(), t]));

/** A lookup id from a name: lower case, words joined by "-" ("Internet of Things" -> internet-of-things). */
export const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");

/**
 * A value of a fixed vocabulary: the service's id (numeric text for scoop types, topics and
 * departments; a code such as PRODUCT for news categories), the readable key the generated rows
 * keep, and the name the service writes.
 */
export interface Named {
  id: string;
  key: string;
  name: string;
}

/** Scoop types; the ids the service's examples use keep their meaning (6 Award, 8 Facilities). */
export const SCOOP_TYPES: Named[] = [
  ["funding", "Funding", "1"],
  ["hire", "Executive Move - Hire", "2"],
  ["left-company", "Executive Move - Left Company", "3"],
  ["promotion", "Executive Move - Promotion", "4"],
  ["new-location", "Expansion - New Location", "9"],
  ["facility-expansion", "Facilities Relocation / Expansion", "8"],
  ["partnership", "Partnership", "10"],
  ["earnings", "Earnings", "11"],
  ["acquisition", "Merger and Acquisition", "12"],
  ["product-launch", "Product Launch", "13"],
  ["layoffs", "Layoffs", "14"],
  ["award", "Award", "6"],
  ["project", "New Project", "15"],
].map(([key, name, id]) => ({ id: id!, key: key!, name: name! }));

export const SCOOP_TOPICS: Named[] = [
  "Cloud", "Security", "Artificial Intelligence", "Digital Transformation", "Data Center", "Customer Experience",
  "Supply Chain", "Compliance", "Mobile", "Internet of Things", "Sustainability", "Workforce", "Analytics", "Payments",
].map((name, i) => ({ id: String(40 + i), key: slug(name), name }));

export const SCOOP_DEPARTMENTS: Named[] = DEPARTMENTS.map((d, i) => ({ id: String(i + 1), key: d.id, name: d.name }));

/** An entry of a vocabulary by its id, key or name (any case); undefined when none matches. */
export function namedEntry(table: readonly Named[], value: string): Named | undefined {
  const v = value.trim().toLowerCase();
  return table.find((t) => t.id.toLowerCase() === v || t.key === v || t.name.toLowerCase() === v);
}

/** Which department a scoop type concerns by default (a hire in sales, a project in IT, ...). */
export const TYPE_DEPARTMENTS: Record<string, string[]> = {
  hire: ["sales", "marketing", "engineering", "finance", "executive", "information-technology"],
  "left-company": ["sales", "marketing", "engineering", "finance", "executive"],
  promotion: ["sales", "marketing", "engineering", "operations", "customer-success"],
  project: ["information-technology", "engineering", "operations"],
  layoffs: ["human-resources", "operations"],
};

/** News categories as the service writes them: codes such as PRODUCT, PERSON and GENERAL_NEWS. */
export const NEWS_CATEGORIES: Named[] = [
  "FUNDING", "ACQUISITION", "PERSON", "PRODUCT", "PARTNERSHIP", "EARNINGS",
  "EXPANSION", "LEGAL", "AWARD", "LAYOFFS", "GENERAL_NEWS", "SECURITY_INCIDENT",
].map((code) => ({ id: code, key: code, name: code }));

export const NEWS_DOMAINS = [
  "businesswire.com", "prnewswire.com", "globenewswire.com", "reuters.com", "techcrunch.com", "bizjournals.com",
  "forbes.com", "venturebeat.com", "marketwatch.com", "finance.yahoo.com",
];

export interface TechEntry {
  id: string;
  /** The service's numeric id and dotted attribute tag (data/reference.ts). */
  number: string;
  tag: string;
  product: string;
  vendor: string;
  category: string;
  categoryParent: string;
  website: string;
}

/** The catalogue behind the seeded technology tags (ids as the tech-products lookup gives them). */
const TECH_FACTS: Record<string, [vendor: string, category: string, parent: string, website: string]> = {
  "salesforce-sales-cloud": ["Salesforce", "CRM", "Sales", "salesforce.com"],
  hubspot: ["HubSpot", "Marketing Automation", "Marketing", "hubspot.com"],
  marketo: ["Adobe", "Marketing Automation", "Marketing", "adobe.com"],
  "dynamics-365": ["Microsoft", "CRM", "Sales", "microsoft.com"],
  "sap-s4hana": ["SAP", "ERP", "Finance", "sap.com"],
  netsuite: ["Oracle", "ERP", "Finance", "oracle.com"],
  workday: ["Workday", "Human Capital Management", "Human Resources", "workday.com"],
  servicenow: ["ServiceNow", "IT Service Management", "IT Operations", "servicenow.com"],
  zendesk: ["Zendesk", "Customer Support", "Customer Experience", "zendesk.com"],
  slack: ["Salesforce", "Team Messaging", "Collaboration", "slack.com"],
  "microsoft-teams": ["Microsoft", "Team Messaging", "Collaboration", "microsoft.com"],
  zoom: ["Zoom", "Video Conferencing", "Collaboration", "zoom.us"],
  aws: ["Amazon", "Cloud Infrastructure", "IT Infrastructure", "aws.amazon.com"],
  azure: ["Microsoft", "Cloud Infrastructure", "IT Infrastructure", "azure.microsoft.com"],
  "google-cloud": ["Google", "Cloud Infrastructure", "IT Infrastructure", "cloud.google.com"],
  snowflake: ["Snowflake", "Data Warehousing", "Data and Analytics", "snowflake.com"],
  databricks: ["Databricks", "Data Platform", "Data and Analytics", "databricks.com"],
  tableau: ["Salesforce", "Business Intelligence", "Data and Analytics", "tableau.com"],
  "power-bi": ["Microsoft", "Business Intelligence", "Data and Analytics", "powerbi.microsoft.com"],
  shopify: ["Shopify", "E-Commerce Platform", "Commerce", "shopify.com"],
  magento: ["Adobe", "E-Commerce Platform", "Commerce", "business.adobe.com"],
  wordpress: ["Automattic", "Content Management", "Marketing", "wordpress.com"],
  stripe: ["Stripe", "Payment Processing", "Commerce", "stripe.com"],
  okta: ["Okta", "Identity Management", "Security", "okta.com"],
  jira: ["Atlassian", "Project Management", "Collaboration", "atlassian.com"],
  github: ["Microsoft", "Source Control", "Software Development", "github.com"],
  kubernetes: ["Cloud Native Computing Foundation", "Container Orchestration", "IT Infrastructure", "kubernetes.io"],
  mongodb: ["MongoDB", "Database", "Software Development", "mongodb.com"],
  postgresql: ["PostgreSQL Global Development Group", "Database", "Software Development", "postgresql.org"],
  excel: ["Microsoft", "Spreadsheets", "Productivity", "microsoft.com"],
};

export const TECHNOLOGIES: TechEntry[] = TECH_PRODUCTS.map((p, i) => {
  const [vendor, category, categoryParent, website] = TECH_FACTS[p.id] ?? ["Unknown", "Other", "Other", ""];
  const ids = TECH_PRODUCT_IDS[i]!;
  return { id: p.id, number: ids.number, tag: ids.tag, product: p.name, vendor, category, categoryParent, website };
});
export const TECH_BY_ID = new Map(TECHNOLOGIES.map((t) => [t.id, t]));

const named = (rows: readonly Named[]) => rows.map((r) => ({ id: r.id, name: r.name }));

/** The lookup tables of the signals: id, name and the attributes the service gives each. */
export function signalLookupRows(name: string): { type: string; rows: LookupRow[] } | undefined {
  switch (name) {
    case "intent-topics":
      return { type: "IntentTopic", rows: TOPICS.map(topicRow) };
    case "scoop-types":
      return { type: "ScoopType", rows: named(SCOOP_TYPES) };
    case "scoop-topics":
      return { type: "ScoopTopic", rows: named(SCOOP_TOPICS) };
    case "scoop-departments":
      return { type: "ScoopDepartment", rows: named(SCOOP_DEPARTMENTS) };
    case "news-categories":
      return { type: "NewsCategory", rows: named(NEWS_CATEGORIES) };
    case "tech-categories":
      return { type: "TechCategory", rows: techCategoryRows() };
    case "tech-vendors":
      return { type: "TechVendor", rows: techVendorRows() };
    case "tech-products":
      return { type: "TechProduct", rows: TECHNOLOGIES.map((t) => ({ id: t.number, name: t.product, extra: { attribute: t.tag, vendor: t.vendor, category: t.category, parentCategory: t.categoryParent } })) };
    default:
      return undefined;
  }
}

interface LookupRow {
  id: string;
  name?: string;
  extra?: Record<string, unknown>;
}

function topicRow(t: Topic): LookupRow {
  const [department, jobFunction] = CATEGORY_AUDIENCE[t.category] ?? ["Information Technology", "Information Technology"];
  return { id: t.name, name: t.name, extra: { category: t.category, department, description: `Research on ${t.name} (${t.category}).`, jobFunction } };
}

/** Parent categories, each with its categories (the service's shape: no name, a list). */
function techCategoryRows(): LookupRow[] {
  const byParent = new Map<string, string[]>();
  for (const t of TECHNOLOGIES) {
    const list = byParent.get(t.categoryParent) ?? [];
    if (!list.includes(t.category)) list.push(t.category);
    byParent.set(t.categoryParent, list);
  }
  return [...byParent].map(([parent, categories]) => ({ id: parent, extra: { categories } }));
}

/** Vendors by name (the service's ids are the names), with the categories of their products. */
function techVendorRows(): LookupRow[] {
  const byVendor = new Map<string, string[]>();
  for (const t of TECHNOLOGIES) {
    const list = byVendor.get(t.vendor) ?? [];
    if (!list.includes(t.category)) list.push(t.category);
    byVendor.set(t.vendor, list);
  }
  return [...byVendor].map(([vendor, categories]) => ({ id: vendor, name: vendor, extra: { categories } }));
}

/**
 * Lookup filters the service documents: filter[category], filter[parentCategory],
 * filter[subCategory] and filter[vendor]. A tech category's row is its parent category, so there
 * filter[parentCategory] matches the id and filter[category] / filter[subCategory] one of its
 * categories.
 */
export function filterLookupRows<R extends LookupRow>(rows: R[], query: Record<string, string | undefined>): R[] {
  const wanted: [string, string][] = [];
  for (const key of ["category", "parentCategory", "subCategory", "vendor"]) {
    const v = query[`filter[${key}]`];
    if (v !== undefined && v !== "") wanted.push([key, v.toLowerCase()]);
  }
  return rows.filter((r) => wanted.every(([key, v]) => valuesOf(r, key).some((x) => x.toLowerCase() === v || slug(x) === v)));
}

function valuesOf(row: LookupRow, key: string): string[] {
  const extra = row.extra ?? {};
  const list = (value: unknown) => (Array.isArray(value) ? value.map(String) : value === undefined ? [] : [String(value)]);
  if (key === "subCategory") return list(extra.categories);
  if (key === "parentCategory" && extra.parentCategory === undefined && Array.isArray(extra.categories) && row.name === undefined) return [row.id];
  return list(extra[key] ?? (key === "category" ? extra.categories : undefined));
}
