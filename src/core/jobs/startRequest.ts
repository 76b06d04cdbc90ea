// Checking an enrichment request before it is sent, with the same validator the sandbox
// uses, so the user fixes a bad row id in the panel instead of reading a 400.
import { validateAudienceEnrichBody, type ValidationIssue } from "../contract/index.js";
import type { AudienceScope } from "../api/types.js";

export interface EnrichmentChoice {
  scope: AudienceScope;
  rows?: string[];
  columns?: string[];
}

function audienceEnrichBody(choice: EnrichmentChoice) {
  const attributes: Record<string, unknown> = { scope: choice.scope };
  if (choice.rows !== undefined && choice.scope === "ROW") attributes.rows = choice.rows;
  if (choice.columns !== undefined && choice.columns.length > 0) attributes.columns = choice.columns;
  return { data: { type: "AudienceEnrichment", attributes } };
}

/** Issues with the request, or none; pointers name the row or column at fault. */
export function checkEnrichmentChoice(choice: EnrichmentChoice): ValidationIssue[] {
  return validateAudienceEnrichBody(audienceEnrichBody(choice));
}

/**
 * Row ids from a worksheet range's values: every non-empty cell, trimmed, in reading order,
 * each once. Header-like text is kept and left to the validator to flag.
 */
export function rowIdsFromCells(values: readonly (readonly unknown[])[]): string[] {
  const seen = new Set<string>();
  for (const row of values) {
    for (const cell of row) {
      if (cell === null || cell === undefined) continue;
      const text = String(cell).trim();
      if (text !== "") seen.add(text);
    }
  }
  return [...seen];
}
