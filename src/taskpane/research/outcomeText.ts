// The sentence of a list's items that failed: grouped by reason, a few of each group's items
// named, so a rate-limit storm or an empty AI balance over 50 companies is one short sentence
// that fits the pane, not 50 of them.
import { errorText } from "../errorText.js";

/** Items named per reason; the others are counted. */
const NAMED = 5;

const count = (n: number) => n.toLocaleString("en-US");

/** A reason's key: its text without the service's reference and with its figures left out ("Try again in 3 seconds"). */
const reasonKey = (text: string) => text.replace(/ \(Reference: [^)]*\)$/, "").replace(/\d+/g, "#");

/** " Not fetched: 12, 13, 14, 15, 16 and 45 more: <reason>; 17: <reason>." — or "" when none failed. */
export function failuresText(lead: string, failures: readonly { item: string; error: unknown }[]): string {
  if (failures.length === 0) return "";
  const groups = new Map<string, { text: string; items: string[] }>();
  for (const { item, error } of failures) {
    const text = errorText(error);
    const group = groups.get(reasonKey(text)) ?? { text, items: [] };
    group.items.push(item);
    groups.set(reasonKey(text), group);
  }
  const parts = [...groups.values()].map(({ text, items }) => {
    const more = items.length > NAMED ? ` and ${count(items.length - NAMED)} more` : "";
    return `${items.slice(0, NAMED).join(", ")}${more}: ${text.replace(/\.$/, "")}`;
  });
  return ` ${lead}: ${parts.join("; ")}.`;
}
