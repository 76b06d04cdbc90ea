// One corporate family laid out on purpose, so every data size (from 40 companies) has a family
// as deep and as varied as the service's: a top parent with subsidiaries three levels deep, two
// acquisitions, a former name, a division and two locations. The generated companies with these
// ids (all top-level companies in the seed: it makes sub-units only above id 40) keep their
// names and details and only take their place in the family; the companies below them move with
// them (their ultimate parent becomes the family's top), so company enrichment's parentId and
// ultimateParentId and the hierarchy still agree.
import type Database from "better-sqlite3";

/** Part of the stored database's signature: a change here re-seeds a kept database. */
export const FAMILY_SEED_VERSION = "family1";

/** The designed family: each member's parent and how it relates to it (the top has none). */
export const DESIGNED_FAMILY = {
  top: 30,
  members: [
    { id: 31, parent: 30, type: "SUBSIDIARY" },
    { id: 32, parent: 31, type: "SUBSIDIARY" },
    { id: 33, parent: 32, type: "ACQUISITION" },
    { id: 34, parent: 30, type: "ACQUISITION" },
    { id: 35, parent: 30, type: "FORMER_NEW_NAME" },
    { id: 36, parent: 30, type: "LOCATION" },
    { id: 37, parent: 31, type: "DIVISION" },
    { id: 38, parent: 32, type: "LOCATION" },
  ],
} as const;

/** Lays the designed family out on a freshly seeded database (nothing when it has fewer companies). */
export function seedDesignedFamily(db: Database.Database): void {
  const { top, members } = DESIGNED_FAMILY;
  const highest = Math.max(top, ...members.map((m) => m.id));
  const count = (db.prepare("SELECT COUNT(*) AS n FROM companies WHERE id <= ?").get(highest) as { n: number }).n;
  if (count < highest) return;
  const place = db.prepare("UPDATE companies SET parent_id = ?, ultimate_parent_id = ?, sub_unit_type = ? WHERE id = ?");
  const moveBelow = db.prepare("UPDATE companies SET ultimate_parent_id = ? WHERE ultimate_parent_id = ?");
  db.transaction(() => {
    for (const member of members) {
      moveBelow.run(top, member.id);
      place.run(member.parent, top, member.type, member.id);
    }
  })();
}
