// A tiny builder for parameterised SQL: named parameters, so a condition can be repeated
// (person OR headquarters location) without juggling positional values.
export class SqlParams {
  readonly values: Record<string, unknown> = {};
  private n = 0;

  /** Adds a value and returns its placeholder. */
  add(value: unknown): string {
    const name = `p${this.n++}`;
    this.values[name] = value;
    return `@${name}`;
  }

  /** A placeholder usable as `x IN (SELECT value FROM json_each(@p))`. */
  list(values: readonly unknown[]): string {
    return `(SELECT value FROM json_each(${this.add(JSON.stringify(values))}))`;
  }

  /** A LIKE pattern matching `text` anywhere (wildcards in the text match literally). */
  contains(text: string): string {
    return this.add(`%${escapeLike(text)}%`);
  }

  startsWith(text: string): string {
    return this.add(`${escapeLike(text)}%`);
  }
}

export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/** Comma-separated text as trimmed, non-empty items. */
export function csv(text: string | undefined): string[] {
  if (text === undefined) return [];
  return text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

export function and(clauses: string[]): string {
  return clauses.length === 0 ? "1" : clauses.length === 1 ? clauses[0]! : clauses.map((c) => `(${c})`).join(" AND ");
}
