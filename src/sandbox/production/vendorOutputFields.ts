// Output fields production's enrichment takes that the sandbox holds no data for: the rest of
// the published `outputFields` lists (company and contact enrich), and the names the service's
// own example requests ask beside them (contact `companyDescriptionList`). The profile accepts
// them and answers without them, as the service answers a field it has no value for; the
// sandbox's data has them nowhere. (The profile keeps serving `hashtags` and `alexaRank`: they
// are not in the published lists, but the service's own company example asks both and is
// answered 200.)
import type { EntityKind } from "./entitlements.js";

const COMPANY: readonly string[] = [
  "alternateLogos",
  "certificationDate",
  "companyStatusDate",
  "createdDate",
  "engagements",
  "locationMatch",
  "primaryIndustryCode",
  "primarySubIndustryCode",
  "subUnitIndustries",
  "subUnitType",
  "ultimateParentEmployees",
  "ultimateParentRevenue",
];

const CONTACT_COMPANY = [
  "AlternateLogos",
  "City",
  "Continent",
  "Country",
  "Description",
  "DescriptionList",
  "Division",
  "EmployeeCount",
  "EmployeeGrowth",
  "EmployeeRange",
  "Fax",
  "Industries",
  "IndustryCodes",
  "Logo",
  "NaicsCodes",
  "Phone",
  "PrimaryIndustry",
  "PrimaryIndustryCode",
  "PrimarySubIndustryCode",
  "Ranking",
  "Revenue",
  "RevenueNumeric",
  "RevenueRange",
  "SicCodes",
  "SocialMediaUrls",
  "State",
  "Street",
  "Ticker",
  "Type",
  "Website",
  "ZipCode",
].map((name) => `company${name}`);

const CONTACT: readonly string[] = [
  ...CONTACT_COMPANY,
  "continent",
  "directPhoneAlt",
  "education",
  "emailAlt",
  "employmentHistory",
  "engagements",
  "externalUrls",
  "hasCanadianEmail",
  "hashedEmails",
  "isDefunct",
  "locationCompanyId",
  "metroArea",
  "mobilePhoneAlt",
  "noticeProvidedDate",
  "personHasMoved",
  "picture",
  "positionStartDate",
  "region",
  "salutation",
  "street",
  "suffix",
  "supplementalEmail",
  "techSkills",
  "withinCalifornia",
  "withinCanada",
  "withinEu",
  "yearsOfExperience",
  "zipCode",
];

const UNSERVED: Readonly<Record<EntityKind, ReadonlySet<string>>> = { company: new Set(COMPANY), contact: new Set(CONTACT) };

/** Whether production takes this output field and the sandbox answers it with no value. */
export function isUnservedOutputField(kind: EntityKind, wireName: unknown): boolean {
  return typeof wireName === "string" && UNSERVED[kind].has(wireName);
}
