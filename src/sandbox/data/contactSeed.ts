// Seeded contacts: each at a company drawn with a lean toward larger ones, most at its
// headquarters, with a title from its department and management level.
import { MANAGEMENT_LEVELS } from "../../core/contract/index.js";
import { CITIES, COUNTRY_BY_CODE } from "./places.js";
import { DEPARTMENTS, FIRST_NAMES, LAST_NAMES } from "./reference.js";
import { SPECIAL_CONTACTS } from "./specialRecords.js";
import { daysBefore, phoneNumber, weightedCity, type CompanyBrief, type SeedContext } from "./seedContext.js";

const LEVEL_WEIGHTS = [5, 8, 15, 25, 45, 2];
const LEVEL_BONUS: Record<(typeof MANAGEMENT_LEVELS)[number], number> = {
  "C-Level": 30,
  "VP-Level": 24,
  Director: 18,
  Manager: 10,
  "Non-Manager": 0,
  "Board Member": 20,
};

type SpecialContact = (typeof SPECIAL_CONTACTS)[number];

/** A company drawn up to three times, each draw kept more often the larger the company. */
function drawCompanyId(ctx: SeedContext, special: SpecialContact | undefined): number {
  const { r, size } = ctx;
  let companyId = r.int(1, size.companies);
  for (let k = 0; k < 3; k++) {
    const emp = ctx.briefs[companyId - 1]!.employees;
    if (r.next() < 0.15 + Math.log10(emp + 1) / 4) break;
    companyId = r.int(1, size.companies);
  }
  return special ? special.companyId : companyId;
}

/** The contact's row, in the table's column order. */
function contactRow(ctx: SeedContext, id: number, companyId: number, company: CompanyBrief, special: SpecialContact | undefined): unknown[] {
  const { r } = ctx;
  const first = special?.firstName ?? r.pick(FIRST_NAMES);
  const last = special?.lastName ?? r.pick(LAST_NAMES);
  const middle = r.chance(0.25) ? `${String.fromCharCode(65 + r.int(0, 25))}.` : null;
  const level = r.weighted(MANAGEMENT_LEVELS, LEVEL_WEIGHTS);
  const dept = level === "C-Level" && r.chance(0.25) ? DEPARTMENTS[DEPARTMENTS.length - 1]! : r.pick(DEPARTMENTS);
  const fn = r.pick(dept.functions);
  const local = `${first}.${last}`.toLowerCase().replace(/[^a-z.]/g, "");
  const hq = r.chance(0.85);
  const cityIndex = hq ? company.city : weightedCity(ctx);
  const city = CITIES[cityIndex]!;
  const zip = hq ? { zip: company.zip, lat: company.lat, lon: company.lon } : r.pick(ctx.cityZipList[cityIndex]!);
  const country = COUNTRY_BY_CODE.get(city.countryCode)!;
  const accuracy = r.int(70, 99);
  const updatedDays = r.int(0, 730);
  // prettier-ignore
  return [
    id, companyId, company.name, first, middle, last, dept.titles[level], level, dept.id, fn,
    r.chance(0.9) ? `${local || "contact"}@${company.domain}` : null, phoneNumber(city, r),
    r.chance(0.6) ? phoneNumber(city, r) : null, r.chance(0.1) ? 1 : 0, r.chance(0.15) ? 1 : 0, accuracy,
    `${daysBefore(updatedDays)}T${String(r.int(0, 23)).padStart(2, "0")}:00:00Z`,
    `${daysBefore(Math.max(0, updatedDays - r.int(0, 120)))}T00:00:00Z`, city.city, city.state, city.stateCode,
    zip.zip, country.name, country.code, city.metro ?? null, zip.lat, zip.lon, accuracy + LEVEL_BONUS[level] + r.int(0, 20),
  ];
}

/** Seeds the contacts after the companies, then each company's contact count. */
export function seedContacts(ctx: SeedContext): void {
  const { size, insert } = ctx;
  const counts = new Map<number, number>();
  const specialContacts = new Map(SPECIAL_CONTACTS.filter((s) => s.companyId <= size.companies).map((s) => [s.id, s]));
  for (let id = 1; id <= size.contacts && size.companies > 0; id++) {
    const special = specialContacts.get(id);
    const companyId = drawCompanyId(ctx, special);
    counts.set(companyId, (counts.get(companyId) ?? 0) + 1);
    insert.contact.run(contactRow(ctx, id, companyId, ctx.briefs[companyId - 1]!, special));
  }
  for (const [companyId, n] of counts) insert.contactCount.run(n, companyId);
}
