// What git runs for a subcommand it does not know when help.autocorrect lets it guess (git's
// help.c, 2.39): each known command and alias is scored by a weighted edit distance from the typed
// name (a swap free, a substitution 2, an added letter 1, a dropped one 3), a common command the
// name begins is a prefix match; git runs the best only when there is no prefix match, exactly one
// best, and it scores under 7 (`git psuh` runs `push`; `git pus` runs nothing: a prefix match,
// `pus` of `push`, makes git list suggestions instead). Pure: the checker judges the command as each one this names (git-aliases.ts).

/** The commands `git help` lists, whose prefixes git treats as near-certain matches. */
const COMMON = new Set("clone,init,add,mv,restore,rm,bisect,diff,grep,log,show,status,branch,commit,merge,rebase,reset,switch,tag,fetch,pull,push".split(","));
/** git's SIMILARITY_FLOOR: a candidate scoring this or more is not similar enough to run. */
const FLOOR = 7;

/** git's weighted Damerau-Levenshtein distance from `from` to `to` (levenshtein.c with swap 0, substitution 2, insertion 1, deletion 3). */
export function gitDistance(from: string, to: string): number {
  const [w, s, a, d] = [0, 2, 1, 3];
  let row0: number[] = [];
  let row1 = Array.from({ length: to.length + 1 }, (_, j) => j * a);
  for (let i = 0; i < from.length; i++) {
    const row2 = [(i + 1) * d];
    for (let j = 0; j < to.length; j++) {
      let cost = row1[j]! + s * (from[i] !== to[j] ? 1 : 0);
      if (i > 0 && j > 0 && from[i - 1] === to[j] && from[i] === to[j - 1]) cost = Math.min(cost, row0[j - 1]! + w);
      cost = Math.min(cost, row1[j + 1]! + d, row2[j]! + a);
      row2.push(cost);
    }
    row0 = row1;
    row1 = row2;
  }
  return row1[to.length]!;
}

/**
 * The names git may run for the unknown `typed`, a name among `commands` (git's, as hey lists them)
 * and `aliases` (the config's): none when git runs nothing. Several where git's choice depends on
 * which commands its version has — hey's list names some an older git lacks (`backfill`, `refs`),
 * and a git lacking the best one runs the next: every candidate similar enough is possible, up to the
 * score of one that is surely there (a common command, an alias), below which git finds its best.
 */
export function autocorrectTargets(typed: string, commands: Iterable<string>, aliases: Iterable<string>): string[] {
  const certain = new Set([...COMMON, ...aliases]);
  const scored = [...new Set([...commands, ...certain])].map((name) => ({
    name,
    score: COMMON.has(name) && name.startsWith(typed) ? 0 : gitDistance(typed, name) + 1,
  }));
  if (scored.some((c) => c.score === 0)) return []; // a prefix match: git lists suggestions and stops
  const bound = Math.min(FLOOR - 1, ...scored.filter((c) => certain.has(c.name)).map((c) => c.score));
  return scored
    .filter((c) => c.score <= bound)
    .sort((x, y) => x.score - y.score)
    .map((c) => c.name);
}
