// How the sandbox, like a data service, compares what a caller knows about a company or person
// with its records: websites by bare domain, company names without case, accents, punctuation
// and legal suffixes, email addresses exactly but without case. (The add-in has its own,
// stricter keys for de-duplication: a twin of the service must not share the client's code.)

/** A website in any usual spelling as its bare domain, or undefined when it is not one. */
export function domainOf(website: string): string | undefined {
  let text = website.trim().toLowerCase();
  text = text.replace(/^[a-z][a-z0-9+.-]*:\/\//, "");
  text = text.split(/[/?#\\]/, 1)[0] ?? "";
  text = text
    .replace(/^[^@]*@/, "")
    .replace(/:\d*$/, "")
    .replace(/\.+$/, "")
    .replace(/^www\d?\./, "");
  const labels = text.split(".");
  if (labels.length < 2 || !labels.every((label) => /^[a-z0-9-]+$/.test(label) && !label.startsWith("-"))) return undefined;
  return /^[a-z]{2,}$|^xn--/.test(labels[labels.length - 1] ?? "") ? text : undefined;
}

/**
 * A website as its domain without scheme, "www." or path, and without checking that it is one:
 * how the search filter and an enrich input's website are compared with the stored domain.
 */
export function plainDomain(website: string): string {
  return website
    .trim()
    .toLowerCase()
    .replace(/^[a-z]+:\/\//, "")
    .replace(/^www\./, "")
    .replace(/[/?#].*$/, "");
}

/** Legal forms left out of a company name when comparing, written without dots or case. */
const LEGAL_SUFFIXES = new Set([
  "inc",
  "incorporated",
  "llc",
  "llp",
  "lp",
  "ltd",
  "limited",
  "plc",
  "corp",
  "corporation",
  "co",
  "company",
  "gmbh",
  "ag",
  "kg",
  "sa",
  "sas",
  "sarl",
  "srl",
  "spa",
  "bv",
  "nv",
  "oy",
  "ab",
  "as",
  "aps",
  "kk",
  "pty",
  "pte",
  "sl",
  "se",
]);

function words(name: string): string[] {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/['’.]/g, "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * The part of a company name that identifies it: "Northwind Traders, Inc." and "NORTHWIND
 * TRADERS" are both "northwind traders". Suffixes are taken from the end only, and never the
 * only word left (a company named "Company" keeps its name).
 */
export function nameCore(name: string): string {
  const parts = words(name);
  for (;;) {
    const last = parts[parts.length - 1] as string;
    if (parts.length > 1 && LEGAL_SUFFIXES.has(last)) parts.pop();
    // "GmbH & Co KG": an "and" between two legal forms goes with them.
    else if (parts.length > 2 && last === "and" && LEGAL_SUFFIXES.has(parts[parts.length - 2] as string)) parts.pop();
    else break;
  }
  return parts.join(" ");
}

/** A person's name compared without case, accents and punctuation. */
export function personNameKey(name: string): string {
  return words(name).join(" ");
}

export function sameText(a: string | null | undefined, b: string): boolean {
  return a !== null && a !== undefined && a.trim().toLowerCase() === b.trim().toLowerCase();
}
