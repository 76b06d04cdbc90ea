// Opens the sandbox database: in memory, or a file under dataDir that is seeded once and reused
// on later starts (re-seeded when the seed or sizes change, or on reset). An in-memory database
// seeded before in this process with the same seed and sizes starts from a copy of that one's
// first state (SQLite's serialized image) instead of being seeded again: the data is the same.
// The first state holds everything drawn from the seed and sizes alone: companies, contacts,
// matching and family companies, and the seeded audiences.
import Database from "better-sqlite3";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { seedDatabase, type SeedSize } from "../data/seed.js";
import { MATCH_SEED_VERSION, seedMatchCompanies } from "../match/seed.js";
import { FAMILY_SEED_VERSION, seedDesignedFamily } from "../accounts/seed.js";
import { seedAudiences } from "../audiences/seed.js";
import { AudienceStore } from "../audiences/store.js";
import { createRecordStore } from "../records.js";
import { SCHEMA_VERSION, createTables, haversineMiles } from "./schema.js";

export const DATABASE_FILE = "sandbox.db";

export interface OpenedDatabase {
  db: Database.Database;
  /** Milliseconds spent seeding, or 0 when existing data was reused. */
  seededInMs: number;
}

/** The first state of each in-memory database seeded in this process, by seed signature. */
const seededImages = new Map<string, Buffer>();

function seedSignature(size: SeedSize): string {
  return `${SCHEMA_VERSION}:${MATCH_SEED_VERSION}:${FAMILY_SEED_VERSION}:${size.seed}:${size.companies}:${size.contacts}`;
}

export function openDatabase(dataDir: string | undefined, size: SeedSize, reset = false): OpenedDatabase {
  const signature = seedSignature(size);
  let db: Database.Database;
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    const file = join(dataDir, DATABASE_FILE);
    if (reset) for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
    const existed = existsSync(file);
    db = new Database(file);
    if (existed) {
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = NORMAL");
      const row = tryMeta(db, "signature");
      if (row === signature) {
        prepareConnection(db);
        return { db, seededInMs: 0 };
      }
      // Different seed, sizes or schema: start over.
      db.close();
      for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
      db = new Database(file);
    }
  } else {
    const image = seededImages.get(signature);
    if (image) {
      db = new Database(image);
      prepareConnection(db);
      return { db, seededInMs: 0 };
    }
    db = new Database(":memory:");
  }
  prepareConnection(db);
  createTables(db);
  // Seeding writes once from scratch: no journal while it runs (an interrupted seed has no
  // signature yet and is redone on the next start).
  if (dataDir) {
    db.pragma("journal_mode = OFF");
    db.pragma("synchronous = OFF");
  }
  const seededInMs = seedDatabase(db, size);
  seedMatchCompanies(db);
  seedDesignedFamily(db);
  // The audiences feature would seed them on its start; seeded here they are part of the first
  // state an in-memory start copies, instead of being written again on every start.
  seedAudiences(new AudienceStore(db), createRecordStore(db), size.seed);
  db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('signature', ?)").run(signature);
  if (dataDir) {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
  } else seededImages.set(signature, db.serialize());
  return { db, seededInMs };
}

function tryMeta(db: Database.Database, key: string): string | undefined {
  try {
    const row = db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | undefined;
    return row?.value;
  } catch {
    // No meta table: an unfinished or foreign file, which the caller replaces.
    return undefined;
  }
}

function prepareConnection(db: Database.Database): void {
  db.pragma("cache_size = -65536");
  db.pragma("temp_store = MEMORY");
  db.pragma("mmap_size = 268435456");
  db.function("haversine_miles", { deterministic: true }, (lat1, lon1, lat2, lon2) => haversineMiles(Number(lat1), Number(lon1), Number(lat2), Number(lon2)));
}
