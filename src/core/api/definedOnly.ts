// An object without its undefined values: the keys it sets are set (exactOptionalPropertyTypes
// keeps "absent" and "undefined" apart).
export type DefinedOnly<T> = { [K in keyof T]?: Exclude<T[K], undefined> };

export function definedOnly<T extends object>(value: T): DefinedOnly<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as DefinedOnly<T>;
}
