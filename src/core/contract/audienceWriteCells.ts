// What a CUSTOM column of each data type takes (docs/audiences.md, "Cells"). A value the type
// refuses is that cell's problem (state ERROR with a reason), never the batch's: the sandbox
// answers with these sentences, and the add-in may use them to choose a column's type.
import type { AudienceDataType } from "./audienceWrite.js";

/** Short text: below this many characters; longer text goes in a LARGE_TEXT column. */
export const TEXT_MAX_LENGTH = 2000;
/** The most characters the sandbox keeps in one cell of any type (the service publishes no limit). */
export const CELL_MAX_LENGTH = 100_000;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const URL_LIKE = /^(https?:\/\/)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+(:\d+)?([/?#]\S*)?$/i;
const PHONE_CHARS = /^\+?[0-9\s().\-/]+((x|ext\.?)\s*\d+)?$/i;

function isDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const dt = new Date(Date.UTC(y, mo - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === mo - 1 && dt.getUTCDate() === d;
}

function isPhone(value: string): boolean {
  const digits = value.replace(/\D/g, "").length;
  return PHONE_CHARS.test(value.trim()) && digits >= 5 && digits <= 20;
}

const text = (value: unknown) => typeof value === "string" && value.length <= CELL_MAX_LENGTH;
const finite = (value: unknown) => typeof value === "number" && Number.isFinite(value);
const listOf = (each: (v: unknown) => boolean) => (value: unknown) => Array.isArray(value) && value.every(each);

/** Per type: whether a value fits, and what it must be (said in a user's terms). */
const RULES: Record<AudienceDataType, { fits: (value: unknown) => boolean; expects: string }> = {
  TEXT: { fits: (v) => text(v) && (v as string).length < TEXT_MAX_LENGTH, expects: `text shorter than ${TEXT_MAX_LENGTH.toLocaleString("en-US")} characters` },
  LARGE_TEXT: { fits: text, expects: `text of at most ${CELL_MAX_LENGTH.toLocaleString("en-US")} characters` },
  EMAIL: { fits: (v) => text(v) && EMAIL.test((v as string).trim()), expects: "one email address, like name@example.com" },
  PHONE: { fits: (v) => text(v) && isPhone(v as string), expects: "one phone number, like +1 617 555 0100" },
  URL: { fits: (v) => text(v) && URL_LIKE.test((v as string).trim()), expects: "a website or web address, like example.com" },
  INTEGER: { fits: (v) => finite(v) && Number.isInteger(v), expects: "a whole number" },
  DECIMAL: { fits: finite, expects: "a number" },
  PERCENT: { fits: finite, expects: "a number (a percentage)" },
  CURRENCY: { fits: finite, expects: "a number (an amount)" },
  BOOLEAN: { fits: (v) => typeof v === "boolean", expects: "true or false" },
  CHECKBOX: { fits: (v) => typeof v === "boolean", expects: "true or false" },
  DATE: { fits: (v) => text(v) && isDate(v as string), expects: "a date written YYYY-MM-DD" },
  STRING_LIST: { fits: listOf(text), expects: "a list of texts" },
  NUMBER_LIST: { fits: listOf(finite), expects: "a list of numbers" },
  EMAIL_LIST: { fits: listOf((v) => text(v) && EMAIL.test(v as string)), expects: "a list of email addresses" },
  PHONE_LIST: { fits: listOf((v) => text(v) && isPhone(v as string)), expects: "a list of phone numbers" },
  URL_LIST: { fits: listOf((v) => text(v) && URL_LIKE.test(v as string)), expects: "a list of web addresses" },
  OBJECT: { fits: text, expects: `a JSON text of at most ${CELL_MAX_LENGTH.toLocaleString("en-US")} characters` },
};

/** Whether a value clears the cell ("" or an empty list): any column takes it. */
export function isBlankCell(value: unknown): boolean {
  return value === "" || (Array.isArray(value) && value.length === 0);
}

/**
 * Why a column of this data type refuses the value (undefined when it takes it). A data type
 * outside the CUSTOM list takes any value.
 */
export function cellValueProblem(dataType: string, value: unknown): string | undefined {
  if (isBlankCell(value)) return undefined;
  const rule = (RULES as Record<string, (typeof RULES)[AudienceDataType] | undefined>)[dataType];
  if (!rule || rule.fits(value)) return undefined;
  const shown = typeof value === "string" ? `"${value.length > 60 ? `${value.slice(0, 57)}...` : value}"` : JSON.stringify(value);
  return `This column (${dataType}) takes ${rule.expects}; ${shown} is not one.`;
}
