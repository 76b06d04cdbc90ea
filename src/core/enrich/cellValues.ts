// Turning a service attribute into what a cell holds: numbers as numbers, booleans as
// booleans, everything else as readable text. Lists (socialMediaUrls, industries, funding
// rounds) become one line of text; a missing value becomes an empty cell.
import type { OutputFieldType } from "../contract/index.js";

export type CellValue = string | number | boolean;

export function toCellValue(type: OutputFieldType | undefined, raw: unknown): CellValue {
  if (raw === null || raw === undefined) return "";
  switch (type) {
    case "integer":
    case "number": {
      const n = typeof raw === "number" ? raw : typeof raw === "string" && raw.trim() !== "" ? Number(raw) : NaN;
      return Number.isFinite(n) ? n : readableText(raw);
    }
    case "boolean":
      if (typeof raw === "boolean") return raw;
      if (raw === "true" || raw === "false") return raw === "true";
      return readableText(raw);
    default:
      return readableText(raw);
  }
}

/** One line a person reads, for any JSON value. */
function readableText(raw: unknown): string {
  if (raw === null || raw === undefined) return "";
  if (typeof raw === "string") return raw;
  if (typeof raw === "number" || typeof raw === "boolean") return String(raw);
  if (Array.isArray(raw)) return raw.map(listItemText).filter((t) => t !== "").join("; ");
  if (typeof raw === "object") return objectText(raw as Record<string, unknown>);
  return String(raw);
}

function listItemText(item: unknown): string {
  if (typeof item !== "object" || item === null || Array.isArray(item)) return readableText(item);
  const record = item as Record<string, unknown>;
  // Social media links read as "LINKED_IN: https://… (1200 followers)".
  if (typeof record.url === "string") {
    const label = typeof record.type === "string" ? `${record.type}: ` : "";
    const followers =
      record.followerCount !== undefined && record.followerCount !== null && record.followerCount !== ""
        ? ` (${String(record.followerCount)} followers)`
        : "";
    return `${label}${record.url}${followers}`;
  }
  // Lookup-style items ({id, name}) read as their name.
  if (typeof record.name === "string" && Object.keys(record).every((k) => k === "name" || k === "id" || k === "code")) {
    return record.name;
  }
  return objectText(record);
}

function objectText(record: Record<string, unknown>): string {
  return Object.entries(record)
    .filter(([, v]) => v !== null && v !== undefined && v !== "")
    .map(([k, v]) => {
      const inner = typeof v === "object" ? (Array.isArray(v) ? `[${readableText(v)}]` : `{${readableText(v)}}`) : String(v);
      return `${k}: ${inner}`;
    })
    .join(", ");
}
