import { test } from "node:test";
import assert from "node:assert/strict";
import { COMPANY_FILTERS, CONTACT_FILTERS } from "../../src/core/contract/index.js";
import {
  fieldOfIssue,
  filtersFromForm,
  formFromFilters,
  messagesByField,
  serverIssuesOf,
  validateFilters,
  withServerIssues,
  withoutField,
} from "../../src/taskpane/search/formModel.js";

test("form values become the filters the contract expects; blanks are left out", () => {
  const filters = filtersFromForm(COMPANY_FILTERS, {
    companyName: "  Acme ",
    state: "",
    zipCode: "94105",
    zipCodeRadiusMiles: "25",
    revenueMin: "1000",
    revenueMax: "lots",
    industryCodes: ["software", "internet"],
    recentFundingRoundTypes: ["seed"],
    excludeDefunctCompanies: true,
    underManagement: false,
    certified: "1",
  });
  assert.deepEqual(filters, {
    companyName: "Acme",
    zipCode: "94105",
    zipCodeRadiusMiles: 25,
    revenueMin: 1000,
    revenueMax: "lots",
    industryCodes: "software,internet",
    recentFundingRoundTypes: ["seed"],
    excludeDefunctCompanies: true,
    certified: 1,
  });
});

test("saved filters come back into the form they were made from", () => {
  const values = { companyName: "Acme", industryCodes: ["software"], excludeDefunctCompanies: true, zipCodeRadiusMiles: "50" };
  const filters = filtersFromForm(COMPANY_FILTERS, values);
  assert.deepEqual(filtersFromForm(COMPANY_FILTERS, formFromFilters(COMPANY_FILTERS, filters)), filters);
});

test("validation issues land on their fields, in plain words", () => {
  const issues = validateFilters(
    "company",
    filtersFromForm(COMPANY_FILTERS, { zipCode: "94105#", fundingStartDate: "2024-06-01", fundingEndDate: "2024-01-01", revenueMin: "x" }),
  );
  const { fields } = messagesByField(issues);
  assert.equal(fields.zipCode, "Zip code may contain only letters, digits, spaces, commas and hyphens.");
  assert.equal(fields.fundingStartDate, "Funding from date must be on or before Funding to date.");
  assert.equal(fields.revenueMin, "Revenue from ($K) must be a whole number.");
  assert.deepEqual(validateFilters("contact", filtersFromForm(CONTACT_FILTERS, { firstName: "Ana", contactAccuracyScoreMin: "80" })), []);
  assert.match(messagesByField(validateFilters("contact", { contactAccuracyScoreMin: 50 })).fields.contactAccuracyScoreMin ?? "", /70 or more/);
});

test("a service error's source.pointer maps to its field; other issues stay general", () => {
  assert.equal(fieldOfIssue({ pointer: "/data/attributes/zipCode" }), "zipCode");
  assert.equal(fieldOfIssue({ pointer: "/data/attributes/companyTicker/3" }), "companyTicker");
  assert.equal(fieldOfIssue({ pointer: "/data/type" }), undefined);
  assert.equal(fieldOfIssue({}), undefined);
  const { fields, general } = messagesByField([
    { pointer: "/data/attributes/state", label: "State", rule: "x", code: "PFAPI0006", message: "State is not known." },
    { parameter: "sort", label: "Sort", rule: "oneOf", code: "PFAPI0002", message: "Sort must be one of: name." },
  ]);
  assert.deepEqual(fields, { state: "State is not known." });
  assert.deepEqual(general, ["Sort must be one of: name."]);
});

test("the service's issues stand beside the form's until their field is edited", () => {
  const issue = (pointer: string, message: string) => ({ pointer, label: "x", rule: "x", code: "PFAPI0006", message });
  const state = issue("/data/attributes/state", "State is not known.");
  const ticker = issue("/data/attributes/companyTicker/3", "Ticker is not known.");
  // Only a refusal that points at fields is kept; a refusal with none is said as a whole.
  assert.deepEqual(serverIssuesOf({ issues: [state, { label: "Sort", rule: "x", code: "PFAPI0002", message: "No." }] })?.length, 2);
  assert.equal(serverIssuesOf({ issues: [{ label: "Sort", rule: "x", code: "PFAPI0002", message: "No." }] }), undefined);
  assert.equal(serverIssuesOf(new Error("offline")), undefined);
  // The form's own word on a pointer comes first and the service's on the same pointer is not repeated.
  const own = issue("/data/attributes/state", "State is required.");
  assert.deepEqual(
    withServerIssues([own], [state, ticker]).map((i) => i.message),
    ["State is required.", "Ticker is not known."],
  );
  // Editing a field clears what the service said about it, list items included, and nothing else.
  assert.deepEqual(withoutField([state, ticker], "companyTicker"), [state]);
  assert.deepEqual(withoutField([state, ticker], "stat"), [state, ticker]);
});

test("numbers typed with the locale's thousands separators are accepted", async () => {
  const { plainNumber } = await import("../../src/taskpane/search/formModel.js");
  assert.equal(plainNumber("1,000", "en-US"), "1000");
  assert.equal(plainNumber("12,345.5", "en-US"), "12345.5");
  assert.equal(plainNumber("1.000", "de-DE"), "1000");
  assert.equal(plainNumber("1.000,5", "de-DE"), "1000.5");
  assert.equal(plainNumber("1 000", "fr-FR"), "1000");
  assert.equal(plainNumber("1,00", "en-US"), "1,00", "not a grouping: left for validation to explain");
  const filters = filtersFromForm(COMPANY_FILTERS, { revenueMin: "1,000", employeeRangeMin: "2,500" });
  // The test runs in the default (en) locale of Node.
  assert.deepEqual(filters, { revenueMin: 1000, employeeRangeMin: "2500" });
  assert.deepEqual(validateFilters("company", filters), []);
});

test("a negative number of employees is refused before searching", () => {
  const filters = filtersFromForm(COMPANY_FILTERS, { employeeRangeMin: "-5" });
  const issues = validateFilters("company", filters, COMPANY_FILTERS);
  assert.deepEqual(
    issues.map((i) => [fieldOfIssue(i), i.message]),
    [["employeeRangeMin", "Employees from must be 0 or more."]],
  );
});
