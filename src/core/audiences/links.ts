// The link between a sheet row and its audience row, kept in a column beside the table
// ("Audience row"): "<audience id>/<row id>" once the service has answered for the row, or
// "<audience id>/key:<key>" while it is not known whether a request that failed created it (the
// next send or bring-back finds the row by that key in the audience's key column). The audience
// id is part of the link, so a table sent to another audience is never mistaken for this one.

export type RowLink = { audienceId: string; rowId: string } | { audienceId: string; key: string };

const KEY_PREFIX = "key:";

export function formatLink(link: RowLink): string {
  return "rowId" in link ? `${link.audienceId}/${link.rowId}` : `${link.audienceId}/${KEY_PREFIX}${link.key}`;
}

export function parseLink(value: unknown): RowLink | undefined {
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  const slash = text.indexOf("/");
  if (slash <= 0 || slash === text.length - 1) return undefined;
  const audienceId = text.slice(0, slash);
  const rest = text.slice(slash + 1);
  if (rest.startsWith(KEY_PREFIX)) return rest.length > KEY_PREFIX.length ? { audienceId, key: rest.slice(KEY_PREFIX.length) } : undefined;
  return /\s|\//.test(rest) ? undefined : { audienceId, rowId: rest };
}

/** The link of a row for one audience (a link to another audience counts as none). */
export function linkFor(value: unknown, audienceId: string): RowLink | undefined {
  const link = parseLink(value);
  return link && link.audienceId === audienceId ? link : undefined;
}
