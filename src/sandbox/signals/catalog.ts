// The fixed vocabularies of the signals: intent topics in categories, scoop types, topics and
// departments, news categories and source sites, and the technology catalogue (category, vendor,
// product) behind the seeded companies' technology tags.
import { DEPARTMENTS, TECH_PRODUCTS } from "../data/reference.js";

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

export interface Topic {
  index: number;
  name: string;
  category: string;
  /** Relative popularity: a few topics are researched far more than others. */
  weight: number;
}

export const TOPICS: Topic[] = Object.entries(TOPICS_BY_CATEGORY).flatMap(([category, names]) => names.map((name) => ({ category, name })))
  .map((t, index) => ({ ...t, index, weight: 1 + ((index * 37) % 11) / 2 }));
export const TOPIC_BY_NAME = new Map(TOPICS.map((t) => [t.name.toLowerCase(), t]));

/** A lookup id from a name: lower case, words joined by "-" ("Internet of Things" -> internet-of-things). */
export const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");

interface Named {
  id: string;
  name: string;
}

export const SCOOP_TYPES: Named[] = [
  ["funding", "Funding"],
  ["hire", "Executive Move - Hire"],
  ["left-company", "Executive Move - Left Company"],
  ["promotion", "Executive Move - Promotion"],
  ["new-location", "Expansion - New Location"],
  ["facility-expansion", "Expansion - Facility"],
  ["partnership", "Partnership"],
  ["earnings", "Earnings"],
  ["acquisition", "Merger and Acquisition"],
  ["product-launch", "Product Launch"],
  ["layoffs", "Layoffs"],
  ["award", "Award"],
  ["project", "New Project"],
].map(([id, name]) => ({ id: id!, name: name! }));

export const SCOOP_TOPICS: Named[] = [
  "Cloud", "Security", "Artificial Intelligence", "Digital Transformation", "Data Center", "Customer Experience",
  "Supply Chain", "Compliance", "Mobile", "Internet of Things", "Sustainability", "Workforce", "Analytics", "Payments",
].map((name) => ({ id: slug(name), name }));

export const SCOOP_DEPARTMENTS: Named[] = DEPARTMENTS.map((d) => ({ id: d.id, name: d.name }));

/** Which department a scoop type concerns by default (a hire in sales, a project in IT, ...). */
export const TYPE_DEPARTMENTS: Record<string, string[]> = {
  hire: ["sales", "marketing", "engineering", "finance", "executive", "information-technology"],
  "left-company": ["sales", "marketing", "engineering", "finance", "executive"],
  promotion: ["sales", "marketing", "engineering", "operations", "customer-success"],
  project: ["information-technology", "engineering", "operations"],
  layoffs: ["human-resources", "operations"],
};

export const NEWS_CATEGORIES: Named[] = [
  "Funding", "Mergers and Acquisitions", "Executive Changes", "Product Launches", "Partnerships", "Earnings",
  "Expansion", "Legal", "Awards", "Layoffs", "Corporate Social Responsibility", "Cybersecurity Incidents",
].map((name) => ({ id: slug(name), name }));

export const NEWS_DOMAINS = [
  "businesswire.com", "prnewswire.com", "globenewswire.com", "reuters.com", "techcrunch.com", "bizjournals.com",
  "forbes.com", "venturebeat.com", "marketwatch.com", "finance.yahoo.com",
];

export interface TechEntry {
  id: string;
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

export const TECHNOLOGIES: TechEntry[] = TECH_PRODUCTS.map((p) => {
  const [vendor, category, categoryParent, website] = TECH_FACTS[p.id] ?? ["Unknown", "Other", "Other", ""];
  return { id: p.id, product: p.name, vendor, category, categoryParent, website };
});
export const TECH_BY_ID = new Map(TECHNOLOGIES.map((t) => [t.id, t]));

/** The lookup tables of the signals: id, name and the attributes a picker may group by. */
export function signalLookupRows(name: string): { type: string; rows: { id: string; name: string; extra?: Record<string, unknown> }[] } | undefined {
  switch (name) {
    case "intent-topics":
      return { type: "IntentTopic", rows: TOPICS.map((t) => ({ id: t.name, name: t.name, extra: { category: t.category } })) };
    case "scoop-types":
      return { type: "ScoopType", rows: SCOOP_TYPES };
    case "scoop-topics":
      return { type: "ScoopTopic", rows: SCOOP_TOPICS };
    case "scoop-departments":
      return { type: "ScoopDepartment", rows: SCOOP_DEPARTMENTS };
    case "news-categories":
      return { type: "NewsCategory", rows: NEWS_CATEGORIES };
    case "tech-categories": {
      const seen = new Map<string, { id: string; name: string; extra: Record<string, unknown> }>();
      for (const t of TECHNOLOGIES) if (!seen.has(t.category)) seen.set(t.category, { id: slug(t.category), name: t.category, extra: { parentCategory: t.categoryParent } });
      return { type: "TechCategory", rows: [...seen.values()] };
    }
    case "tech-vendors": {
      const seen = new Map<string, { id: string; name: string; extra: Record<string, unknown> }>();
      for (const t of TECHNOLOGIES) {
        const row = seen.get(t.vendor) ?? { id: slug(t.vendor), name: t.vendor, extra: { categories: [] as string[] } };
        const cats = row.extra.categories as string[];
        if (!cats.includes(t.category)) cats.push(t.category);
        seen.set(t.vendor, row);
      }
      return { type: "TechVendor", rows: [...seen.values()] };
    }
    case "tech-products":
      return { type: "TechProduct", rows: TECHNOLOGIES.map((t) => ({ id: t.id, name: t.product, extra: { vendor: t.vendor, category: t.category, parentCategory: t.categoryParent } })) };
    default:
      return undefined;
  }
}

/** Lookup filters the service documents: filter[category], filter[parentCategory], filter[vendor]. */
export function filterLookupRows<R extends { name: string; extra?: Record<string, unknown> }>(rows: R[], query: Record<string, string | undefined>): R[] {
  const wanted: [string, string][] = [];
  for (const key of ["category", "parentCategory", "vendor"]) {
    const v = query[`filter[${key}]`];
    if (v !== undefined && v !== "") wanted.push([key, v.toLowerCase()]);
  }
  return rows.filter((r) =>
    wanted.every(([key, v]) => {
      const have = r.extra?.[key] ?? (key === "category" ? (r.extra?.categories as string[] | undefined) : undefined);
      const values = Array.isArray(have) ? have.map(String) : have === undefined ? [] : [String(have)];
      return values.some((x) => x.toLowerCase() === v || slug(x) === v);
    }),
  );
}
