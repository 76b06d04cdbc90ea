// Deterministic seeding: the same seed and sizes always give the same companies and contacts.
// Everything is inserted in one transaction with prepared statements; indexes come afterwards.
// The steps (companySeed.ts, companyRecord.ts, contactSeed.ts) share one random stream through
// a SeedContext (seedContext.ts) and draw from it in a fixed order.
import type Database from "better-sqlite3";
import { CREATE_DATA_INDEXES } from "../store/schema.js";
import { drawCompany } from "./companySeed.js";
import { writeCompany } from "./companyRecord.js";
import { seedContacts } from "./contactSeed.js";
import { seedContext, type SeedContext, type SeedSize } from "./seedContext.js";

export type { SeedSize } from "./seedContext.js";

function seedZips(ctx: SeedContext): void {
  for (const zips of ctx.cityZipList) for (const z of zips) ctx.insert.zip.run(z.zip, z.lat, z.lon);
}

function seedCompanies(ctx: SeedContext): void {
  for (let id = 1; id <= ctx.size.companies; id++) writeCompany(ctx, drawCompany(ctx, id));
}

/** Seeds an empty database. Returns how long it took, in ms. */
export function seedDatabase(db: Database.Database, size: SeedSize): number {
  const started = Date.now();
  const ctx = seedContext(db, size);
  const seedAll = db.transaction(() => {
    seedZips(ctx);
    seedCompanies(ctx);
    seedContacts(ctx);
  });
  seedAll();
  db.exec(CREATE_DATA_INDEXES);
  db.exec("ANALYZE");
  return Date.now() - started;
}
