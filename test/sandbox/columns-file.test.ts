// The column index is kept in a file beside the database: a data directory seeded before the
// file existed gets it on its next start without re-seeding, and a file that does not match the
// data (another format or seed, or damaged) is rebuilt rather than used.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { createSearcher } from "../../src/sandbox/search/runSearch.js";
import { columnsFileOf, openColumnIndex, readColumnIndex, signatureOf, writeColumnIndex } from "../../src/sandbox/store/columnsFile.js";
import { openDatabase } from "../../src/sandbox/store/database.js";

const dataDir = mkdtempSync(join(tmpdir(), "sandbox-columns-"));
after(() => rmSync(dataDir, { recursive: true, force: true }));
const size = { seed: 3, companies: 400, contacts: 10 };
const search = { country: "United States", employeeRangeMin: "5" };

function open() {
  const opened = openDatabase(dataDir, size);
  return { ...opened, file: columnsFileOf(opened.db.name) };
}

test("a data directory without the columns file gets one on its next start, with the same answers", () => {
  const first = open();
  const expected = createSearcher(first.db, undefined, { columns: false }).companies(search, { number: 1, size: 20 }, "a", "/p");
  createSearcher(first.db);
  assert.ok(existsSync(first.file), "the first start writes the file");
  first.db.close();
  // As a directory seeded before the file existed.
  rmSync(first.file);

  const second = open();
  try {
    assert.equal(second.seededInMs, 0, "the seeded data is reused, not re-seeded");
    const answer = createSearcher(second.db).companies(search, { number: 1, size: 20 }, "a", "/p");
    assert.ok(existsSync(second.file), "the start writes the missing file");
    assert.deepEqual(answer, expected);
    assert.ok(readColumnIndex(second.file, signatureOf(second.db)), "the written file is read back for these data");
  } finally {
    second.db.close();
  }
});

test("a file for other data, of another format or damaged is rebuilt, not used", () => {
  const { db, file } = open();
  try {
    const built = openColumnIndex(db);
    const real = signatureOf(db);
    // Another seed's file: rejected when read for these data, and replaced on open.
    writeColumnIndex(file, built, "columns1:other-seed:400");
    assert.equal(readColumnIndex(file, real), undefined);
    openColumnIndex(db);
    assert.ok(readColumnIndex(file, real));
    // A damaged file: not one at all, or cut short after a valid start.
    writeFileSync(file, "not a columns file");
    assert.equal(readColumnIndex(file, real), undefined);
    writeColumnIndex(file, built, real);
    writeFileSync(file, readFileSync(file).subarray(0, 40));
    assert.equal(readColumnIndex(file, real), undefined);
    const rebuilt = openColumnIndex(db);
    assert.deepEqual([...rebuilt.c.ids], [...built.c.ids]);
    assert.ok(readColumnIndex(file, real));
  } finally {
    db.close();
  }
});
