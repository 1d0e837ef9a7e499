// Naming a session by part of its id (SPEC §19), pure. Ids start with a timestamp (kernel/ir.ts
// newId), so one afternoon's sessions share their first 5–7 characters; their random end tells
// them apart. `--resume X` and `/resume X` take the id, or any start or end of it that names one
// session; listings show each id's shortest such form.

/** Short forms are at least this long: one or two characters would soon name several sessions. */
const MIN_SHORT = 4;

/** The ids `query` names: the id itself when there is one, else every id that starts or ends with it; sorted. */
export function matchIds(ids: readonly string[], query: string): string[] {
  if (ids.includes(query)) return [query];
  if (query === "") return [];
  return ids.filter((id) => id.startsWith(query) || id.endsWith(query)).sort();
}

/**
 * The shortest start or end of each id that names it alone among `ids` (matchIds), at least
 * MIN_SHORT characters (the whole id when shorter), the start on a tie. Never all digits: `/resume
 * 12` picks from the numbered list. An id no part of which is unique (another id ends with it
 * whole) maps to itself.
 */
export function shortIds(ids: readonly string[]): Map<string, string> {
  const prefixLen = uniqueLengths(ids, (s) => s);
  const suffixLen = uniqueLengths(ids, (s) => [...s].reverse().join(""));
  const out = new Map<string, string>();
  for (const id of ids) {
    const from = Math.min(id.length, MIN_SHORT);
    let short = id;
    for (let n = from; n < id.length && short === id; n++) {
      const candidates = [n >= prefixLen.get(id)! ? id.slice(0, n) : "", n >= suffixLen.get(id)! ? id.slice(-n) : ""];
      short = candidates.find((c) => c !== "" && !/^\d+$/.test(c) && matchIds(ids, c).length === 1) ?? id;
    }
    out.set(id, short);
  }
  return out;
}

/**
 * For each id, the shortest length at which its start (of `key(id)`) differs from every other
 * id's: one past the longest common start with its neighbours in sorted order.
 */
function uniqueLengths(ids: readonly string[], key: (id: string) => string): Map<string, number> {
  const keyed = ids.map((id) => ({ id, k: key(id) })).sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  const common = (a: string, b: string) => {
    let i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    return i;
  };
  const out = new Map<string, number>();
  keyed.forEach(({ id, k }, i) => {
    const before = i > 0 ? common(k, keyed[i - 1]!.k) : 0;
    const after = i + 1 < keyed.length ? common(k, keyed[i + 1]!.k) : 0;
    out.set(id, Math.max(before, after) + 1);
  });
  return out;
}

/** When an id of newId was made (ms since the epoch: its first 9 characters), or undefined for another kind of id. */
export function idTime(id: string): number | undefined {
  const t = /^[0-9a-z]{9}/.test(id) ? Number.parseInt(id.slice(0, 9), 36) : Number.NaN;
  return Number.isFinite(t) ? t : undefined;
}
