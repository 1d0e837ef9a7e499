// Shell builtins (SPEC §8): which run no program, and which run code no rule can see. bash
// evaluates an array subscript (`a[$(cmd)]`) wherever a builtin takes a variable name, and a
// variable's value wherever it does arithmetic, so `printf -v`, `read`, `declare`, `test -v`… run
// code hidden in a quoted word or in a value read at run time. Every way of assigning a variable
// counts like `NAME=value` (variables.ts): a name that decides what later commands run makes them
// unknown. `.`/`source`, `alias` and `hash -p` change or hide what runs in both dialects. Each is
// judged on its known words; a name that is not a plain literal could be anything. Pure.
import { readOptions, type Options } from "./options.ts";
import { fixed, known, ASSIGN, NAME, type Dialect, type Segment, type Word } from "./shell-model.ts";
import { arithmeticReads, arithmeticRisk, assignRisk, integerRisk, numeric, prefixRisk } from "./variables.ts";

const SUBSCRIPT = "bash evaluates a subscript in a variable name as code";
const INTEGER_DECLARED = "bash evaluates every value later assigned to a variable declared `-i` as code";
const DECLARES = new Set(["declare", "typeset", "local"]);
const NAMED_LATER = "a variable named only at run time";
const ARITHMETIC = "bash evaluates a variable in arithmetic as code";

/**
 * Builtins that run no program and change nothing the checker relies on, per dialect: under an
 * allow list they need no entry (their file redirections still do). Their risks, where they have
 * any, are judged below. Not here: `kill` (it ends processes); the builtins that run a command or a
 * script — `eval`, `trap`, `exec`, `command`, `builtin`, `time` — whose commands are checked and
 * which need an entry of their own; `.`/`source`, `fc`, `history` (it writes files), `bind`,
 * `compgen` with `-C`, `-F` or a `-W` word list to expand (judged below).
 */
const COMMON =
  ":,[,alias,bg,break,cd,continue,echo,exit,export,false,fg,getopts,hash,jobs,local,printf,pwd,read,readonly,return,set,shift,test,times,true,type,ulimit,umask,unalias,unset,wait";
const INERT: Record<Dialect, Set<string>> = {
  dash: new Set(COMMON.split(",")),
  // `complete` only registers what an interactive shell's completion would run; `bash -c` never completes
  bash: new Set([
    ...COMMON.split(","),
    ..."caller,compgen,complete,declare,dirs,disown,enable,help,let,logout,mapfile,popd,pushd,readarray,shopt,suspend,typeset".split(","),
  ]),
};
/** POSIX special builtins: an assignment before one stays in the shell after it (dash; bash in POSIX mode). */
const SPECIAL = new Set([":", ".", "break", "continue", "eval", "exec", "exit", "export", "readonly", "return", "set", "shift", "times", "trap", "unset"]);

/** `value`: what the builtin assigns to the names it is given (undefined: known only at run time; null: nothing, as `unset`). */
type Check = (args: Word[], dialect: Dialect, value?: string | null) => string | undefined;

/**
 * Why assigning to the variable `w` names could run code or change what runs, or undefined: an
 * ordinary name, or a word that is no name at all (the builtin stops with an error, assigning
 * nothing), except bash's `NAME[SUBSCRIPT]`, whose subscript it evaluates (a number is safe).
 * `value`: what is assigned (undefined: known only at run time; null: nothing), which bash
 * evaluates for its integer variables.
 */
function nameRisk(w: Word | null | undefined, dialect: Dialect, value?: string | null): string | undefined {
  if (!w) return undefined;
  if (!known(w)) return dialect === "bash" ? SUBSCRIPT : NAMED_LATER;
  const risk = (name: string) => assignRisk(name) ?? (dialect === "bash" && value !== null ? integerRisk(name, value) : undefined);
  if (NAME.test(w.text)) return risk(w.text);
  const sub = /^([A-Za-z_][A-Za-z0-9_]*)\[([^]*)\]$/.exec(w.text);
  if (dialect === "bash" && sub) return /^\s*([0-9]+|[@*])\s*$/.test(sub[2]!) ? risk(sub[1]!) : SUBSCRIPT;
  return undefined;
}

/**
 * Options per `spec`: the values of `nameOptions` are variable names, and so are the operands when
 * `operands`. An option the builtin does not know stops it with an error before it assigns anything.
 */
function names(spec: Options, nameOptions: string[], operands: boolean): Check {
  return (args, dialect, value) => {
    // a number is no option and no name (`wait $!`, `wait $pid` of a variable only ever set to numbers)
    const operand = args.findIndex((w) => (known(w) && !w.text.startsWith("-")) || numeric(w));
    const unsure = args.slice(0, operand < 0 ? undefined : operand).find((w) => !known(w)); // might be `-v`, might be a name
    if (unsure) return nameRisk(unsure, dialect, value);
    const words = [{ text: "", raw: "", unknown: false, glob: false }, ...args];
    const parsed = readOptions(words, spec, 1, false);
    if (!parsed) return undefined;
    const named = nameOptions.filter((key) => parsed.seen.has(key)).map((key) => parsed.seen.get(key));
    return [...named, ...(operands ? words.slice(parsed.k) : [])].map((w) => nameRisk(w, dialect, value)).find(Boolean);
  };
}

/** declare, typeset, local, export, readonly: `NAME`, `NAME=value`, `NAME=(…)`, options `-aAfFgiIlnprtux` (and `+…`). */
function declaration(evaluates: string): Check {
  return (args, dialect) => {
    let options = "";
    let evaluated = false; // a value bash would evaluate under -i/-I (arithmetic), or a nameref
    for (const w of args) {
      if (!fixed(w) && !ASSIGN.test(w.raw)) return dialect === "bash" ? SUBSCRIPT : NAMED_LATER; // `n=$x`: a literal name, a value known later
      if (w.text === "--") continue;
      if (/^[-+][A-Za-z]+$/.test(w.text)) {
        options += w.text.slice(1);
        continue;
      }
      const eq = w.text.search(/\+?=/);
      const assigned = eq < 0 || !known(w) ? undefined : w.text.slice(w.text.indexOf("=") + 1);
      const risk = nameRisk({ text: eq < 0 ? w.text : w.text.slice(0, eq), raw: w.raw, unknown: false, glob: false }, dialect, eq < 0 ? null : assigned);
      if (risk) return risk;
      // a quoted `'(…)'` value is evaluated as an array; an unquoted `(…)` was read, subscripts and all, as the syntax
      const compound = /^[A-Za-z_][A-Za-z0-9_]*\+?=\(/.test(w.raw);
      if (eq >= 0 && /[aA]/.test(options) && !compound && dialect === "bash")
        return "bash evaluates a quoted array value as an assignment, subscripts included";
      const value = eq < 0 ? undefined : w.text.slice(w.text.indexOf("=") + 1);
      // a number is its own value under -i; a nameref (-n) stays a risk whatever it names (`for r in 'a[$(x)]'` retargets it)
      if (value !== undefined && !(known(w) && /^-?[0-9]+$/.test(value))) evaluated = true;
      if (/n/.test(options)) evaluated = true;
    }
    const flag = dialect === "bash" && evaluated ? [...evaluates].find((f) => options.includes(f)) : undefined;
    return flag ? `bash evaluates values assigned with \`-${flag}\` as code` : undefined;
  };
}

/** `test`/`[`: a `-v` or `-R` operand (a literal one, or an expansion that could be one) followed by anything but a plain word. */
const testCheck: Check = (args, dialect) => {
  if (dialect !== "bash") return undefined;
  for (let k = 0; k + 1 < args.length; k++) {
    const op = args[k]!;
    const next = args[k + 1]!;
    if ((!known(op) || op.text === "-v" || op.text === "-R") && (!known(next) || /\[/.test(next.text))) return SUBSCRIPT;
  }
  return undefined;
};

/** `let EXPR…`: each argument is arithmetic (bash), which may assign; only `NAME=NUMBER` reads no variable. */
const letCheck: Check = (args) => {
  const risk = args.map((w) => (known(w) ? arithmeticRisk(w.text) : ARITHMETIC)).find(Boolean);
  return risk ?? (args.some((w) => arithmeticReads(w.text)?.length !== 0) ? ARITHMETIC : undefined);
};

/** `set`: `-k` (`-o keyword`) makes later NAME=value arguments assignments; options end at `--`, `-` or the first other word (the positional parameters). */
const setCheck: Check = (args) => {
  for (let k = 0; k < args.length; k++) {
    const w = args[k]!;
    if (
      !known(w) ||
      /^[-+][a-zA-Z]*k/.test(w.text) ||
      (/^[-+][a-zA-Z]*o$/.test(w.text) && args[k + 1] && (!known(args[k + 1]!) || args[k + 1]!.text === "keyword"))
    )
      return "`set -k` makes later NAME=value arguments assignments";
    if (w.text === "--" || w.text === "-" || !/^[-+]./.test(w.text)) return undefined;
    if (/^[-+][a-zA-Z]*o$/.test(w.text)) k++; // `-o NAME`: the name, read above
  }
  return undefined;
};

/**
 * `compgen`: `-C CMD` and `-F FUNC` run code at once, and the `-W` word list is expanded as the
 * shell expands a word (`$(…)` in it runs); bash 5.3's `-V NAME` assigns an array by name. Options
 * taking a value: -o -A -G -W -F -C -X -P -S -V.
 */
const compgenCheck: Check = (args) => {
  const why = "`compgen` runs a command, a function or a word list's expansions";
  for (let k = 0; k < args.length; k++) {
    const w = args[k]!;
    if (!known(w)) return why;
    if (w.text === "--" || !/^-./.test(w.text)) return undefined;
    for (let j = 1; j < w.text.length; j++) {
      const c = w.text[j]!;
      if ("FCV".includes(c)) return why;
      if (!"oAGWXPS".includes(c)) continue;
      const value = j + 1 < w.text.length ? w.text.slice(j + 1) : args[++k];
      if (value === undefined || (typeof value !== "string" && !known(value))) return why;
      if (c === "W" && /[$`]/.test(typeof value === "string" ? value : value.text)) return why;
      break;
    }
  }
  return undefined;
};

const always =
  (why: string): Check =>
  () =>
    why;

/** Builtins whose arguments assign, evaluate or run code, by command word (not path: `/bin/read` is no builtin). */
const CHECKS: Record<Dialect, Record<string, Check>> = {
  bash: {
    printf: names({ flags: "", withArg: "v" }, ["v"], false),
    read: names({ flags: "ers", withArg: "adinNptu" }, ["a"], true),
    mapfile: (args, dialect) =>
      args.some((w) => !known(w) || /^-[a-zA-Z]*C/.test(w.text))
        ? "`mapfile -C` runs a command"
        : names({ flags: "t", withArg: "dnOsuc" }, [], true)(args, dialect),
    getopts: (args, dialect) => nameRisk(args[1], dialect),
    wait: names({ flags: "fn", withArg: "p" }, ["p"], false),
    unset: (args, dialect) => names({ flags: "fvn" }, [], true)(args, dialect, null),
    declare: declaration("inI"),
    typeset: declaration("inI"),
    local: declaration("inI"),
    export: declaration(""),
    readonly: declaration(""),
    test: testCheck,
    "[": testCheck,
    let: letCheck,
    set: setCheck,
    // with extglob on, bash reads `!(…)`, `@(…)`… as patterns on the lines after: `!(ls)` runs the first file name it matches
    shopt: (args) =>
      args.some((w) => !known(w)) || (args.some((w) => /^-[a-z]*s/.test(w.text)) && args.some((w) => w.text === "extglob"))
        ? "`shopt -s extglob` changes how bash reads the lines after it"
        : undefined,
    enable: (args) => (args.length ? "`enable` loads or hides builtins" : undefined),
    fc: always("`fc` runs commands from the history"),
    compgen: compgenCheck,
  },
  dash: {
    read: names({ flags: "r", withArg: "p" }, [], true),
    getopts: (args, dialect) => nameRisk(args[1], dialect),
    unset: (args, dialect) => names({ flags: "fv" }, [], true)(args, dialect, null),
    local: declaration(""),
    export: declaration(""),
    readonly: declaration(""),
  },
};
CHECKS.bash.readarray = CHECKS.bash.mapfile!;

/** Builtins that change or hide what runs, in every dialect. */
const ANY: Record<string, Check> = {
  ".": always("runs a script the rules cannot see"),
  source: always("runs a script the rules cannot see"),
  alias: (args) => (args.some((w) => !known(w) || w.text.includes("=")) ? "an alias changes what later commands run" : undefined),
  hash: (args) => (args.some((w) => !known(w) || /^-[a-z]*p/.test(w.text)) ? "`hash -p` changes which program a name runs" : undefined),
};

/** Is `seg` a builtin of `dialect` that runs no program (see INERT)? */
export function isInert(seg: Segment, dialect: Dialect): boolean {
  const first = seg.words[0];
  if (!first) return true; // assignments and redirections only
  return known(first) && INERT[dialect].has(first.text);
}

/**
 * Why `seg` runs code no rule can see or changes what later commands run, in `dialect`; undefined
 * when its words say it does not. An assignment before a program or a special builtin counts
 * (`PATH=. ls`, `PATH=. :`); one before another builtin lasts only for it (`IFS= read -r line`);
 * one before a program changes what that program runs (prefixRisk: `GIT_EDITOR=true git …` is judged
 * as the text git runs).
 */
export function builtinRisk(seg: Segment, dialect: Dialect): string | undefined {
  const first = seg.words[0];
  const builtin = first && known(first) && INERT[dialect].has(first.text) && !SPECIAL.has(first.text);
  const program = first && known(first) && !INERT[dialect].has(first.text) && !SPECIAL.has(first.text) && seg.inert !== "builtin" ? first.text : undefined;
  for (const w of seg.assigns) {
    const name = w.text.slice(0, Math.max(0, w.text.search(/\+?=/))).replace(/\[[^]*$/, ""); // `PATH[0]=x` assigns PATH
    const risk = program === undefined ? assignRisk(name) : prefixRisk(name, program);
    // `CDPATH=~/.config cd hey`: the assignment lasts for cd alone, but where cd went every later command runs
    if (risk && (!builtin || (name === "CDPATH" && /^(cd|pushd)$/.test(first.text)))) return risk;
    // evaluated when assigned, even for the one command a builtin runs
    const evaluated = dialect === "bash" ? integerRisk(name, known(w) ? w.text.slice(w.text.indexOf("=") + 1) : undefined) : undefined;
    if (evaluated) return evaluated;
  }
  if (!first || !known(first)) return undefined;
  const args = seg.words.slice(1);
  const check =
    (Object.hasOwn(CHECKS[dialect], first.text) ? CHECKS[dialect][first.text] : undefined) ?? (Object.hasOwn(ANY, first.text) ? ANY[first.text] : undefined);
  return check?.(args, dialect);
}

/**
 * bash evaluates every value later assigned to a variable declared `-i` as arithmetic (`declare -i
 * n; n=$x` runs code held in $x). Such a declaration in `src` (whose commands are `segments`) is
 * safe only where nothing else can assign the name: it is none of the names bash assigns by itself
 * (REPLY, OPTARG, PWD…: its own names are uppercase), and `src` mentions it nowhere else but as
 * `$NAME` or `${NAME}`. Returns why not, or undefined.
 */
export function integerDeclared(segments: Segment[], src: string): string | undefined {
  for (const seg of segments) {
    const [first, ...args] = seg.words;
    if (!first || !known(first) || !DECLARES.has(first.text) || !args.some((w) => known(w) && /^-[A-Za-z]*i/.test(w.text))) continue;
    for (const w of args) {
      if (known(w) && /^[-+]/.test(w.text)) continue;
      const name = w.text.replace(/(\[[^]*)?\+?=[^]*$/, "");
      if (!NAME.test(name) || /^[A-Z0-9_]+$/.test(name)) return INTEGER_DECLARED;
      const mentions = src
        .replace(new RegExp(`\\$(\\{${name}\\}|${name}(?![A-Za-z0-9_]))`, "g"), "")
        .match(new RegExp(`(?<![A-Za-z0-9_])${name}(?![A-Za-z0-9_])`, "g"));
      if ((mentions?.length ?? 0) > 1) return INTEGER_DECLARED;
    }
  }
  return undefined;
}
