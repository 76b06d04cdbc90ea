// The audience a table goes to: a new one (created with its columns) or an existing one (its
// columns found by name, the missing ones added), with the key column every sent row carries
// and the match criteria. The answer says which audience column each sent table column fills.
import { KEY_COLUMN_NAME, type AudienceMapping, type ColumnChoice } from "./mapping.js";
import type { AudienceColumnInfo, AudienceDataType, AudienceKind, AudienceWritePort, MatchCriterion, NewAudienceColumn } from "./port.js";

export type AudienceChoice = { kind: "new"; name: string; folderId?: string } | { kind: "existing"; audienceId: string };

export interface SendTarget {
  audienceId: string;
  /** Table column index -> audience column id, for every sent column. */
  columnIds: Map<number, string>;
  keyColumnId: string;
  /** Audience column id -> its name (to say which cell the service refused). */
  columnNames: Map<string, string>;
}

const CRITERION_TYPES: Record<MatchCriterion, AudienceDataType> = {
  COMPANY_WEBSITE: "URL",
  COMPANY_NAME: "TEXT",
  ZOOMINFO_COMPANY_ID: "TEXT",
  CONTACT_EMAIL: "EMAIL",
  ZOOMINFO_CONTACT_ID: "TEXT",
};

/** The sent columns, in table order. */
export function sentColumns(mapping: AudienceMapping): ColumnChoice[] {
  return mapping.columns.filter((c) => c.role.kind !== "skip");
}

function columnOf(choice: ColumnChoice): NewAudienceColumn {
  const name = choice.header.trim();
  if (choice.role.kind === "criterion") return { name, dataType: CRITERION_TYPES[choice.role.criterion] };
  return { name, dataType: choice.role.kind === "column" ? choice.role.dataType : "TEXT" };
}

/** The audience columns a send needs: the sent ones and the key column. */
export function neededColumns(mapping: AudienceMapping): NewAudienceColumn[] {
  return [...sentColumns(mapping).map(columnOf), { name: KEY_COLUMN_NAME, dataType: "TEXT" }];
}

/** A column rows are written to (the service fills the others: match, enrichment, input). */
const isCustom = (c: AudienceColumnInfo) => c.source === undefined || c.source === "custom";
const byName = (columns: readonly AudienceColumnInfo[], name: string) =>
  columns.find((c) => isCustom(c) && c.name.trim().toLowerCase() === name.trim().toLowerCase());

/** Columns an existing audience lacks (by name). */
export function missingColumns(mapping: AudienceMapping, existing: readonly AudienceColumnInfo[]): NewAudienceColumn[] {
  return neededColumns(mapping).filter((c) => !byName(existing, c.name));
}

/** Sent columns named like a column the service fills in the audience: they cannot be written. */
export function serviceColumnClashes(mapping: AudienceMapping, existing: readonly AudienceColumnInfo[]): string[] {
  const filled = existing.filter((c) => !isCustom(c)).map((c) => c.name.trim().toLowerCase());
  return neededColumns(mapping)
    .map((c) => c.name)
    .filter((name) => filled.includes(name.trim().toLowerCase()));
}

interface PrepareOptions {
  signal?: AbortSignal;
}

/** The match criteria of the mapping, by the target's column ids. */
export function criteriaOf(mapping: AudienceMapping, target: SendTarget): Array<{ columnId: string; criterion: MatchCriterion }> {
  return sentColumns(mapping).flatMap((c) =>
    c.role.kind === "criterion" ? [{ columnId: target.columnIds.get(c.index) as string, criterion: c.role.criterion }] : [],
  );
}

/**
 * Creates the audience with its columns, or completes an existing one's columns (by name). The
 * match criteria are set beside the first rows (sendToAudience), not before them.
 */
export async function prepareTarget(
  port: Pick<AudienceWritePort, "createAudience" | "addAudienceColumns" | "listAudienceColumns">,
  choice: AudienceChoice,
  mapping: AudienceMapping,
  options: PrepareOptions = {},
): Promise<SendTarget> {
  const call = options.signal ? { signal: options.signal } : {};
  if (choice.kind === "new") {
    const kind: AudienceKind = mapping.kind;
    const created = await port.createAudience(
      { name: choice.name.trim(), kind, ...(choice.folderId ? { folderId: choice.folderId } : {}), columns: neededColumns(mapping) },
      call,
    );
    return targetOf(created.audienceId, mapping, created.columns);
  }
  let columns = await port.listAudienceColumns(choice.audienceId, call);
  const clashes = serviceColumnClashes(mapping, columns);
  if (clashes.length > 0) {
    const names = clashes.join(", ");
    throw new Error(
      `The audience's ${names} ${clashes.length === 1 ? "column is" : "columns are"} filled by the service: rename ${clashes.length === 1 ? "that column" : "those columns"} in the sheet, or leave ${clashes.length === 1 ? "it" : "them"} out.`,
    );
  }
  const missing = missingColumns(mapping, columns);
  if (missing.length > 0) columns = [...columns, ...(await port.addAudienceColumns(choice.audienceId, missing, call))];
  return targetOf(choice.audienceId, mapping, columns);
}

/** Which audience column each sent table column fills (by name), and the key column. */
export function targetOf(audienceId: string, mapping: AudienceMapping, columns: readonly AudienceColumnInfo[]): SendTarget {
  const missing = (name: string) => new Error(`The audience has no column named ${name}; send again to add it.`);
  const columnIds = new Map<number, string>();
  for (const choice of sentColumns(mapping)) {
    const column = byName(columns, choice.header);
    if (!column) throw missing(choice.header.trim());
    columnIds.set(choice.index, column.columnId);
  }
  const key = byName(columns, KEY_COLUMN_NAME);
  if (!key) throw missing(KEY_COLUMN_NAME);
  return { audienceId, columnIds, keyColumnId: key.columnId, columnNames: new Map(columns.map((c) => [c.columnId, c.name])) };
}
