// How far one spelling is from another, for "did you mean …?" wherever a name is not known: a
// config key, a provider, a command, a tool in a permission list. Pure.

/**
 * Edit distance between `a` and `b`, ignoring case: insertions, deletions and substitutions, and
 * with `swaps` a swap of two neighbouring letters as one edit (`upgrdae` is one from `upgrade`).
 */
export function editDistance(a: string, b: string, swaps = false): number {
  [a, b] = [a.toLowerCase(), b.toLowerCase()];
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (swaps && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}
