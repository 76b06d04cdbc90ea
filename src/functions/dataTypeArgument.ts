// A data type passed to a BIZ function as its company argument. functions.json sets
// allowCustomDataForDataTypeAny (CustomFunctionsRuntime 1.4), so a data-type cell arrives as its
// value object rather than its text: a company card made by BIZ.COMPANYCARD is read by the company
// id it carries, any other data type (a Stocks or Geography cell, another add-in's card) by its
// display name, and a formatted number by its number. The note says which, so a cell whose lookup
// fails can say what it looked up (docs/excel-host.md).
import { fieldSpec, type CellProblem } from "../core/enrich/index.js";

/** The provider a company card names (shown on the card); the mark of the add-in's own cards. */
export const CARD_PROVIDER = "BizData";
/** The card property holding the company id: the id field's label, as the card labels every field. */
export const CARD_ID_PROPERTY = fieldSpec("company", "id")?.label ?? "Company ID";

export type CompanyArgument = { ok: true; value: unknown; note?: string } | { ok: false; problem: CellProblem };

interface DataTypeValue {
  type?: unknown;
  text?: unknown;
  basicValue?: unknown;
  properties?: Record<string, { basicValue?: unknown } | undefined>;
  provider?: { description?: unknown };
}

const isDataType = (raw: unknown): raw is DataTypeValue => typeof raw === "object" && raw !== null && !Array.isArray(raw);

/** The company id on a card made by BIZ.COMPANYCARD, or undefined for any other value. */
function ownCardId(value: DataTypeValue): number | undefined {
  if (value.type !== "Entity" || value.provider?.description !== CARD_PROVIDER) return undefined;
  const id = value.properties?.[CARD_ID_PROPERTY]?.basicValue;
  const number = typeof id === "string" ? Number(id.trim()) : id;
  return typeof number === "number" && Number.isSafeInteger(number) && number > 0 ? number : undefined;
}

/** What kind of data type a value is, in a user's words: "Stocks data type", "data type". */
function dataTypeName(value: DataTypeValue): string {
  const provider = typeof value.provider?.description === "string" ? value.provider.description.trim() : "";
  return provider ? `${provider} data type` : "data type";
}

/** A company argument as the pipeline takes it: an id, a website or a name, with how it was read. */
export function readCompanyArgument(raw: unknown): CompanyArgument {
  if (!isDataType(raw)) return { ok: true, value: raw };
  const id = ownCardId(raw);
  if (id !== undefined) return { ok: true, value: id, note: `Read company id ${id} from its company card` };
  const basic = raw.basicValue;
  if (typeof basic === "number" || typeof basic === "string" || typeof basic === "boolean") return { ok: true, value: basic };
  const text = typeof raw.text === "string" ? raw.text.trim() : "";
  if (text) return { ok: true, value: text, note: `Looked up "${text}" by the name of its ${dataTypeName(raw)}` };
  return {
    ok: false,
    problem: { kind: "invalidInput", code: "#VALUE!", message: `This ${dataTypeName(raw)} has no name to look up: give the company's id, website or name` },
  };
}

/** A cell problem that names how its data-type argument was read, so the user sees what was looked up. */
export function withArgumentNote(problem: CellProblem, argument: CompanyArgument): CellProblem {
  return argument.ok && argument.note ? { ...problem, message: `${argument.note}. ${problem.message}` } : problem;
}
