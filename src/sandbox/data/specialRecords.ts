// Records seeded on purpose with text that would turn into a formula in a cell (leading =, +, -, @)
// or into markup in a page, so text-safety tests have something real to find. All of their
// names contain "Formula": a companyName search for "Formula" returns exactly these companies.
export const SPECIAL_COMPANIES: { id: number; name: string }[] = [
  { id: 11, name: "=SUM(1+1) Formula Holdings" },
  { id: 12, name: "+Formula Plus Labs" },
  { id: 13, name: "-Formula Minus Partners" },
  { id: 14, name: "@Formula At Works" },
  { id: 15, name: "Formula <img src=x onerror=alert(1)> Media" },
];

export const SPECIAL_COMPANY_IDS = {
  leadingEquals: 11,
  leadingPlus: 12,
  leadingMinus: 13,
  leadingAt: 14,
  htmlInjection: 15,
} as const;

/** Contacts with unsafe names; they work at the special companies. */
export const SPECIAL_CONTACTS: { id: number; firstName: string; lastName: string; companyId: number }[] = [
  { id: 11, firstName: "=1+2", lastName: "Formula", companyId: 11 },
  { id: 12, firstName: "@Ada", lastName: "<b>Formula</b>", companyId: 15 },
];
