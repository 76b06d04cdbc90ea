// Production's record shapes (its published answer and request schemas) read into the
// contract's, at the edge: codes ({id, name}) become their ids, competitors ({name, ...}) their
// names, a contact's job function ({name, department}) a list of its name, numbers sent as text
// numbers again. Search filters production takes as text are sent as text. Values already in
// the contract's shape pass unchanged.
import { isProductionTextFilter } from "../../contract/index.js";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === "object" && !Array.isArray(v);

const CODE_LISTS = ["industryCodes", "sicCodes", "naicsCodes"];
const NUMBERS_AS_TEXT = ["contactAccuracyScore"];

const member = (key: string) => (item: unknown) => (isObject(item) && item[key] !== undefined ? item[key] : item);
const numberOf = (value: unknown) => (typeof value === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value);

function attributesFromWire(attributes: Json): Json {
  const out: Json = { ...attributes };
  for (const key of CODE_LISTS) if (Array.isArray(out[key])) out[key] = (out[key] as unknown[]).map(member("id"));
  if (Array.isArray(out.competitors)) out.competitors = out.competitors.map(member("name"));
  if (isObject(out.jobFunction)) out.jobFunction = out.jobFunction.name === undefined ? [] : [out.jobFunction.name];
  for (const key of NUMBERS_AS_TEXT) if (key in out) out[key] = numberOf(out[key]);
  if (isObject(out.employeeGrowth)) {
    const growth = out.employeeGrowth;
    out.employeeGrowth = { ...growth, oneYearGrowthRate: numberOf(growth.oneYearGrowthRate), twoYearGrowthRate: numberOf(growth.twoYearGrowthRate) };
  }
  if (isObject(out.company)) out.company = attributesFromWire(out.company);
  return out;
}

/** An enrichment answer with every record's attributes in the contract's shapes. */
export function enrichedFromWire(doc: unknown): unknown {
  if (!isObject(doc) || !Array.isArray(doc.data)) return doc;
  return {
    ...doc,
    data: doc.data.map((item) => (isObject(item) && isObject(item.attributes) ? { ...item, attributes: attributesFromWire(item.attributes) } : item)),
  };
}

/** A search body with the filters production takes as text sent as text. */
export function searchBodyToWire(body: unknown): unknown {
  if (!isObject(body) || !isObject(body.data) || !isObject(body.data.attributes)) return body;
  const attributes = Object.fromEntries(
    Object.entries(body.data.attributes).map(([name, value]) => [name, isProductionTextFilter(name) && typeof value === "number" ? String(value) : value]),
  );
  return { ...body, data: { ...body.data, attributes } };
}
