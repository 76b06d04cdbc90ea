// Records a search shows as under management cost no credit when enriched: the engine is told,
// so they do not count against the user's daily cap. Used by the preview and by inserts.
import type { CompanyItem, ContactItem } from "../../core/contract/index.js";
import type { EnrichmentEngine, EntityKind } from "../../core/enrich/index.js";

/** The ids (whole numbers) of the items the service shows as under management. */
export function underManagementIds(items: readonly (CompanyItem | ContactItem)[]): number[] {
  const ids: number[] = [];
  for (const item of items) {
    if (item.attributes.managementStatus?.underManagement !== true) continue;
    const id = Number(item.id);
    if (Number.isSafeInteger(id) && id > 0) ids.push(id);
  }
  return ids;
}

/** Tells the engine which of these results are under management (nothing when none are). */
export function markUnderManagement(
  engine: Pick<EnrichmentEngine, "markUnderManagement">,
  kind: EntityKind,
  items: readonly (CompanyItem | ContactItem)[],
): void {
  const ids = underManagementIds(items);
  if (ids.length > 0) engine.markUnderManagement(kind, ids);
}
