// The few names the production service spells differently from the contract (the table is the
// contract's, core/contract/production.ts). Translated at the transport edge only, so every
// other module keeps the contract's names.
import { fromProductionName, toProductionName } from "../../contract/index.js";

export type Direction = "toWire" | "fromWire";

function translateName(name: string, direction: Direction): string {
  return direction === "toWire" ? toProductionName(name) : fromProductionName(name);
}

/** Keys whose array of strings holds field names (translated as values, not as keys). */
const NAME_LIST_KEYS = new Set(["outputFields", "requiredFields", "columns"]);
/** Keys whose string value is a field name. */
const NAME_VALUE_KEYS = new Set(["fieldName"]);

/** Renames keys (and field-name values of the known lists) everywhere in a JSON value. */
export function translateJson(value: unknown, direction: Direction): unknown {
  if (Array.isArray(value)) return value.map((v) => translateJson(v, direction));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    let translated: unknown;
    if (NAME_LIST_KEYS.has(key) && Array.isArray(inner)) {
      translated = inner.map((v) => (typeof v === "string" ? translateName(v, direction) : translateJson(v, direction)));
    } else if (NAME_VALUE_KEYS.has(key) && typeof inner === "string") {
      translated = translateName(inner, direction);
    } else {
      translated = translateJson(inner, direction);
    }
    out[translateName(key, direction)] = translated;
  }
  return out;
}

/** A sort parameter ("-siteRank,name") with each field name translated. */
export function translateSort(sort: string, direction: Direction): string {
  return sort
    .split(",")
    .map((part) => (part.startsWith("-") ? `-${translateName(part.slice(1), direction)}` : translateName(part, direction)))
    .join(",");
}

/** A URL whose `sort` query parameter is translated; other parts untouched. */
export function translateUrl(url: string, direction: Direction): string {
  const parsed = new URL(url);
  const sort = parsed.searchParams.get("sort");
  if (sort === null) return url;
  parsed.searchParams.set("sort", translateSort(sort, direction));
  return parsed.href;
}
