// The option words of a deny pattern (SPEC §8): after the subcommand (`git push --force *`, or
// after the program when it names none: `rm -rf *`), each option the pattern names matches wherever
// the command gives it among its arguments (up to a `--`), spelled any way the program reads as
// the same option: short or long (`-f`, `--force`, from the program's own table where hey has one:
// git's commands, npm, rm), in a cluster (`-fu`, `-rf` is `-r` and `-f`), as a unique abbreviation
// of the long name (`--forc`, git's and getopt's), with its value after `=` or in the next word.
// Another option is another option: `--force-with-lease` is not `--force`. The words that are not
// options keep their order. Only deny patterns are read so; allow patterns match word by word.
//
// Under PowerShell an entry is also read as PowerShell binds a command's parameters (parameter
// words, below). Pure.
import { configForces } from "./git.ts";
import { globMatch } from "./match.ts";
import { pathForm, WINDOWS_FORM } from "./path-form.ts";
import { type Named, parameterNames } from "./powershell-parameters.ts";
import { GIT_OPTIONS, NPM_OPTIONS, RM_OPTIONS } from "./program-tables.ts";
import { known, type Word } from "./shell-model.ts";

/** What hey knows of a program's options (program-tables.ts): none, for most programs. */
export interface OptionTable {
  /** a short option (a letter; npm's also a word, `-ws`): the long name it is ("" when none), and whether it takes a value */
  short: Map<string, { long: string; value: boolean }>;
  /** long names that begin another's name (`force`, `force-with-lease`): never read as an abbreviation */
  exact: Set<string>;
  /** npm's reading (nopt): any number of dashes, a word after one dash may be a long name, `no-` pairs cancel */
  loose: boolean;
  /** the long option an argument beginning with `+` also gives (git push's `+main` forces main as `--force` does) */
  plus?: string;
  /**
   * long options that also give another (git push's `--mirror` force-updates the remote's refs, as
   * `--force` does), or do with a value (npm's `--location=global` is `--global`): `name` or `name=value`
   */
  implies?: Record<string, string>;
  /**
   * long options whose effect the words before the subcommand (the program first) can give as well,
   * and whether they do: git push's `--force` by `git -c remote.origin.push=+HEAD:main push`
   */
  before?: Record<string, (words: Word[]) => Hit>;
}

/** One option a pattern names, as one of these: its long name, a short letter without one, a word as written, or a glob. */
export interface Unit {
  long?: string;
  short?: string;
  literal?: string;
  glob?: string;
  /** a PowerShell parameter's name (or, from `-Rec*`, the start of it), lowercase: see parameterIn */
  parameter?: string;
  /** the names PowerShell binds to the same parameter, and the positions it takes a value at (powershell-parameters.ts) */
  named?: Named;
  /** the value the pattern gives it (`--tag beta`, `--tag=beta`) */
  value?: Word;
}

/** An option a pattern requires: any of the alternatives, each a set of units all required (`-rf`: `-r` and `-f`). */
export type Required = Unit[][];

/** Whether a command matches a deny pattern: yes, maybe (a word known only at run time could make it), or not. */
export type Hit = "yes" | "maybe" | undefined;

/** A reading of a deny pattern: its words with the option words taken out, and the options. */
export interface Reading {
  words: Word[];
  options: Required[];
  table?: OptionTable;
}

const literalWord = (text: string): Word => ({ text, raw: text, unknown: false, glob: false });
const isStar = (w: Word) => w.glob && w.raw === "*";
const optionWord = (w: Word) => !w.unknown && !isStar(w) && /^-./.test(w.text) && w.text !== "--";
const isSubcommand = (w: Word) => !w.unknown && !isStar(w) && !/^[-+]/.test(w.text);
const MAX_READINGS = 16; // 2^4 options of unknown arity; beyond that, each is read with its value

/** git's short options that are two long ones (git-branch(1): `-D` is `--delete --force`; `-M`, `-C` likewise), which `-h` does not say. */
const GIT_COMPOSITES: Record<string, string> = { branch: "D=delete+force M=move+force C=copy+force" };

const tables = new Map<string, OptionTable>();
function readTable(spec: string, loose: boolean): OptionTable {
  const cached = tables.get(spec);
  if (cached) return cached;
  const [pairs = "", exact = ""] = spec.split(" | ");
  const short = new Map<string, { long: string; value: boolean }>();
  for (const pair of pairs.split(" ").filter(Boolean)) {
    const m = /^(.+?)([=:])(.*)$/.exec(pair);
    if (m && !short.has(m[1]!)) short.set(m[1]!, { long: m[3]!, value: m[2] === ":" });
  }
  const table = { short, exact: new Set(exact.split(" ").filter(Boolean)), loose };
  tables.set(spec, table);
  return table;
}

/** The option table for `program`'s subcommand `path` (`git worktree remove`), or undefined: none known. */
export function optionTable(program: string, path: string[]): OptionTable | undefined {
  if (program === "git") {
    const key = GIT_OPTIONS[path.slice(0, 2).join(" ")] === undefined ? (path[0] ?? "") : path.slice(0, 2).join(" ");
    const spec = GIT_COMPOSITES[key] ? `${GIT_COMPOSITES[key]} ${GIT_OPTIONS[key]}` : GIT_OPTIONS[key];
    if (spec === undefined) return undefined;
    const table = readTable(spec, false);
    return path[0] === "push" ? { ...table, plus: "force", implies: { mirror: "force" }, before: { force: configForces } } : table;
  }
  if (program === "npm") return { ...readTable(NPM_OPTIONS, true), implies: { "location=global": "global" } };
  return program === "rm" ? readTable(RM_OPTIONS, false) : undefined;
}

/**
 * The readings of a deny pattern whose command is at `pc` and is `program`: the option words after
 * its subcommand words (after the program when none comes first; for git, only after a subcommand)
 * are taken out as options; an option followed by a word that is not one may take it as its value
 * or not (both readings, unless the program's table says). A pattern without such options has
 * one reading: itself. `powershell`: the option words are PowerShell's parameter words instead
 * (parameterWord, matched by parameterIn), whose arity no table gives.
 */
export function denyReadings(words: Word[], pc: number, program: string, powershell = false): Reading[] {
  let start = pc + 1;
  while (start < words.length && isSubcommand(words[start]!)) start++;
  const path = words.slice(pc + 1, start).map((w) => w.text);
  const isOption = powershell ? parameterWord : optionWord;
  if (pc < 0 || (program === "git" && !path.length && !powershell) || !words.slice(start).some(isOption)) return [{ words, options: [] }];
  const table = powershell ? undefined : optionTable(program, path);
  let readings: Reading[] = [{ words: words.slice(0, start), options: [], ...(table ? { table } : {}) }];
  for (let i = start; i < words.length; i++) {
    const w = words[i]!;
    if (w.text === "--" && !w.unknown) {
      // the words after it are operands; the `--` itself only ends the options, which are matched
      // wherever they stand before the command's own `--` (optionsIn): kept, it would have to meet
      // the command's `--` right after the subcommand, past options no longer in the pattern
      for (const r of readings) r.words.push(...words.slice(i + 1));
      break;
    }
    if (!isOption(w)) {
      for (const r of readings) r.words.push(w);
      continue;
    }
    const next = words[i + 1];
    // PowerShell: `-Name:` takes the next word, `-Name:value` holds it, `-Name` may or may not take one
    const arity = powershell ? (/^[^:]*:$/.test(w.text) ? true : undefined) : takesValue(w.text, table);
    const inline = powershell ? /:./.test(w.text) : w.text.includes("=");
    const canTake = !inline && next !== undefined && !next.unknown && !isStar(next) && !isOption(next) && arity !== false;
    const read = (value: Word | undefined) => (powershell ? parameterUnits(w, value, program) : units(w, value, table));
    if (!canTake) {
      for (const r of readings) r.options.push(read(undefined));
      continue;
    }
    i++;
    const withValue = readings.map((r) => ({ ...r, words: [...r.words], options: [...r.options, read(next)] }));
    const without = readings.map((r) => ({ ...r, words: [...r.words, next], options: [...r.options, read(undefined)] }));
    readings = arity || readings.length * 2 > MAX_READINGS ? withValue : [...withValue, ...without];
  }
  return readings;
}

/** Whether an option word of a pattern takes the next word as its value: true, false, or undefined (not known). */
function takesValue(text: string, table: OptionTable | undefined): boolean | undefined {
  if (!table || text.startsWith("--")) return undefined;
  const letters = text.slice(1);
  if (table.loose && table.short.has(letters)) return table.short.get(letters)!.value;
  const last = table.short.get(letters.slice(-1));
  return last ? last.value : undefined;
}

/** The units a pattern's option word names, `value` the word given as its value. */
function units(w: Word, value: Word | undefined, table: OptionTable | undefined): Required {
  const t = w.text;
  const v = value ? { value } : {};
  if (w.glob && t.includes("*")) return [[{ glob: t }]];
  const long = /^--?([^=]+)(?:=(.*))?$/.exec(t)!;
  const inline = long[2] === undefined ? v : { value: literalWord(long[2]) };
  if (t.startsWith("--")) return [[{ long: normal(long[1]!, table), ...inline }]];
  const body = t.slice(1);
  if (table?.loose) {
    const word = table.short.get(body.replace(/=.*$/, ""));
    if (word) return [[{ long: word.long, ...inline }]];
    if ([...body].some((c) => !table.short.has(c))) return [[{ long: normal(long[1]!, table), ...inline }]];
  }
  const letters: Unit[] = [];
  for (let j = 0; j < body.length; j++) {
    const entry = table?.short.get(body[j]!);
    const named: Unit[] = entry?.long ? entry.long.split("+").map((long) => ({ long })) : [{ short: body[j]! }];
    if (entry?.value && j + 1 < body.length) {
      letters.push({ ...named[0]!, value: literalWord(body.slice(j + 1)) });
      break;
    }
    letters.push(...(j === body.length - 1 ? named.map((u) => ({ ...u, ...v })) : named));
  }
  const alternatives: Required = /^[A-Za-z0-9?]+$/.test(body) ? [letters] : [];
  // a program hey has no table for may read `-auto-approve` or `-rf` as one word
  if (!table && body.length > 1) alternatives.push([{ literal: t, ...v }]);
  return alternatives;
}

/** A long name as npm reads it: `no-` pairs cancel. */
function normal(name: string, table: OptionTable | undefined): string {
  if (!table?.loose) return name;
  let negated = false;
  while (/^no-/i.test(name)) {
    name = name.slice(3);
    negated = !negated;
  }
  return negated ? `no-${name}` : name;
}

/** What a word of the command can be: an option (its long name or short letter, the value given with it) or itself. */
interface Meaning {
  long?: string;
  short?: string;
  /** the value given in the same word (`--tag=x`, `-ox`); otherwise the next word, if the option takes one */
  value?: string;
}

function meanings(t: string, table: OptionTable | undefined): Meaning[] {
  const out: Meaning[] = [];
  const eq = t.indexOf("=");
  const name = eq < 0 ? t : t.slice(0, eq);
  const inline = eq < 0 ? {} : { value: t.slice(eq + 1) };
  if (t.startsWith("--") || (table?.loose && t.length > 2)) out.push({ long: normal(name.replace(/^-+/, ""), table), ...inline });
  if (t.startsWith("--")) return out;
  const body = t.slice(1);
  const word = table?.loose ? table.short.get(name.slice(1)) : undefined;
  if (word) out.push({ long: word.long, ...inline });
  for (let j = 0; j < body.length; j++) {
    const entry = table?.short.get(body[j]!);
    const rest = j + 1 < body.length ? { value: body.slice(j + 1) } : {};
    const [long, ...more] = entry?.long ? entry.long.split("+") : [];
    out.push({ short: body[j]!, ...(long ? { long } : {}), ...rest }, ...more.map((m) => ({ long: m })));
    if (entry?.value) break;
  }
  return out;
}

/** Does the command's long option `name` (as written, maybe abbreviated) name the pattern's `long`? */
function sameLong(name: string, long: string, table: OptionTable | undefined): boolean {
  return name === long || (name.length > 0 && long.startsWith(name) && !table?.exact.has(name));
}

/**
 * Does the command's long option `m` (maybe abbreviated; its value in the word or in `next`) give the
 * pattern's `long` as well as its own (OptionTable.implies)?
 */
function implied(m: Meaning, next: Word | undefined, long: string, table: OptionTable | undefined): boolean {
  return Object.entries(table?.implies ?? {}).some(([option, gives]) => {
    if (gives !== long) return false;
    const [name = "", value] = option.split("=");
    if (!sameLong(m.long!, name, table)) return false;
    return value === undefined || (m.value ?? (known(next) ? next.text : undefined)) === value;
  });
}

export const both = (x: Hit, y: Hit): Hit => (!x || !y ? undefined : x === "yes" && y === "yes" ? "yes" : "maybe");
export const either = (x: Hit, y: Hit): Hit => (x === "yes" || y === "yes" ? "yes" : (x ?? y));

/** A word known only at run time that could be an option: an expansion, input, or a glob that could begin with `-`. */
const couldBeOption = (w: Word) => w.unknown || !!w.anyValue || (w.glob && /^[-*?[{]/.test(w.text));

/**
 * Do `words` (a segment's, the program first) give every option a reading requires, among the
 * words from `from` on and before a `--`? "maybe" when one is missing but a word known only at run
 * time could be it, or its value is known only then.
 */
export function optionsIn(words: Word[], from: number, reading: Reading): Hit {
  let hit: Hit = "yes";
  for (const required of reading.options) {
    let any: Hit;
    for (const all of required) any = either(any, all.map((u) => unitIn(words, from, u, reading.table)).reduce(both, "yes"));
    hit = both(hit, any);
    if (!hit) return undefined;
  }
  return hit;
}

function unitIn(words: Word[], from: number, unit: Unit, table: OptionTable | undefined): Hit {
  if (unit.parameter !== undefined) return parameterIn(words, from, unit);
  let hit: Hit = unit.long && !unit.value && Object.hasOwn(table?.before ?? {}, unit.long) ? table!.before![unit.long]!(words.slice(0, from - 1)) : undefined;
  if (hit === "yes") return hit;
  let end = words.length;
  for (let i = from; i < words.length; i++) if (known(words[i]) && (table?.loose ? /^-{2,}$/ : /^--$/).test(words[i]!.text)) end = Math.min(end, i);
  for (let i = from; i < end && hit !== "yes"; i++) {
    const w = words[i]!;
    // a glob beginning with `+` (`+refs/heads/*:refs/heads/*`) is a `+` word, expanded or not
    if (table?.plus && unit.long === table.plus && !unit.value && !w.unknown && !w.anyValue && /^\+./.test(w.text)) return "yes";
    if (!known(w)) {
      if (couldBeOption(w)) hit = either(hit, "maybe");
      continue;
    }
    const t = w.text;
    if (table?.plus && unit.long === table.plus && !unit.value && /^\+./.test(t)) return "yes";
    const named = (m: Meaning) =>
      unit.glob
        ? globMatch(unit.glob, t) || (!!m.long && globMatch(unit.glob, `--${m.long}`)) || (!!m.short && globMatch(unit.glob, `-${m.short}`))
        : unit.literal
          ? t === unit.literal
          : unit.long
            ? !!m.long && (sameLong(m.long, unit.long, table) || implied(m, words[i + 1], unit.long, table))
            : m.short === unit.short;
    const read: Meaning[] = /^-./.test(t) ? meanings(t, table) : [];
    // npm (nopt): a negated flag given `false`, in the word or the next, is the flag (`--no-global=false` is `--global`)
    if (table?.loose)
      for (const m of [...read])
        if (m.long?.startsWith("no-") && (m.value ?? (known(words[i + 1]) ? words[i + 1]!.text : ""))?.toLowerCase() === "false")
          read.push({ long: m.long.slice(3) });
    if (unit.literal || unit.glob) read.push({});
    for (const m of read) {
      if (!named(m)) continue;
      if (!unit.value) return "yes";
      const value = m.value !== undefined ? literalWord(m.value) : words[i + 1];
      if (!value) continue;
      if (!known(value)) hit = either(hit, "maybe");
      else if (unit.value.glob && unit.value.text.includes("*") ? globMatch(unit.value.text, value.text) : unit.value.text === value.text) return "yes";
    }
  }
  return hit;
}

/**
 * A pattern word PowerShell reads as a parameter: a dash, then a letter, `_` or `?` (its tokenizer's
 * rule; `--x` and `-1` are plain words). `-Rec*` names every parameter whose name begins `Rec`.
 */
const parameterWord = (w: Word) => !w.unknown && !isStar(w) && /^-[A-Za-z_?]/.test(w.text);

/** The unit a pattern's parameter word names (`-Recurse`, `-Path:x`, `-Rec*`), `value` the word given as its value. */
function parameterUnits(w: Word, value: Word | undefined, command: string): Required {
  const colon = w.text.indexOf(":");
  const name = w.text.slice(1, colon < 0 ? undefined : colon).toLowerCase();
  const inline = colon >= 0 && colon < w.text.length - 1 ? w.text.slice(colon + 1) : undefined;
  const given = inline !== undefined ? { value: { ...literalWord(inline), glob: inline.includes("*") } } : value ? { value } : {};
  const parameter = name.split("*")[0]!;
  return [[{ parameter, named: parameterNames(command, parameter), ...given }]];
}

/**
 * Does a PowerShell command give the parameter `unit` names? Its `words` are cut as PowerShell's
 * tokenizer cuts them (powershell.ts powerShellTokens: `-Path:x` is `-Path:` and `x`). PowerShell
 * binds a parameter word by name wherever it stands, case-insensitively, spelled out or as any
 * prefix of the name or of one of its aliases (MergedCommandParameterMetadata.GetMatchingParameter),
 * its value after a `:` (`-Path:x`, `-Path: x`) or in the next word. A word counts as the
 * pattern's `-Name` when one of the two begins the other, or X begins one of the parameter's
 * aliases (powershell-parameters.ts: `-PSPath`, `-LP` are `-LiteralPath`, `-ea` is `-ErrorAction`):
 * - `-X` where Name begins with X: `-r`, `-Rec`, `-RECURSE`, `-Recurse:0` are `-Recurse`. That X
 *   may abbreviate another parameter of the cmdlet too (`-f` is `-Filter` or `-Force` to
 *   Remove-Item, and PowerShell refuses the command as ambiguous) does not matter: refusing a
 *   command that PowerShell would not run either, or that means another parameter, is the safe
 *   side of a deny list;
 * - `-X` where X begins with Name: the entry may be the one abbreviating (`bash: rm -r *` names
 *   `-Recurse` too).
 * A switch given a value counts whatever the value: `-Recurse:0` (like `-Recurse:$false`, which
 * the reader refuses anyway for its `$`) does not recurse, and is refused all the same. Words after
 * a `--` count too, though PowerShell 7 reads them as plain words (over-refusing a file named like
 * a parameter); so do quoted ones (`'-r'`, a plain word to PowerShell). A parameter the table
 * gives a position takes as its value any word no parameter names at or after that position
 * (`Remove-Item x` gives `-Path x`; so may `Remove-Item -Force x`).
 */
function parameterIn(words: Word[], from: number, unit: Unit): Hit {
  const want = unit.parameter!;
  const names = unit.named?.names ?? [want];
  let hit: Hit;
  // values compared as paths, case-insensitively, as PowerShell compares enum values and Windows paths
  const same = (value: Word) => {
    if (value.unknown || value.anyValue || /[*?]/.test(value.text)) return "maybe"; // a wildcard, quoted or not, that the cmdlet may expand to the value
    const [a, b] = [pathForm(unit.value!.text, WINDOWS_FORM), pathForm(value.text, WINDOWS_FORM)];
    return (unit.value!.glob && a.includes("*") ? globMatch(a, b) : a === b) ? "yes" : undefined;
  };
  let bare = 0;
  for (let i = from; i < words.length; i++) {
    const w = words[i]!;
    if (w.unknown || w.anyValue) {
      hit = either(hit, "maybe"); // PowerShell's reader refuses every run-time value (`$x`, `@args`) before this
      continue;
    }
    const m = /^-([A-Za-z_?][^:.]*):?$/.exec(w.text);
    if (!m) {
      // a word no parameter takes by name may be the value of one taken by position: the `bare`th
      // such word is at a position from 0 to `bare` (the parameter words before it may have taken
      // some as their values)
      if (unit.value && unit.named?.positions.some((p) => p <= bare)) hit = either(hit, same(w));
      if (hit === "yes") return hit;
      bare++;
      continue;
    }
    const name = m[1]!.toLowerCase();
    if (!names.some((n) => n.startsWith(name)) && !name.startsWith(want)) continue;
    if (!unit.value) return "yes";
    const value = words[i + 1];
    if (!value) continue;
    hit = either(hit, same(value));
    if (hit === "yes") return hit;
  }
  return hit;
}
