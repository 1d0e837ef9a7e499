// Loop variables that never hold an option (SPEC §8): `for f in test/*.js; do npm test "$f"; done`
// gives npm only names that begin `test/`, so `"$f"` is no `--script-shell=…` however the files are
// named. Judged on the whole script's text, as variables.ts numericVariables is. Pure.
import { couldBegin } from "./programs.ts";
import type { Segment, Word } from "./shell-model.ts";

/** A `for NAME in WORDS` loop: where NAME stands, how deep among the open constructs, and where its `done` ends it. */
export interface Loop {
  name: string;
  at: number;
  depth: number;
  /** every word of its list is one that cannot begin with `-`, expanded or not (`test/*.js`, `a b`, `[a-z]*`) */
  dashless: boolean;
  /** the words of its list (none: `for f; do`, the arguments) */
  list: Word[];
  end?: number;
}

/** Whether the words of a `for` list give the loop variable only values that cannot begin with `-` (none: `for f; do`, the arguments). */
export const dashlessList = (words: Word[]): boolean => words.length > 0 && words.every((w) => !w.unknown && !w.anyValue && !couldBegin(w, ["-"]));

/**
 * The variables of `text` that hold, wherever they are read, only values that cannot begin with
 * `-`: every mention of the name is the NAME of such a loop, or a read (`$NAME`, `${NAME}`) inside
 * such a loop's body. Any other mention (`NAME=x`, `read NAME`, a read before or after the loop,
 * where it holds what the environment gave) leaves it out, as do uppercase names, which bash may
 * set itself.
 */
export function dashlessVariables(text: string, loops: Loop[]): Set<string> {
  return new Set([...loopOnly(text, loops)].filter(([, own]) => own.every((l) => l.dashless)).map(([name]) => name));
}

/** The lowercase loop variables of `text` set by their loops alone and read only inside them (as above), with their loops. */
function loopOnly(text: string, loops: Loop[]): Map<string, Loop[]> {
  const out = new Map<string, Loop[]>();
  for (const name of new Set(loops.map((l) => l.name))) {
    const own = loops.filter((l) => l.name === name);
    if (/^[A-Z0-9_]+$/.test(name) || own.some((l) => !l.list.length || l.end === undefined)) continue;
    const mentions = [...text.matchAll(new RegExp(`(?<![A-Za-z0-9_])${name}(?![A-Za-z0-9_])`, "g"))].map((m) => m.index);
    const ok = mentions.every((p) => {
      if (own.some((l) => l.at === p)) return true;
      const read = (text[p - 1] === "$" && text[p - 2] !== "\\") || (text.slice(p - 2, p) === "${" && text[p + name.length] === "}");
      return read && own.some((l) => p > l.at && p < l.end!);
    });
    if (ok) out.set(name, own);
  }
  return out;
}

/**
 * Marks the words of `segments` that are only a double-quoted loop variable (`"$d"`, `"${d}"`) of
 * loopOnly with the words of its lists (`loopValues`): `for d in ~/.local/state; do cd "$d"` leads
 * where each of them does (control-cwd.ts), not anywhere. Unquoted, bash splits the value and globs
 * it again (`for d in '.h?y'; do cd $d` enters `.hey`, x151 #3): only the run knows it.
 */
export function markLoopValues(text: string, loops: Loop[], segments: Segment[]): void {
  if (!loops.length) return;
  const lists = loopOnly(text, loops);
  for (const seg of segments)
    for (const w of seg.words) {
      const name = /^"\$(?:([A-Za-z_]\w*)|\{([A-Za-z_]\w*)\})"$/.exec(w.raw);
      const own = name && lists.get(name[1] ?? name[2]!);
      if (own) w.loopValues = own.flatMap((l) => l.list);
    }
}

/** Marks the words of `segments` that are exactly `"$NAME"` or `"${NAME}"` of a dashlessVariables name (quoted: not split into words). */
export function markDashless(text: string, loops: Loop[], segments: Segment[]): void {
  if (!loops.length) return;
  const names = dashlessVariables(text, loops);
  for (const seg of segments)
    for (const w of seg.words) {
      const name = /^"\$(?:([A-Za-z_]\w*)|\{([A-Za-z_]\w*)\})"$/.exec(w.raw);
      if (name && names.has(name[1] ?? name[2]!)) w.dashless = true;
    }
}
