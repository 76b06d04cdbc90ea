// The columns an audience carries: one input column holding the record reference, and
// enrichment columns, each filled from one output field of the referenced record.
import type { AudienceKind } from "./store.js";

export interface ColumnTemplate {
  name: string;
  dataType: "STRING" | "NUMBER" | "URL";
  columnType: "INPUT" | "ENRICHMENT";
  /** The record's output field an enrichment column is filled from ("" for the input column). */
  field: string;
}

const COMPANY_COLUMNS: ColumnTemplate[] = [
  { name: "Company ID", dataType: "STRING", columnType: "INPUT", field: "" },
  { name: "Company name", dataType: "STRING", columnType: "ENRICHMENT", field: "name" },
  { name: "Website", dataType: "URL", columnType: "ENRICHMENT", field: "website" },
  { name: "Revenue ($K)", dataType: "NUMBER", columnType: "ENRICHMENT", field: "revenue" },
  { name: "Employees", dataType: "NUMBER", columnType: "ENRICHMENT", field: "employeeCount" },
  { name: "City", dataType: "STRING", columnType: "ENRICHMENT", field: "city" },
  { name: "Country", dataType: "STRING", columnType: "ENRICHMENT", field: "country" },
  { name: "Company status", dataType: "STRING", columnType: "ENRICHMENT", field: "companyStatus" },
];

const CONTACT_COLUMNS: ColumnTemplate[] = [
  { name: "Person ID", dataType: "STRING", columnType: "INPUT", field: "" },
  { name: "First name", dataType: "STRING", columnType: "ENRICHMENT", field: "firstName" },
  { name: "Last name", dataType: "STRING", columnType: "ENRICHMENT", field: "lastName" },
  { name: "Job title", dataType: "STRING", columnType: "ENRICHMENT", field: "jobTitle" },
  { name: "Email", dataType: "STRING", columnType: "ENRICHMENT", field: "email" },
  { name: "Company name", dataType: "STRING", columnType: "ENRICHMENT", field: "companyName" },
  { name: "Country", dataType: "STRING", columnType: "ENRICHMENT", field: "country" },
];

export function columnTemplates(kind: AudienceKind): ColumnTemplate[] {
  return kind === "COMPANY" ? COMPANY_COLUMNS : CONTACT_COLUMNS;
}
