// A config table as the parsers hand it over: TOML's tables, JSON's objects. Pure.

export type Table = Record<string, unknown>;

/** A plain object: TOML tables, JSON objects. Dates and times (Date, Temporal objects) are not tables. */
export function isTable(v: unknown): v is Table {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
