// Renaming a saved search keeps names apart (without regard to case) and refuses an empty name.
import { test } from "node:test";
import assert from "node:assert/strict";
import { renameProblem } from "../../src/taskpane/saved/renameSaved.js";

const list = [
  { id: "a", name: "Texas software" },
  { id: "b", name: "Ohio banks" },
];

test("a saved search can take a new name, or its own name in another case", () => {
  assert.equal(renameProblem(list, "a", "Texas software, large"), undefined);
  assert.equal(renameProblem(list, "a", "TEXAS SOFTWARE"), undefined);
});

test("another search's name or no name is refused, in words", () => {
  assert.equal(renameProblem(list, "a", " ohio banks "), 'Another saved search is named "Ohio banks". Choose another name.');
  assert.equal(renameProblem(list, "a", "   "), "Give the search a name.");
});
