// Seeing through commands that run other commands (SPEC §8): wrappers (`env`, `timeout 5`,
// `sudo -u x`, `xargs`, the util-linux set…), shells given a script (`sh -c STR`), `eval`, `trap`,
// `find -exec`, and builtins that run code no rule can see. Pure; built on shell-syntax.ts.
import { builtinRisk } from "./builtins.ts";
import { syntax } from "./shell-syntax.ts";
import { attempt, fail, MAX_DEPTH, opaque, type Dialect, type Parsed, type Redirect, type Segment, type Word } from "./shell-words.ts";
import { readOptions, WRAPPERS, type Wrapper } from "./wrappers.ts";

/** How a command line is read: by dash, by bash, or "sh" — /bin/sh is one of the two, so both readings count. */
export type Reading = Dialect | "sh";

/**
 * What a command line runs, read as `shell` reads it: the syntax, then each command seen through —
 * a wrapper becomes a segment of its own words plus a nested segment for the command it runs;
 * `sh -c STR`, `eval …`, `trap STR` and `find -exec` expose their commands as nested segments.
 * Code no rule can see (a script read from stdin or built at run time, a bash subscript, `source`)
 * is a segment marked `opaque`. With "sh" the segments of both readings are returned, and either
 * reading failing is a failure.
 */
export function parseCommand(src: string, shell: Reading): Parsed {
  return attempt(() => commands(src, 0, false, shell));
}

function commands(src: string, depth: number, nested: boolean, shell: Reading): Segment[] {
  if (depth > MAX_DEPTH) fail("nested too deeply");
  if (shell !== "sh") return syntax(src, depth, nested, shell).flatMap((s) => seeThrough(s, depth, shell));
  const both = [...commands(src, depth, nested, "dash"), ...commands(src, depth, nested, "bash")];
  const seen = new Set<string>();
  return both.filter((s) => {
    const key = JSON.stringify(s);
    return !seen.has(key) && seen.add(key);
  });
}

/** Shells by program name, with how each reads `-c STR`; null: a dialect the checker does not model. */
const SHELLS: Record<string, Reading | null> = { sh: "sh", bash: "bash", dash: "dash", zsh: null, ksh: null, mksh: null, ash: null, yash: null, fish: null, csh: null, tcsh: null };
// `-c` only switches mode: the script is the first operand (`bash -c -x 'cmd'` is legal)
const SHELL: Wrapper = { flags: "abcefhklmnprstuvxBCEHPTi", withArg: "oO", long: ["norc", "noprofile", "posix", "login", "noediting", "restricted", "verbose", "debugger", "rcfile=", "init-file="] };
/** A script operand that is the shell's own stdin. */
const STDIN_FILE = /(^|\/)(stdin|tty)$|(^|\/)fd\/\d+$/;
/** Programs that run a command through the target user's shell, or one read from a terminal or log. */
const SHELL_RUNNERS = new Set(["su", "runuser", "sg", "newgrp", "scriptlive", "coresched", "pkexec"]);
const WATCH: Wrapper = { flags: "bcegtwpx", withArg: "nq", optional: "d", long: ["beep", "color", "no-color", "differences", "errexit", "chgexit", "equexit=", "interval=", "precise", "no-title", "no-wrap", "exec", "no-linewrap"] };
const FIND_EXEC = new Set(["-exec", "-execdir", "-ok", "-okdir"]);

/** What `seg` runs, seen through (see parseCommand). */
function seeThrough(seg: Segment, depth: number, dialect: Dialect): Segment[] {
  if (seg.opaque) return [seg];
  const risk = builtinRisk(seg, dialect);
  if (risk) return [{ ...seg, opaque: risk }];
  const first = seg.words[0];
  if (!first || first.unknown || first.glob) return [seg];
  const name = first.text.slice(first.text.lastIndexOf("/") + 1);
  const args = seg.words[1]?.text === "--" ? seg.words.slice(2) : seg.words.slice(1);
  if (name === "eval") return [part(seg, [first], true), ...script(args, seg, depth, dialect)];
  if (name === "trap" && args.length >= 2) return [part(seg, [first, ...args.slice(1)], true), ...script(args.slice(0, 1), seg, depth, dialect)];
  if (name === "find") return find(seg, depth, dialect);
  if (Object.hasOwn(SHELLS, name)) return shell(seg, depth, name, SHELLS[name]!);
  if (SHELL_RUNNERS.has(name)) return [{ ...seg, opaque: `\`${name}\` runs its command through a shell hey cannot see` }];
  if (name === "watch") return wrapper(seg, name, WATCH, depth, dialect);
  const spec = Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined;
  return spec ? wrapper(seg, name, spec, depth, dialect) : [seg];
}

/** The wrapper's own part of `seg`: its words, with the segment's assignments (and redirections). */
function part(seg: Segment, words: Word[], redirects: boolean, raw = seg.raw): Segment {
  return { raw, assigns: seg.assigns, words, redirects: redirects ? seg.redirects : [], nested: seg.nested };
}

/** Words joined into a script, as eval does, read as `reading`; built from an expansion (or absent) → opaque. */
function script(words: Word[], seg: Segment, depth: number, reading: Reading): Segment[] {
  if (!words.length) return [opaque(seg.raw, "a shell reading its script from stdin")];
  if (words.some((w) => w.unknown || w.glob)) return [opaque(seg.raw, "a script known only at run time")];
  return commands(words.map((w) => w.text).join(" "), depth + 1, true, reading);
}

function run(seg: Segment, words: Word[], env: Word[], redirects: Redirect[], depth: number, dialect: Dialect): Segment[] {
  const raw = words.map((w) => w.raw).join(" ");
  return seeThrough({ raw, assigns: [...seg.assigns, ...env], words, redirects, nested: true }, depth + 1, dialect);
}

/** Stands for the arguments xargs appends from its input. */
const INPUT: Word = { text: "…", raw: "…", unknown: false, glob: true };

/**
 * A placeholder filled from input (`xargs -I{}`, `find -exec … {}`) as a whole argument is an
 * argument of unknown value (like a glob); in the command name or inside a word (`sh -c 'rm {}'`)
 * it could be code, so the word is unknown.
 */
function fill(words: Word[], placeholder: string): Word[] {
  return words.map((w, i) => {
    if (!w.text.includes(placeholder)) return w;
    return i > 0 && w.text === placeholder ? { ...w, glob: true } : { ...w, unknown: true };
  });
}

/** Is `w` a NAME=value operand of `env` or `sudo`? Anything with `=` after a name counts (env sets `BASH_FUNC_x%%=…` too); undefined: known only at run time. */
function envAssign(w: Word): boolean | undefined {
  if (!w.unknown && !w.glob) return /^[^=]+=/.test(w.text);
  return /^[^=$`'"\\*?[]+=/.test(w.raw) ? true : undefined;
}

function wrapper(seg: Segment, name: string, spec: Wrapper, depth: number, dialect: Dialect): Segment[] {
  const whole = [part(seg, seg.words, true)];
  const parsed = readOptions(seg.words, spec, 1 + (spec.leading ?? 0), false);
  if (!parsed) return [...whole, opaque(seg.raw, `\`${name}\` with options the checker does not model`)];
  const { seen } = parsed;
  const has = (keys?: string[]) => keys?.some((key) => seen.has(key));
  if (has(spec.noCommand)) return whole;
  let k = Math.min(parsed.k + (spec.operands ?? 0), seg.words.length);
  const own = seg.words.slice(0, k);
  const env: Word[] = [];
  for (; spec.env && k < seg.words.length; k++) {
    const assign = envAssign(seg.words[k]!);
    if (assign === undefined) return [...whole, opaque(seg.raw, `\`${name}\` with an operand known only at run time`)];
    if (!assign) break;
    env.push(seg.words[k]!);
  }
  const cmd = seg.words.slice(k);
  if (has(spec.opaque) || (cmd[0] && spec.shellWords?.includes(cmd[0].text))) return [part(seg, own, true), opaque(seg.raw, `\`${name}\` runs a string through $SHELL or its own splitter`)];
  if (!cmd.length) return spec.bareShell ? [...whole, opaque(seg.raw, `\`${name}\` without a command starts a shell reading stdin`)] : whole;
  if (name === "watch" && !has(["x", "exec"])) return [part(seg, own, true), ...script(cmd, seg, depth, "sh")]; // `sh -c` of the joined words
  const ownRaw = [...seg.assigns, ...own].map((w) => w.raw).join(" ");
  return [part(seg, own, false, ownRaw), ...run(seg, name === "xargs" ? xargsCommand(cmd, seen) : cmd, env, seg.redirects, depth, dialect)];
}

/** xargs fills its `-I` placeholder, or else appends what it reads: `xargs env` runs `env rm -rf /` given that input. */
function xargsCommand(cmd: Word[], seen: Map<string, Word | null>): Word[] {
  const placeholder = seen.get("I")?.text ?? (seen.has("i") || seen.has("replace") ? seen.get("replace")?.text || "{}" : undefined);
  return placeholder ? fill(cmd, placeholder) : [...cmd, INPUT];
}

function shell(seg: Segment, depth: number, name: string, reading: Reading | null): Segment[] {
  const whole = [part(seg, seg.words, true)];
  const parsed = readOptions(seg.words, SHELL, 1, true);
  if (!parsed) return [...whole, opaque(seg.raw, `\`${name}\` with options the checker does not model`)];
  const [first, ...rest] = seg.words.slice(parsed.k);
  if (parsed.seen.has("c")) {
    const own = part(seg, [...seg.words.slice(0, parsed.k), ...rest], true);
    if (!reading) return [own, opaque(seg.raw, `\`${name}\` reads its script in a dialect the checker does not model`)];
    return [own, ...script(first ? [first] : [], seg, depth, reading)];
  }
  // no operand, `-s`, `-` or a stdin file: commands come from stdin, as in `curl … | sh`
  if (!first || parsed.seen.has("s") || first.text === "-" || first.unknown || first.glob || STDIN_FILE.test(first.text)) return [...whole, opaque(seg.raw, "a shell reading a script the rules cannot see")];
  return [seg]; // runs a script file: opaque, like any program
}

function find(seg: Segment, depth: number, dialect: Dialect): Segment[] {
  const own: Word[] = [];
  const inner: Segment[] = [];
  const w = seg.words;
  for (let k = 0; k < w.length; k++) {
    if (!FIND_EXEC.has(w[k]!.text)) {
      own.push(w[k]!);
      continue;
    }
    let end = k + 1;
    while (end < w.length && w[end]!.text !== ";" && !(w[end]!.text === "+" && w[end - 1]!.text === "{}")) end++;
    if (end >= w.length) return [part(seg, w, true), opaque(seg.raw, "`find -exec` without its `;` or `+`")];
    inner.push(...run(seg, fill(w.slice(k + 1, end), "{}"), [], [], depth, dialect));
    k = end;
  }
  return inner.length ? [part(seg, own, true), ...inner] : [seg];
}
