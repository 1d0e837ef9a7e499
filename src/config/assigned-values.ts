// The value written after an assignment's sign (`= "…"`, `: '…'`, `=abc123`), as the secret
// redaction (secret-shapes.ts) reads it, with its characters counted by kind: what judging a value
// needs of all of it. A value without quotes runs to the next blank or sign that ends a value in
// code, so a name inside a value judged not secret (`aToken=ab=aToken=ab=…:`, `token=~token=~…`) has
// the rest of the same run as its value. The run's end and counts are carried from one such value to
// the next rather than read again for each: the time stays linear in the run (reading each value
// whole made 500 KB of `token=~` take minutes). Pure.

/** A value as written after its name: quoted, or a run up to a blank or a sign that ends a value in code, a URL's query, a list. */
const VALUE = /\\?"([^"\\\n]*)\\?"|'([^'\n]*)'|([^\s"'`,;&|<>(){}[\]]+)/y;

/** How many characters of each kind a value holds. */
export interface Kinds {
  lower: number;
  upper: number;
  digits: number;
  /** neither a letter nor a digit */
  others: number;
  dots: number;
  /** `:` and `|`, a validation rule's (`required|min:8`) */
  ruleSigns: number;
  /** what `\s` matches */
  blanks: number;
  /** anything outside `!` to `~` (a blank, a letter not in ASCII) */
  unprintable: number;
}

/** A value read at a place: its text, where it starts and where what was read ends (past a closing quote), and its kinds (counted when asked for, at any time). */
export interface ReadValue {
  value: string;
  quoted: boolean;
  start: number;
  after: number;
  kinds(): Kinds;
}

const none = (): Kinds => ({ lower: 0, upper: 0, digits: 0, others: 0, dots: 0, ruleSigns: 0, blanks: 0, unprintable: 0 });

/** Adds (`by` 1) or takes away (`by` −1) the characters of `text` from `from` to `to` to `kinds`. */
function tally(kinds: Kinds, text: string, from: number, to: number, by: 1 | -1): void {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c >= 97 && c <= 122) kinds.lower += by;
    else if (c >= 65 && c <= 90) kinds.upper += by;
    else if (c >= 48 && c <= 57) kinds.digits += by;
    else {
      kinds.others += by;
      if (c === 46) kinds.dots += by;
      else if (c === 58 || c === 124) kinds.ruleSigns += by;
      if (c < 0x21 || c > 0x7e) {
        kinds.unprintable += by;
        if ((c >= 9 && c <= 13) || c === 32 || (c > 0x7e && /\s/.test(text[i]!))) kinds.blanks += by;
      }
    }
  }
}

/** The kinds of characters of `value`. */
export function kindsOf(value: string): Kinds {
  const kinds = none();
  tally(kinds, value, 0, value.length, 1);
  return kinds;
}

/** How many of the four kinds, lower case, upper case, digits and others, `k` has. */
export const kindCount = (k: Kinds) => (k.lower > 0 ? 1 : 0) + (k.upper > 0 ? 1 : 0) + (k.digits > 0 ? 1 : 0) + (k.others > 0 ? 1 : 0);

/** What reads the values of one text: the value that starts at `at`, or undefined when none does. */
export type ValueReader = (at: number) => ReadValue | undefined;

/** A ValueReader of `text`; its places are best read in order (a place before the last value's run reads it again). */
export function valueReader(text: string): ValueReader {
  // the last value read without quotes, `from` to `to`; and when its kinds were asked for, those of `counted.from` to `to`
  let run = { from: -1, to: -1 };
  let counted: { from: number; kinds: Kinds } | undefined;
  // most values are judged by their first characters (a reference, a path, a call): their kinds are counted only when asked for
  // a value of an earlier run, asked for after a later run was read, is counted alone: the counts carried are the later run's
  const runKinds = (at: number, to: number) => {
    const mine = run;
    return () => (run === mine ? carried(at, to) : kindsOf(text.slice(at, to)));
  };
  const carried = (at: number, to: number) => {
    if (!counted || counted.from > at) {
      counted = { from: at, kinds: none() };
      tally(counted.kinds, text, at, to, 1);
    } else {
      tally(counted.kinds, text, counted.from, at, -1);
      counted.from = at;
    }
    return { ...counted.kinds };
  };
  return (at) => {
    // inside the last run (a `\` may start a quoted value): the rest of it
    if (at >= run.from && at < run.to && text[at] !== "\\") {
      return { value: text.slice(at, run.to), quoted: false, start: at, after: run.to, kinds: runKinds(at, run.to) };
    }
    VALUE.lastIndex = at;
    const m = VALUE.exec(text);
    if (!m) return undefined;
    const quoted = m[3] === undefined;
    const value = m[1] ?? m[2] ?? m[3]!;
    const start = at + (m[0].startsWith("\\") ? 2 : quoted ? 1 : 0); // after `"` or `\"`
    if (quoted) return { value, quoted, start, after: at + m[0].length, kinds: () => kindsOf(value) };
    [run, counted] = [{ from: at, to: at + value.length }, undefined];
    return { value, quoted, start, after: run.to, kinds: runKinds(at, run.to) };
  };
}
