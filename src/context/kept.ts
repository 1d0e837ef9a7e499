// What was worked out once of a message or a call, kept with the object for as long as the object
// still holds what it was worked out from. hey never edits a message once made, but an embedder
// holds the same objects (its `history`, the `message` events, `agent.messages`) and may edit one
// in place, to redact a leaked secret say: the next request must send the edit, as it did before
// anything was kept (x126 #2). Checking is a walk of the object's fields and of its arrays' items,
// comparing each by identity (a string's compare stops at its first difference), never parsing or
// weighing anything again. Pure.

/** A cache keyed by object whose entries hold only while the object's fields are the ones they were made from. */
export interface Kept<K extends object, V> {
  /** the value kept for `key`, unless `key` changed since (then undefined, as for a key never seen) */
  get(key: K): V | undefined;
  set(key: K, value: V): void;
}

export function kept<K extends object, V>(): Kept<K, V> {
  const entries = new WeakMap<K, { from: unknown[]; value: V }>();
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      const from = entry.from;
      let at = 0;
      return walk(key, (v) => from[at++] === v) && at === from.length ? entry.value : undefined;
    },
    set(key, value) {
      const from: unknown[] = [];
      walk(key, (v) => from.push(v) > 0);
      entries.set(key, { from, value });
    },
  };
}

/**
 * Visits the names and values of `o`'s fields, and of the objects in its arrays (a message's parts
 * and calls): all a message or a call is, down to each part's text and each call's arguments.
 * Deeper objects (a vendor's opaque data) count by identity. Stops at the first `visit` false.
 */
function walk(o: object, visit: (value: unknown) => boolean): boolean {
  const fields = o as Record<string, unknown>;
  for (const name in fields) {
    const value = fields[name];
    if (!visit(name) || !visit(value)) return false;
    if (!Array.isArray(value)) continue;
    if (!visit(value.length)) return false;
    for (const item of value) {
      if (!visit(item)) return false;
      if (item === null || typeof item !== "object") continue;
      const inner = item as Record<string, unknown>;
      for (const n in inner) if (!visit(n) || !visit(inner[n])) return false;
    }
  }
  return true;
}
