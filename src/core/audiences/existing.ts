// Sending to an audience that exists: its kind and its match criteria are the audience's own, not
// guessed again from the table. The criteria are found on the table's columns of the same name
// (a sent column keeps its name in the audience); the table's other columns are inferred for that
// kind as usual.
import { criteriaFor, inferDataType, inferMapping, type AudienceMapping, type ColumnChoice, type SheetTable } from "./mapping.js";
import type { AudienceColumnInfo, AudienceKind, MatchCriterion } from "./port.js";

/** What the add-in knows of an existing audience: its kind when listed, and its columns. */
export interface ExistingAudience {
  kind?: AudienceKind;
  columns: readonly AudienceColumnInfo[];
}

const CONTACT_CRITERIA: readonly string[] = ["CONTACT_EMAIL", "ZOOMINFO_CONTACT_ID"];

/** The audience's match criteria, as table header (lower case) -> criterion. */
function criteriaByName(audience: ExistingAudience): Map<string, string> {
  const names = new Map(audience.columns.map((c) => [c.columnId, c.name.trim().toLowerCase()]));
  const byName = new Map<string, string>();
  for (const column of audience.columns)
    for (const m of column.matchCriteria ?? []) {
      const name = names.get(m.columnId);
      if (name !== undefined) byName.set(name, m.criterion);
    }
  return byName;
}

/** The audience's kind: as listed, else what its criteria identify, else undefined. */
export function audienceKind(audience: ExistingAudience): AudienceKind | undefined {
  if (audience.kind) return audience.kind;
  const criteria = [...criteriaByName(audience).values()];
  if (criteria.length === 0) return undefined;
  return criteria.some((c) => CONTACT_CRITERIA.includes(c)) ? "CONTACT" : "COMPANY";
}

/** The mapping for sending `table` to an existing audience: the audience's kind and its match criteria. */
export function mappingForAudience(table: SheetTable, audience: ExistingAudience): AudienceMapping {
  const kind = audienceKind(audience);
  const inferred = inferMapping(table, kind ? { kind } : {});
  const allowed: readonly string[] = criteriaFor(inferred.kind);
  const criteria = criteriaByName(audience);
  const used = new Set<string>();
  const roleOf = (c: ColumnChoice): MatchCriterion | undefined => {
    const criterion = criteria.get(c.header.trim().toLowerCase());
    return criterion !== undefined && allowed.includes(criterion) && !used.has(criterion) ? (criterion as MatchCriterion) : undefined;
  };
  const own = inferred.columns.map((c): ColumnChoice | undefined => {
    if (c.role.kind === "skip") return c;
    const criterion = roleOf(c);
    if (!criterion) return undefined;
    used.add(criterion);
    return { ...c, role: { kind: "criterion", criterion } };
  });
  const columns = inferred.columns.map((c, i): ColumnChoice => {
    const set = own[i];
    if (set) return set;
    // A criterion the audience matches on another column: this one is sent as a typed column.
    if (c.role.kind === "criterion" && used.has(c.role.criterion)) {
      const values = table.rows.map((r) => r[c.index]);
      return { ...c, role: { kind: "column", dataType: inferDataType(values, table.formats?.[c.index]) } };
    }
    return c;
  });
  return { kind: inferred.kind, columns };
}
