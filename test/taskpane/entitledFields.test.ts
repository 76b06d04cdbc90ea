// How field pickers show a field the account may not use.
import assert from "node:assert/strict";
import { test } from "node:test";
import { entitledChoice, pickerField } from "../../src/taskpane/entitledFields.js";

test("a picker marks and disables an unentitled field, and offers every field when the entitlement is unknown", () => {
  const entitled = new Set(["name"]);
  assert.deepEqual(pickerField("company", "name", "Name", entitled), { label: "Name", disabled: false });
  assert.deepEqual(pickerField("company", "revenue", "Revenue", entitled), { label: "Revenue (not in your account's plan)", disabled: true });
  assert.deepEqual(pickerField("company", "revenue", "Revenue", undefined), { label: "Revenue", disabled: false });
  // A search column that is not an output field (management status) is not subject to entitlements.
  assert.deepEqual(pickerField("company", "underManagement", "Under management", entitled), { label: "Under management", disabled: false });
});

test("a default choice loses the fields the account may not use, and keeps the rest in order", () => {
  const entitled = new Set(["name", "employeeRange"]);
  assert.deepEqual(entitledChoice("company", ["employeeRange", "phone", "underManagement", "name"], entitled), ["employeeRange", "underManagement", "name"]);
  assert.deepEqual(entitledChoice("company", ["phone"], undefined), ["phone"]);
});
