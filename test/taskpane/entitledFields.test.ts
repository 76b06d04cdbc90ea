// How field pickers show a field the account may not use.
import assert from "node:assert/strict";
import { test } from "node:test";
import { pickerField } from "../../src/taskpane/entitledFields.js";

test("a picker marks and disables an unentitled field, and offers every field when the entitlement is unknown", () => {
  const entitled = new Set(["name"]);
  assert.deepEqual(pickerField("name", "Name", entitled), { label: "Name", disabled: false });
  assert.deepEqual(pickerField("revenue", "Revenue", entitled), { label: "Revenue (not in your account's plan)", disabled: true });
  assert.deepEqual(pickerField("revenue", "Revenue", undefined), { label: "Revenue", disabled: false });
});
