// Seeing through commands that run other commands (SPEC §8): wrappers (`env`, `timeout 5`,
// `sudo -u x`, `xargs`, the util-linux set…), shells given a script (`sh -c STR`, and a package
// runner's `npx -c STR`: runner-texts.ts), `eval`, `trap`, `split --filter`,
// `find -exec`, bash's `jobs -x`, and programs that run code no rule can see. Pure; built on
// shell-syntax.ts.
import { builtinRisk, integerDeclared, isInert } from "./builtins.ts";
import { readOptions, type Options } from "./options.ts";
import { readGit } from "./git.ts";
import { findStarts, readFind, runsUnseen } from "./programs.ts";
import { runnerProgram, runnerText } from "./runner-texts.ts";
import { splitFilter } from "./split-names.ts";
import { readSed, sedUnseen } from "./sed-scripts.ts";
import { program } from "./match.ts";
import { syntax } from "./shell-syntax.ts";
import {
  known,
  ASSIGN,
  attempt,
  fail,
  type Filled,
  MAX_DEPTH,
  opaque,
  type Dialect,
  type Parsed,
  type Redirect,
  type Segment,
  type Word,
} from "./shell-model.ts";
import { LOADER, LOADER_NAME, WRAPPERS, type Wrapper } from "./wrappers.ts";

/** How a command line is read: by dash, by bash, or "sh" — /bin/sh is one of the two, so both readings count. */
export type Reading = Dialect | "sh";

/**
 * What a command line runs, read as `shell` reads it: the syntax, then each command seen through —
 * a wrapper becomes a segment of its own words plus a nested segment for the command it runs;
 * `sh -c STR`, `eval …`, `trap STR` and `find -exec` expose their commands as nested segments.
 * Code no rule can see (a script read from stdin or built at run time, a bash subscript, `source`)
 * is a segment marked `opaque`. With "sh" the segments of both readings are returned; a reading
 * that stops at a syntax error contributes the commands before it (the shell runs none after), and
 * a syntax error in every reading is a failure, like any construct the checker does not model.
 * `bash3`: bash 3.x (macOS's) may run it, whose reading of `$(…)` is checked too (shell-words.ts).
 */
export function parseCommand(src: string, shell: Reading, bash3 = true): Parsed {
  return attempt(() => commands(src, 0, false, shell, bash3));
}

/** `bash3`: bash 3.x may run `src` (shell-words.ts scannedEnd); a script inside it (`sh -c STR`, eval) is read as if it may. */
function commands(src: string, depth: number, nested: boolean, shell: Reading, bash3 = true): Segment[] {
  if (depth > MAX_DEPTH) fail("nested too deeply");
  const read = (dialect: Dialect) => {
    const { segments, stopped } = syntax(src, depth, nested, dialect, bash3);
    const seen = segments.flatMap((s) => seeThrough(s, depth, dialect));
    const integer = dialect === "bash" ? integerDeclared(seen, src) : undefined;
    return { segments: integer ? [...seen, opaque(src, integer)] : seen, stopped };
  };
  if (shell !== "sh") {
    const one = read(shell);
    return one.stopped ? fail(one.stopped) : one.segments;
  }
  const [dash, bash] = [read("dash"), read("bash")];
  if (dash.stopped && bash.stopped) fail(dash.stopped === bash.stopped ? dash.stopped : `${dash.stopped} (dash); ${bash.stopped} (bash)`);
  const seen = new Set<string>();
  return [...dash.segments, ...bash.segments].filter((s) => {
    const key = JSON.stringify(s);
    return !seen.has(key) && seen.add(key);
  });
}

/**
 * Does `trap ARGS` install a handler (which runs later, like eval)? Not `trap`, `trap -l`, `trap -p
 * …` (they print), nor one operand, `-`, `''` or a number as the action (a reset or an ignore).
 */
function trapHandler(args: Word[]): boolean {
  if (args[0] && known(args[0]) && /^-[lp]+$/.test(args[0].text)) return false;
  const [action, ...signals] = args[0] && known(args[0]) && args[0].text === "--" ? args.slice(1) : args;
  return !!action && signals.length > 0 && !(known(action) && (action.text === "-" || action.text === "" || /^[0-9]+$/.test(action.text)));
}

/** Shells by program name, with how each reads `-c STR`; null: a dialect the checker does not model. */
const SHELLS: Record<string, Reading | null> = {
  ...{ sh: "sh", bash: "bash", rbash: "bash", dash: "dash" },
  ...{ zsh: null, ksh: null, ksh93: null, mksh: null, lksh: null, oksh: null, loksh: null, pdksh: null, posh: null, ash: null, yash: null },
  ...{ fish: null, csh: null, tcsh: null, rc: null, es: null, elvish: null, nu: null, xonsh: null, pwsh: null, powershell: null },
};
// `-c` only switches mode: the script is the first operand (`bash -c -x 'cmd'` is legal); `-o` and
// `-O` take the next word even inside a cluster (`sh -oc noglob 'cmd'`); bash's long options come
// first and are never abbreviated
const SHELL: Options = {
  ...{ flags: "abcefhklmnprstuvxBCEHPTiDIVq", nextWord: "oO", exactLong: true },
  long: [
    "norc",
    "noprofile",
    "posix",
    "login",
    "noediting",
    "restricted",
    "verbose",
    "debugger",
    "dump-strings",
    "dump-po-strings",
    "pretty-print",
    "help",
    "version",
    "rcfile=",
    "init-file=",
  ],
};
/** A script operand that is the shell's own stdin. */
const STDIN_FILE = /(^|\/)(stdin|tty)$|(^|\/)fd\/\d+$/;
/** Programs that run a command through the target user's shell, or one read from a terminal or log. */
const SHELL_RUNNERS = new Set(["su", "runuser", "sg", "newgrp", "scriptlive", "coresched", "pkexec", "sudoedit"]);
const WATCH: Wrapper = {
  flags: "bcegtwpx",
  withArg: "nq",
  optional: "d",
  long: ["beep", "color", "no-color", "differences", "errexit", "chgexit", "equexit=", "interval=", "precise", "no-title", "no-wrap", "exec", "no-linewrap"],
};
/** bash's `jobs -x COMMAND ARGS` runs COMMAND, each jobspec (`%1`) in it replaced by a process group ID. */
const JOBS: Wrapper = { flags: "lnprsx" };

/**
 * What `seg` runs, seen through (see parseCommand). `inShell`: the shell itself runs it, so a
 * builtin's name means the builtin (not when a wrapper such as `env` or `timeout` executes it).
 */
function seeThrough(seg: Segment, depth: number, dialect: Dialect, inShell = true): Segment[] {
  if (seg.opaque) return [seg];
  const risk = builtinRisk(seg, dialect);
  if (risk) return [{ ...seg, opaque: risk }];
  if (seg.inert === "builtin" && inShell) return [seg]; // a call of a function the script defined: its body is read
  const first = seg.words[0];
  const builtin = inShell && isInert(seg, dialect);
  // bash runs a command word starting with `%` as `fg`/`bg` (job control), even quoted or globbed (`%?x` matches only names starting with `%`)
  if (inShell && dialect === "bash" && first && !first.unknown && !first.anyValue && first.text.startsWith("%")) return [{ ...seg, inert: "builtin" }];
  if (!first || first.unknown || first.glob || first.anyValue) return [builtin ? { ...seg, inert: "builtin" } : seg];
  const name = first.text.slice(first.text.lastIndexOf("/") + 1);
  const inert = builtin ? "builtin" : "words";
  const args = seg.words[1]?.text === "--" ? seg.words.slice(2) : seg.words.slice(1);
  const own = inShell && first.text === name; // the shell's builtin, not a program found by path
  if (name === "eval")
    return args.length ? [part(seg, [first], true, inert), ...script(args, seg, depth, dialect)] : [{ ...seg, inert: own ? "builtin" : inert }];
  if (own && ((name === "trap" && !trapHandler(args)) || (name === "kill" && /^-[lL]$/.test(args[0]?.text ?? "") && known(args[0]!))))
    return [{ ...seg, inert: "builtin" }];
  if (name === "trap" && args.length >= 2) return [part(seg, [first, ...args.slice(1)], true, inert), ...script(args.slice(0, 1), seg, depth, dialect)];
  if (name === "find") return find(seg, depth, dialect);
  if (name === "git") return readGit(seg.words) ? [seg] : [{ ...seg, opaque: "a word known only at run time stands where git reads its options" }];
  if (Object.hasOwn(SHELLS, name)) return shell(seg, depth, name, SHELLS[name]!);
  const runner = runnerText(seg.words);
  if (runner && "opaque" in runner) return [part(seg, seg.words, true), opaque(seg.raw, runner.opaque)];
  // `npx -c TEXT`, `pnpm -c exec …`: the runner's own words, then the text read as `sh -c` text is
  if (runner) return [part(seg, runner.own, true), ...runner.texts.flatMap((text) => script(text, seg, depth, "sh"))];
  // `npx sh -c TEXT`, `pnpm exec bash -c TEXT`: the shell the runner runs, read as without it
  const ran = runnerProgram(seg.words);
  const shellRun = seg.words[ran];
  if (shellRun && known(shellRun) && Object.hasOwn(SHELLS, program(shellRun.text)))
    return [part(seg, seg.words.slice(0, ran), false), ...run(seg, seg.words.slice(ran), [], seg.redirects, depth, dialect)];
  if (SHELL_RUNNERS.has(name)) return [{ ...seg, opaque: `\`${name}\` runs its command through a shell or editor hey cannot see` }];
  // `split --filter=COMMAND` runs COMMAND with the shell for each piece (split-names.ts)
  const filter = name === "split" ? splitFilter(seg) : undefined;
  if (filter) return [part(seg, seg.words, true), ...script([filter], seg, depth, "sh")];
  // sed's `e COMMAND` runs COMMAND with the shell: read as `sh -c` text is; `e` alone and `s///e` run a line it read (sed-scripts.ts);
  // with its script read, sed runs no other word (`$(git ls-files)` names no command sed runs: r5 #8)
  const sed = readSed(seg);
  const hidden = sed && sedUnseen(sed);
  // a script file or `e` is "cannot verify" under an allow list (as `awk -f` runs under a deny list, so does it); one hey cannot read is under every list
  if (hidden) return [{ ...seg, ...(sed && "unknown" in sed ? { opaque: hidden } : { unverified: hidden }) }];
  if (sed && "commands" in sed) return [{ ...seg, inert: "words" }, ...sed.commands.flatMap((c) => script([plain(c)], seg, depth, "sh"))];
  const unseen = runsUnseen(name, seg.words);
  if (unseen) return [{ ...seg, opaque: unseen }];
  if (name === "gdb") return gdb(seg, depth, dialect);
  if (name === "watch") return wrapper(seg, name, WATCH, depth, dialect);
  if (name === "jobs" && dialect === "bash" && first.text === "jobs") return jobs(seg, depth);
  if (LOADER_NAME.test(name)) return wrapper(seg, name, LOADER, depth, dialect);
  const spec = name === "exec" && dialect === "dash" && own ? DASH_EXEC : Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined;
  if (spec) return wrapper(seg, name, spec, depth, dialect, inert, own && OWN[dialect].has(name));
  return [inert === "builtin" ? { ...seg, inert } : seg];
}

/** The wrapper's own part of `seg`: its words, with the segment's assignments (and redirections); its words run nothing. */
function part(seg: Segment, words: Word[], redirects: boolean, inert: Segment["inert"] = "words", raw = seg.raw): Segment {
  return { raw, assigns: seg.assigns, words, redirects: redirects ? seg.redirects : [], nested: seg.nested, inert };
}

const plain = (text: string): Word => ({ text, raw: text, unknown: false, glob: false });

/** Words joined into a script, as eval does, read as `reading`; built from an expansion (or absent) → opaque. */
function script(words: Word[], seg: Segment, depth: number, reading: Reading): Segment[] {
  if (!words.length) return [opaque(seg.raw, "a shell reading its script from stdin")];
  if (words.some((w) => w.unknown || w.glob || w.anyValue)) return [opaque(seg.raw, "a script known only at run time")];
  return commands(words.map((w) => w.text).join(" "), depth + 1, true, reading);
}

/** The command a wrapper runs; `inShell` for the shell's own wrappers (`command`, `builtin`, bash's `time`, `jobs -x`), which run builtins too. */
function run(seg: Segment, words: Word[], env: Word[], redirects: Redirect[], depth: number, dialect: Dialect, inShell = false): Segment[] {
  const raw = words.map((w) => w.raw).join(" ");
  return seeThrough(
    {
      raw,
      assigns: [...seg.assigns, ...env],
      words,
      redirects,
      nested: true,
      ...(seg.piped ? { piped: true } : {}),
      ...(seg.given ? { given: seg.given } : {}),
    },
    depth + 1,
    dialect,
    inShell,
  );
}

/** Wrappers that are the shell's own: the command they run may be a builtin. */
const IN_SHELL: Record<Dialect, Set<string>> = { dash: new Set(["command"]), bash: new Set(["command", "builtin", "time"]) };
/** dash's `exec` reads no options: `exec -c ls` and `exec -- ls` run programs named `-c` and `--`. */
const DASH_EXEC: Wrapper = { flags: "", none: true };
/** Wrappers that are builtins of the shell (exec runs a program, never a builtin, so it is not in IN_SHELL). */
const OWN: Record<Dialect, Set<string>> = { dash: new Set(["command", "exec"]), bash: new Set(["command", "builtin", "time", "exec"]) };

/** Stands for the arguments xargs appends from its input: any number of words, any values. */
const INPUT: Word = { text: "…", raw: "…", unknown: false, glob: true, anyValue: true };

/**
 * A placeholder filled from input (`xargs -I{}`, `find -exec … {}`) as a whole argument is an
 * argument of unknown value (data, any value); in the command name or inside a word
 * (`sh -c 'rm {}'`: a file name pasted into a script can be code) the word is unknown.
 */
function fill(words: Word[], placeholder: string, filled: Filled): Word[] {
  return words.map((w, i) => {
    if (!w.text.includes(placeholder)) return w;
    return i > 0 && w.text === placeholder ? { ...w, glob: true, anyValue: true, filled } : { ...w, unknown: true };
  });
}

/** Is `w` a NAME=value operand of `env`? Anything with `=` after a name counts (env sets `BASH_FUNC_x%%=…` too); undefined: known only at run time. */
function envAssign(w: Word): boolean | undefined {
  if (!w.unknown && !w.glob && !w.anyValue) return /^[^=]+=/.test(w.text);
  return /^[^=$`'"\\*?[]+=/.test(w.raw) && !w.anyValue ? true : undefined;
}

/**
 * `inert`: "builtin" for wrappers that are inert builtins. `shellOwn`: a builtin of the shell (`command`,
 * `exec`…): with no command to run (`command -v x`, `exec 2>/dev/null`) it runs nothing and needs no
 * allow entry; running one, it needs its own entry like any wrapper (SPEC §8).
 */
function wrapper(seg: Segment, name: string, spec: Wrapper, depth: number, dialect: Dialect, inert: Segment["inert"] = "words", shellOwn = false): Segment[] {
  const whole = [part(seg, seg.words, true, shellOwn ? "builtin" : inert)];
  const parsed = readOptions(seg.words, spec, 1 + (spec.leading ?? 0), false);
  // the shell's `command` (and bash's `exec`) stops at an option it does not know, running nothing
  if (!parsed && shellOwn && (name === "command" || (name === "exec" && dialect === "bash")) && seg.words.every(known)) return whole;
  if (!parsed) return [...whole, opaque(seg.raw, `\`${name}\` with options the checker does not model`)];
  const { seen } = parsed;
  const has = (keys?: string[]) => keys?.some((key) => seen.has(key));
  if (has(spec.noCommand) && !has(spec.opaque)) return whole;
  const rest = spec.permute ? parsed.operands : seg.words.slice(parsed.k);
  let k = Math.min(spec.operands ?? 0, rest.length);
  const own = spec.permute ? seg.words : seg.words.slice(0, parsed.k + k);
  const env: Word[] = [...parsed.env];
  for (; spec.env && !(spec.envAmongOptions && parsed.ended) && k < rest.length; k++) {
    const assign = envAssign(rest[k]!);
    if (assign === undefined) return [...whole, opaque(seg.raw, `\`${name}\` with an operand known only at run time`)];
    if (!assign) break;
    env.push(rest[k]!);
  }
  const cmd = rest.slice(k);
  // bash's `time` is a reserved word before a pipeline: `time PATH=. ls` assigns, as without it
  while (name === "time" && dialect === "bash" && cmd[0] && ASSIGN.test(cmd[0].raw)) env.push(cmd.shift()!);
  if (has(spec.opaque) || (cmd[0] && spec.shellWords?.includes(cmd[0].text)))
    return [
      part(seg, own, true, inert),
      opaque(seg.raw, `\`${name}\` runs code named by an option or the environment (an editor, a string through $SHELL, a library)`),
    ];
  if (!cmd.length && spec.defaultCommand) cmd.push({ text: spec.defaultCommand, raw: spec.defaultCommand, unknown: false, glob: false });
  if (!cmd.length) return spec.bareShell ? [...whole, opaque(seg.raw, `\`${name}\` without a command starts a shell reading stdin`)] : whole;
  if (name === "watch" && !has(["x", "exec"])) return [part(seg, own, true, inert), ...script(cmd, seg, depth, "sh")]; // `sh -c` of the joined words
  const ownRaw = [...seg.assigns, ...own.filter((w) => !env.includes(w))].map((w) => w.raw).join(" ");
  const ownWords = own.filter((w) => !env.includes(w));
  const ownInert = name === "valgrind" ? undefined : inert; // valgrind's options are not all known: its words may run
  const inShell = IN_SHELL[dialect].has(name) && seg.words[0]!.text === name;
  const ran = run(seg, name === "xargs" ? xargsCommand(cmd, seen) : cmd, env, seg.redirects, depth, dialect, inShell);
  const moved = spec.chdir === "always" || has(spec.chdir);
  return [part(seg, ownWords, false, ownInert, ownRaw), ...(moved ? ran.map((s) => ({ ...unplaced(s), elsewhere: true })) : ran)];
}

/** `s` run in a directory its wrapper names (`env -C DIR find …`): the start points of a find in it are not where the script is. */
const unplaced = (s: Segment): Segment => ({
  ...s,
  words: s.words.map((w) => (w.filled?.by === "find" ? { ...w, filled: { ...w.filled, moved: true as const } } : w)),
});

/** xargs fills its `-I`/`-i` placeholder, or else appends what it reads: `xargs env` runs `env rm -rf /` given that input. */
function xargsCommand(cmd: Word[], seen: Map<string, Word | null>): Word[] {
  const replace = seen.has("I") ? seen.get("I") : seen.has("i") ? seen.get("i") : seen.get("replace");
  const placeholder = seen.has("I") ? replace?.text : seen.has("i") || seen.has("replace") ? replace?.text || "{}" : undefined;
  // how xargs splits what it reads into words (a `-d` over `-0`: GNU's last wins, and a `-0` after it only makes one word of the rest); -I reads lines
  const delimiter = seen.get("d") ?? seen.get("delimiter");
  const nul = delimiter ? delimiter.text === "\\0" : seen.has("0") || seen.has("null");
  const split = nul ? "nul" : delimiter ? (delimiter.text === "\\n" || delimiter.text === "\n" ? "line" : "other") : placeholder ? "line" : "blank";
  const file = seen.get("a") ?? seen.get("arg-file");
  const filled: Filled = { by: "xargs", split, ...(file ? { file } : {}) };
  return placeholder ? fill(cmd, placeholder, filled) : [...cmd, { ...INPUT, filled }];
}

function shell(seg: Segment, depth: number, name: string, reading: Reading | null): Segment[] {
  const whole = [part(seg, seg.words, true)];
  const parsed = readOptions(seg.words, SHELL, 1, true);
  if (!parsed) return [...whole, opaque(seg.raw, `\`${name}\` with options the checker does not model`)];
  const [first, ...rest] = seg.words.slice(parsed.k);
  if (parsed.seen.has("c")) {
    const own = part(seg, [...seg.words.slice(0, parsed.k), ...rest], true);
    if (!reading) return [own, opaque(seg.raw, `\`${name}\` reads its script in a dialect the checker does not model`)];
    // `-O extglob`: bash reads `!(…)`, `@(…)`… as patterns (`!(ls)` runs the first file name it matches)
    if (seg.words.slice(1, parsed.k).some((w) => w.text === "extglob"))
      return [own, opaque(seg.raw, `\`${name} -O extglob\` reads its script with extended patterns`)];
    return [own, ...script(first ? [first] : [], seg, depth, reading)];
  }
  if (parsed.seen.has("help") || parsed.seen.has("version")) return whole;
  // no operand, `-s`, `-i`, `-` or a stdin file: commands come from stdin, as in `curl … | sh`
  if (!first || parsed.seen.has("s") || first.text === "-" || first.unknown || first.glob || first.anyValue || STDIN_FILE.test(first.text))
    return [...whole, opaque(seg.raw, "a shell reading a script the rules cannot see")];
  return [seg]; // runs a script file: opaque, like any program
}

function find(seg: Segment, depth: number, dialect: Dialect): Segment[] {
  const read = readFind(seg.words);
  if ("opaque" in read) return [part(seg, seg.words, true), opaque(seg.raw, read.opaque)];
  if (!read.commands.length) return [part(seg, read.own, true)];
  const starts = findStarts(seg.words);
  const ran = read.commands.flatMap(({ words, elsewhere, at }) =>
    run(seg, fill(words, "{}", { by: "find", starts, find: seg.words, at }), [], [], depth, dialect).map((s) => (elsewhere ? { ...s, elsewhere } : s)),
  );
  return [part(seg, read.own, true), ...ran];
}

/** `gdb … --args PROGRAM ARGS` runs PROGRAM; gdb's own words are commands of its own language. */
function gdb(seg: Segment, depth: number, dialect: Dialect): Segment[] {
  const at = seg.words.findIndex((w, i) => i > 0 && (w.text === "--args" || w.text === "-args"));
  if (seg.words.slice(0, at < 0 ? undefined : at).some((w) => w.unknown || w.glob || w.anyValue))
    return [{ ...seg, opaque: "`gdb` with words known only at run time" }];
  if (at < 0 || at + 1 >= seg.words.length) return [seg];
  return [part(seg, seg.words.slice(0, at + 1), true, undefined), ...run(seg, seg.words.slice(at + 1), [], [], depth, dialect)];
}

/** bash's `jobs -x COMMAND ARGS`: a jobspec becomes a number, known only at run time. */
function jobs(seg: Segment, depth: number): Segment[] {
  const parsed = readOptions(seg.words, JOBS, 1, false);
  if (!parsed) return [{ ...seg, opaque: "`jobs` with options the checker does not model" }];
  if (!parsed.seen.has("x")) return [{ ...seg, inert: "builtin" }];
  const cmd = seg.words.slice(parsed.k).map((w) => (w.text.startsWith("%") ? { ...w, unknown: true } : w));
  if (!cmd.length) return [{ ...seg, inert: "builtin" }];
  return [part(seg, seg.words.slice(0, parsed.k), true, "builtin"), ...run(seg, cmd, [], seg.redirects, depth, "bash", true)];
}
