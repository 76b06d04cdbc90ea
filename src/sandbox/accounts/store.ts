// The seeded rows that families and org charts are made of, read with prepared statements (one
// family or one company's contacts a query, on the indexes of ultimate_parent_id and company_id).
import type Database from "better-sqlite3";
import { buildFamily, type Family, type FamilyCompany } from "./families.js";
import { placePeople, type OrgChartContact, type OrgChartEntry } from "./orgChart.js";

export interface AccountData {
  /** The family a company belongs to (undefined: no such company). */
  familyOf(companyId: number): Family | undefined;
  /** A company's people placed in its org chart (undefined: no such company). */
  orgChartOf(companyId: number): OrgChartEntry[] | undefined;
}

const COMPANY_COLUMNS = "id, name, parent_id, ultimate_parent_id, sub_unit_type, city, state, founded_year";
const CONTACT_COLUMNS =
  "id, company_id, company_name, first_name, middle_name, last_name, job_title, management_level, department, job_function, email, phone, accuracy, last_updated, relevance";

export function accountData(db: Database.Database): AccountData {
  const company = db.prepare(`SELECT ${COMPANY_COLUMNS} FROM companies WHERE id = ?`);
  const members = db.prepare(`SELECT ${COMPANY_COLUMNS} FROM companies WHERE ultimate_parent_id = ?`);
  const contacts = db.prepare(`SELECT ${CONTACT_COLUMNS} FROM contacts WHERE company_id = ?`);
  const companyRow = (id: number) => company.get(id) as FamilyCompany | undefined;
  return {
    familyOf(companyId) {
      const row = companyRow(companyId);
      if (!row) return undefined;
      const top = row.ultimate_parent_id ? companyRow(row.ultimate_parent_id) : row;
      if (!top) return undefined;
      return buildFamily(top, members.all(top.id) as FamilyCompany[]);
    },
    orgChartOf(companyId) {
      if (!companyRow(companyId)) return undefined;
      return placePeople(contacts.all(companyId) as OrgChartContact[]);
    },
  };
}
