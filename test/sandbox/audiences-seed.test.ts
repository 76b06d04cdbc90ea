// Seeded audiences are the same for the same seed, and differ for another seed.
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import Database from "better-sqlite3";
import { seedAudiences } from "../../src/sandbox/audiences/seed.js";
import { AudienceStore, DEFAULT_OWNER } from "../../src/sandbox/audiences/store.js";
import type { RecordStore } from "../../src/sandbox/context.js";

const records = { companyCount: () => 2000, contactCount: () => 3000 } as RecordStore;

function seeded(seed: number, recordStore: RecordStore = records) {
  const db = new Database(":memory:");
  const store = new AudienceStore(db);
  seedAudiences(store, recordStore, seed);
  const audiences = store.listAudiences(DEFAULT_OWNER).map((a) => ({ ...a, columns: store.columns(a.id), rows: store.rowPage(a.id, 0, 20_000) }));
  db.close();
  return audiences;
}

describe("seeded audiences", () => {
  it("are deterministic from the seed", () => {
    assert.deepEqual(seeded(7), seeded(7));
    assert.notDeepEqual(
      seeded(7).map((a) => a.id),
      seeded(8).map((a) => a.id),
    );
  });

  it("include a 500-row company audience, one with bad references, contacts, and sizes from 50 to 20,000", () => {
    const audiences = seeded(1);
    assert.ok(audiences.some((a) => a.type === "COMPANY" && a.recordCount === 500));
    assert.ok(audiences.some((a) => a.type === "CONTACT"));
    assert.ok(audiences.every((a) => a.recordCount >= 50 && a.recordCount <= 20_000));
    const valid = (a: (typeof audiences)[number]) =>
      a.rows.filter((r) => /^\d+$/.test(r.recordRef) && Number(r.recordRef) <= (a.type === "COMPANY" ? 2000 : 3000)).length;
    const withBad = audiences.filter((a) => valid(a) < a.recordCount);
    assert.equal(withBad.length, 1);
    assert.ok(valid(withBad[0]!) > 0, "the audience with bad references also has good rows");
  });

  it("has a 20,000-row audience on the default data set (20,000 companies)", () => {
    const big = seeded(1, { companyCount: () => 20_000, contactCount: () => 100_000 } as RecordStore);
    assert.ok(big.some((a) => a.recordCount === 20_000));
  });

  it("seeds only once", () => {
    const db = new Database(":memory:");
    const store = new AudienceStore(db);
    seedAudiences(store, records, 1);
    const count = store.audienceCount();
    seedAudiences(store, records, 1);
    assert.equal(store.audienceCount(), count);
    db.close();
  });
});
