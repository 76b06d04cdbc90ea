// A data type passed as a company argument (allowCustomDataForDataTypeAny): the add-in's own
// company card by its company id, another data type by its display name, a formatted number by its
// number; the note says which, and a failed lookup's message starts with it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CARD_ID_PROPERTY, CARD_PROVIDER, readCompanyArgument, withArgumentNote } from "../../src/functions/dataTypeArgument.js";

const ownCard = (id: unknown) => ({
  type: "Entity",
  text: "Company 8",
  provider: { description: CARD_PROVIDER },
  properties: { "Company name": { type: "String", basicValue: "Company 8" }, [CARD_ID_PROPERTY]: { type: "Double", basicValue: id } },
});
const stocks = { type: "LinkedEntity", text: "Contoso Ltd", provider: { description: "Stocks" }, id: { entityId: "x", domainId: "y" } };

describe("readCompanyArgument", () => {
  it("passes ids, websites, names and ranges through as they are", () => {
    for (const raw of [8, "8", "acme.com", "Acme", "", null, undefined, [["a"]]]) assert.deepEqual(readCompanyArgument(raw), { ok: true, value: raw });
  });

  it("reads the add-in's company card by its company id, not its name", () => {
    assert.deepEqual(readCompanyArgument(ownCard(8)), { ok: true, value: 8, note: "Read company id 8 from its company card" });
    assert.deepEqual(readCompanyArgument(ownCard("8")), { ok: true, value: 8, note: "Read company id 8 from its company card" });
  });

  it("reads another data type by its display name and says so", () => {
    assert.deepEqual(readCompanyArgument(stocks), { ok: true, value: "Contoso Ltd", note: 'Looked up "Contoso Ltd" by the name of its Stocks data type' });
    // Another add-in's card, or ours without a usable id: its name.
    const foreign = { ...ownCard(8), provider: { description: "Other" } };
    assert.deepEqual(readCompanyArgument(foreign), { ok: true, value: "Company 8", note: 'Looked up "Company 8" by the name of its Other data type' });
    const noId = readCompanyArgument(ownCard("n/a"));
    assert.deepEqual(noId.ok && [noId.value, noId.note], ["Company 8", 'Looked up "Company 8" by the name of its BizData data type']);
    const bare = readCompanyArgument({ type: "Entity", text: " Acme " });
    assert.deepEqual(bare, { ok: true, value: "Acme", note: 'Looked up "Acme" by the name of its data type' });
  });

  it("reads a formatted number or a basic value by its value", () => {
    assert.deepEqual(readCompanyArgument({ type: "FormattedNumber", basicValue: 12, numberFormat: "0" }), { ok: true, value: 12 });
    assert.deepEqual(readCompanyArgument({ type: "String", basicValue: "acme.com" }), { ok: true, value: "acme.com" });
  });

  it("refuses a data type with no name, saying what to give instead", () => {
    const result = readCompanyArgument({ type: "Entity", text: "  ", provider: { description: "Geography" } });
    assert.deepEqual(result, {
      ok: false,
      problem: { kind: "invalidInput", code: "#VALUE!", message: "This Geography data type has no name to look up: give the company's id, website or name" },
    });
  });

  it("puts the note before a failed lookup's message", () => {
    const problem = { kind: "noMatch" as const, code: "#N/A" as const, message: "No company matches this name" };
    assert.equal(
      withArgumentNote(problem, readCompanyArgument(stocks)).message,
      'Looked up "Contoso Ltd" by the name of its Stocks data type. No company matches this name',
    );
    assert.equal(withArgumentNote(problem, readCompanyArgument("Acme")), problem);
  });
});
