// Which entries below a search's start points a command can act on (r5 #2, #3): find's simple
// filters read as find reads them (`-name`, `-iname`, `-path`, `-ipath`, `-type`, `-maxdepth`,
// `-mindepth`, `-prune`, `!`, `-o`, parentheses), so `find . -name '*.orig' -delete` at a
// repository's root reaches the `.orig` files, not `.git/config`; and what `grep -rl`, `rg -l`
// and `git ls-files` print when piped into xargs, a subset of the files below their folders. A
// test hey does not read (`-newer`, `-size`, `-exec … \;`'s status) may be true or false: the
// answer is the union over both. Anything else hey cannot read: undefined, and every entry counts. Pure.
import { decided } from "./control-files.ts";
import { program } from "./match.ts";
import { globSource } from "./programs.ts";
import type { Word } from "./shell-model.ts";

/** One entry as the search sees it: its path as printed (`./src/a.ts`), its kind (`f`, `h`, `d`, `l`, `o`) and depth below its start point (0: the start point). */
export type Entry = { path: string; kind: string; depth: number };
/** Whether the command can act on `e`, and whether the search certainly does not go below it (`-prune`). */
export type Reach = (e: Entry) => { acts: boolean; prunes: boolean };

type Node =
  | { op: "or" | "and" | "comma"; a: Node; b: Node }
  | { op: "not"; a: Node }
  | { op: "test"; is: (e: Entry) => boolean }
  | { op: "unknown"; id: number }
  | { op: "act"; hit: boolean; id?: number }
  | { op: "prune" };

const NO_ARG = new Set(
  "-true,-false,-empty,-executable,-readable,-writable,-nouser,-nogroup,-ls,-quit,-depth,-d,-xdev,-mount,-noleaf,-ignore_readdir_race,-noignore_readdir_race,-daystart,-print,-print0,-delete,-prune".split(
    ",",
  ),
);
const ONE_ARG = new Set(
  "-name,-iname,-path,-ipath,-wholename,-iwholename,-type,-xtype,-maxdepth,-mindepth,-regex,-iregex,-regextype,-newer,-anewer,-cnewer,-size,-perm,-user,-group,-uid,-gid,-links,-inum,-samefile,-mtime,-atime,-ctime,-mmin,-amin,-cmin,-used,-lname,-ilname,-fstype,-printf,-fprint,-fprint0,-fls,-context".split(
    ",",
  ),
);
const ACTIONS = /^-(print0?|printf|fprint0?|fprintf|ls|fls|exec|execdir|ok|okdir|delete|quit)$/;
/** Options that set how the whole search goes, true wherever they stand. */
const GLOBAL = new Set([
  "-depth",
  "-d",
  "-xdev",
  "-mount",
  "-noleaf",
  "-ignore_readdir_race",
  "-noignore_readdir_race",
  "-daystart",
  "-maxdepth",
  "-mindepth",
  "-regextype",
]);

/**
 * A shell-style pattern (fnmatch without FNM_PATHNAME or FNM_PERIOD, as find's `-name` and `-path`
 * take it: `*` matches `/` and a leading dot) as a RegExp; undefined for a character class
 * (`[[:alpha:]]`), which hey does not read.
 */
export function patternRegExp(glob: string, fold: boolean): RegExp | undefined {
  if (glob.includes("[:") || glob.includes("[=") || glob.includes("[.")) return undefined;
  return new RegExp(`^${globSource(glob, true)}$`, fold ? "is" : "s");
}

const base = (path: string) => path.replace(/\/+$/, "").split("/").pop() || path;

/**
 * How find, whose words are `words` with its expression from `at` on, reaches entries for the
 * actions at the indexes `targets` (`print`: the printing ones, or the implicit `-print`).
 * Undefined when hey cannot read the expression: a word known only at run time, `-follow`, a
 * primary hey does not know, or more than 6 tests it cannot decide.
 */
export function findReach(words: Word[], at: number, targets: Set<number> | "print"): Reach | undefined {
  let pos = at;
  let unknowns = 0;
  let maxdepth = Number.POSITIVE_INFINITY;
  let mindepth = 0;
  let depthFirst = false;
  let hasAction = false;
  const hitAt = (i: number) => (targets === "print" ? /^-print0?$/.test(words[i]!.text) : targets.has(i));
  const text = (i: number) => (i < words.length && decided(words[i]!) ? words[i]!.text : undefined);
  const fail = () => {
    throw new Error("unread");
  };
  const primary = (): Node => {
    const t = text(pos) ?? fail()!;
    const i = pos++;
    if (t === "(") {
      const inner = comma();
      if (text(pos++) !== ")") fail();
      return inner;
    }
    if (t === "!" || t === "-not") return { op: "not", a: primary() };
    if (ACTIONS.test(t)) hasAction = true;
    if (/^-(exec|execdir|ok|okdir)$/.test(t)) {
      // to `;`, or `+` right after `{}`: `-exec … {} +` is always true, `\;` is the command's status
      for (; pos < words.length; pos++) {
        const w = words[pos]!;
        if (decided(w) && w.text === ";") break;
        if (decided(w) && w.text === "+" && words[pos - 1]?.text === "{}") break;
      }
      if (pos >= words.length) fail();
      const plus = words[pos++]!.text === "+";
      return plus && !t.startsWith("-ok") ? { op: "act", hit: hitAt(i) } : { op: "act", hit: hitAt(i), id: unknowns++ };
    }
    if (t === "-delete") depthFirst = true;
    if (t === "-depth" || t === "-d") depthFirst = true;
    if (t === "-prune") return { op: "prune" };
    if (/^-(print0?|delete|ls|quit)$/.test(t)) return { op: "act", hit: hitAt(i) };
    if (t === "-true" || GLOBAL.has(t) || t === "-false") {
      if (t === "-maxdepth" || t === "-mindepth" || t === "-regextype") {
        const n = text(pos++) ?? fail()!;
        if (t !== "-regextype" && !/^\d+$/.test(n)) fail();
        if (t === "-maxdepth") maxdepth = Math.min(maxdepth, Number(n));
        if (t === "-mindepth") mindepth = Math.max(mindepth, Number(n));
      }
      return { op: "test", is: () => t !== "-false" };
    }
    if (t === "-fprintf") {
      pos += 2;
      return { op: "act", hit: false };
    }
    if (NO_ARG.has(t)) return { op: "unknown", id: unknowns++ };
    if (!ONE_ARG.has(t)) fail();
    const arg = text(pos++) ?? fail()!;
    if (/^-(printf|fprint0?|fls)$/.test(t)) return { op: "act", hit: false };
    if (/^-i?(name|path|wholename)$/.test(t)) {
      const re = patternRegExp(arg, t.startsWith("-i")) ?? fail()!;
      return t.endsWith("name") ? { op: "test", is: (e) => re.test(base(e.path)) } : { op: "test", is: (e) => re.test(e.path) };
    }
    if (t === "-type" && /^[fdl](,[fdl])*$/.test(arg)) {
      const kinds = arg.split(",");
      return { op: "test", is: (e) => kinds.includes(e.kind === "h" ? "f" : e.kind) };
    }
    return { op: "unknown", id: unknowns++ };
  };
  const and = (): Node => {
    let a = primary();
    for (;;) {
      const t = text(pos);
      if (pos >= words.length || t === "-o" || t === "-or" || t === ")" || t === ",") return a;
      if (t === "-a" || t === "-and") pos++;
      a = { op: "and", a, b: primary() };
    }
  };
  const or = (): Node => {
    let a = and();
    while (text(pos) === "-o" || text(pos) === "-or") {
      pos++;
      a = { op: "or", a, b: and() };
    }
    return a;
  };
  const comma = (): Node => {
    let a = or();
    while (text(pos) === ",") {
      pos++;
      a = { op: "comma", a, b: or() };
    }
    return a;
  };
  let tree: Node;
  try {
    if (words.slice(1, at).some((w) => !decided(w) || /^-[HP]*L/.test(w.text))) return undefined;
    tree = pos < words.length ? comma() : { op: "test", is: () => true };
    if (pos < words.length || unknowns > 6 || words.some((w) => decided(w) && w.text === "-follow")) return undefined;
  } catch {
    return undefined;
  }
  if (!hasAction) tree = { op: "and", a: tree, b: { op: "act", hit: targets === "print" } };
  const root = tree;
  return (e) => {
    if (e.depth > maxdepth) return { acts: false, prunes: true };
    let acts = false;
    let prunes = !depthFirst && e.kind === "d";
    const below = e.depth >= maxdepth;
    if (e.depth < mindepth) return { acts: false, prunes: below };
    for (let bits = 0; bits < 1 << unknowns; bits++) {
      let hit = false;
      let pruned = false;
      const run = (n: Node): boolean => {
        switch (n.op) {
          case "or":
            return run(n.a) || run(n.b);
          case "and":
            return run(n.a) && run(n.b);
          case "comma":
            run(n.a);
            return run(n.b);
          case "not":
            return !run(n.a);
          case "test":
            return n.is(e);
          case "unknown":
            return (bits & (1 << n.id)) !== 0;
          case "prune":
            pruned = true;
            return true;
          case "act":
            hit ||= n.hit;
            return n.id === undefined || (bits & (1 << n.id)) !== 0;
        }
      };
      run(root);
      acts ||= hit;
      prunes &&= pruned;
    }
    return { acts, prunes: prunes || below };
  };
}

/** The index of the first word of find's expression: past its options (`-L`, `-D X`, `-O3`) and start points. */
export function expressionStart(words: Word[]): number {
  let k = 1;
  for (; k < words.length && decided(words[k]!) && /^-([HLP]+|D|O\d*)$/.test(words[k]!.text); k++) if (words[k]!.text === "-D") k++;
  for (; k < words.length && !(decided(words[k]!) && (/^-./.test(words[k]!.text) || ["(", "!", ")", ","].includes(words[k]!.text))); k++);
  return k;
}

/**
 * The indexes of the words find reads as a pattern, a number or a format, never as a file it writes
 * (`-name config.toml`, `-path ./.git`): what it acts on is judged by what it can reach (filled-words.ts);
 * `-fprint FILE` and the start points are still judged as named. None when a word is known only at run time.
 */
export function findPatterns(words: Word[]): Set<number> {
  const out = new Set<number>();
  if (!words.every(decided)) return out;
  for (let i = expressionStart(words); i < words.length - 1; i++)
    if (ONE_ARG.has(words[i]!.text) && !/^-(fprint0?|fls|samefile|newer|anewer|cnewer)$/.test(words[i]!.text)) out.add(++i);
  return out;
}

/** A printer of file names piped into xargs: the folders it searches, whether it ends names with NUL, and which entries it can print. */
export type Printer = { starts: Word[]; nul: boolean; reach: Reach };

const files: Reach = (e) => ({ acts: e.kind === "f" || e.kind === "h", prunes: false });

/**
 * What `grep -rl PATTERN DIRS` (`-r`, not `-R`: links below are skipped), `rg -l`/`rg --files`
 * (links not followed without `-L`; hidden and ignored files counted too) and `git ls-files
 * [PATHSPEC]` (never what is in `.git`) print: files below their folders; undefined for any
 * other command, or an option hey does not read.
 */
export function printer(words: Word[]): Printer | undefined {
  if (!words.every(decided) || words.length === 0) return undefined;
  const name = program(words[0]!.text);
  const t = words.map((w) => w.text);
  if (name === "grep" || name === "egrep" || name === "fgrep") {
    let rec = false;
    let list = false;
    let nul = false;
    let pattern = false;
    const starts: Word[] = [];
    for (let i = 1; i < t.length; i++) {
      const a = t[i]!;
      if (a === "--") {
        if (!pattern && i + 1 < t.length) i++;
        starts.push(...words.slice(i + 1));
        break;
      }
      if (/^-[A-Za-z]+$/.test(a)) {
        for (const c of a.slice(1)) {
          if (c === "r") rec = true;
          else if (c === "l") list = true;
          else if (c === "Z") nul = true;
          else if (c === "e" || c === "f") return undefined;
          else if (!"iwxFEGPnsqIHv".includes(c)) return undefined;
        }
      } else if (/^--(recursive|files-with-matches|null|ignore-case|word-regexp|fixed-strings|extended-regexp)$/.test(a)) {
        if (a === "--recursive") rec = true;
        if (a === "--files-with-matches") list = true;
        if (a === "--null") nul = true;
      } else if (a.startsWith("-")) return undefined;
      else if (!pattern) pattern = true;
      else starts.push(words[i]!);
    }
    if (!rec || !list || !pattern) return undefined;
    return { starts: starts.length ? starts : [{ text: ".", raw: ".", unknown: false, glob: false }], nul, reach: files };
  }
  if (name === "rg") {
    let list = false;
    let pattern = false;
    const starts: Word[] = [];
    for (let i = 1; i < t.length; i++) {
      const a = t[i]!;
      if (a === "-l" || a === "--files-with-matches" || a === "--files") {
        list = true;
        if (a === "--files") pattern = true;
      } else if (/^(-[iwFSs]+|--(ignore-case|smart-case|word-regexp|fixed-strings|hidden|no-ignore))$/.test(a)) continue;
      else if (a.startsWith("-")) return undefined;
      else if (!pattern) pattern = true;
      else starts.push(words[i]!);
    }
    if (!list || !pattern) return undefined;
    return { starts: starts.length ? starts : [{ text: ".", raw: ".", unknown: false, glob: false }], nul: false, reach: files };
  }
  if (name === "git" && t[1] === "ls-files") {
    const specs: RegExp[] = [];
    let nul = false;
    for (const a of t.slice(2)) {
      if (a === "-z") nul = true;
      else if (/^(-c|--cached|-m|--modified|-o|--others|--exclude-standard|--)$/.test(a)) continue;
      else if (a.startsWith("-") || a.startsWith(":")) return undefined;
      else specs.push(patternRegExp(a, false) ?? /[^]*/);
    }
    // a pathspec matches a path, or a folder above it (`git ls-files src`); tracked entries only: never inside `.git`
    const spec = (p: string) => !specs.length || specs.some((re) => p.split("/").some((_, k, parts) => re.test(parts.slice(0, k + 1).join("/"))));
    return {
      starts: [{ text: ".", raw: ".", unknown: false, glob: false }],
      nul,
      reach: (e) => {
        const rel = e.path.replace(/^\.\//, "");
        const inGit = rel.split("/").includes(".git");
        if (e.depth === 0) return { acts: false, prunes: false };
        // a folder is listed only as a submodule (`vendor/lib`): its `.git` stands for it
        const sub = rel.endsWith("/.git") ? rel.slice(0, -5) : undefined;
        return { acts: sub !== undefined ? spec(sub) : e.kind !== "d" && !inGit && spec(rel), prunes: rel === ".git" || sub !== undefined };
      },
    };
  }
  return undefined;
}
