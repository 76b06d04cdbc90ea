// A company as an Excel entity value (a data-type card), built from cell values. The shape is
// Excel's EntityCellValue, written out here so core needs no Office types.
import type { CellValue } from "./engineTypes.js";
import { fieldSpec } from "./enrichKinds.js";

export type CardProperty =
  | { type: "String"; basicValue: string }
  | { type: "Double"; basicValue: number }
  | { type: "Boolean"; basicValue: boolean };

export interface CompanyCard {
  type: "Entity";
  text: string;
  properties: Record<string, CardProperty>;
  layouts: { card: { title: { property: string }; sections: Array<{ layout: "List"; properties: string[] }> } };
}

/** Fields shown on a company card, in the order shown; `name` is the title. */
export const COMPANY_CARD_FIELDS = [
  "name",
  "website",
  "city",
  "state",
  "country",
  "revenue",
  "revenueRange",
  "employeeCount",
  "employeeRange",
  "companyStatus",
  "ticker",
  "foundedYear",
  "parentName",
  "numberOfContactsInService",
  "certified",
  "id",
] as const;

export function companyCard(fields: readonly string[], values: readonly CellValue[]): CompanyCard {
  const properties: Record<string, CardProperty> = {};
  const order: string[] = [];
  let title = "";
  for (const [index, field] of fields.entries()) {
    const value = values[index];
    if (value === undefined || value === "") continue;
    const label = fieldSpec("company", field)?.label ?? field;
    if (field === "name") title = String(value);
    properties[label] =
      typeof value === "number"
        ? { type: "Double", basicValue: value }
        : typeof value === "boolean"
          ? { type: "Boolean", basicValue: value }
          : { type: "String", basicValue: value };
    order.push(label);
  }
  const titleLabel = fieldSpec("company", "name")?.label ?? "name";
  const text = title || "Company";
  if (!properties[titleLabel]) properties[titleLabel] = { type: "String", basicValue: text };
  return {
    type: "Entity",
    text,
    properties,
    layouts: {
      card: { title: { property: titleLabel }, sections: [{ layout: "List", properties: order.filter((p) => p !== titleLabel) }] },
    },
  };
}
