// Seeing through commands that run other commands (SPEC §8): wrappers (`env`, `timeout 5`,
// `sudo -u x`, `xargs` …), shells given a script (`sh -c STR`), `eval`, `trap`, `find -exec`,
// aliases. Pure; built on the syntax reader of shell-words.ts.
import { ASSIGN, attempt, fail, MAX_DEPTH, syntax, type Parsed, type Redirect, type Segment, type Word } from "./shell-words.ts";

/**
 * What a command line runs: parseSyntax, then each command seen through — a wrapper (`env`,
 * `timeout 5`, `sudo -u x`, `xargs`, …) becomes a segment of its own words plus a nested segment
 * for the command it runs; `sh -c STR`, `eval …`, `trap STR` and `find -exec` expose their
 * commands as nested segments. A script that cannot be known (built from an expansion, or read
 * from stdin as in `curl … | sh`) becomes a nested segment whose only word is unknown.
 */
export function parseCommand(src: string): Parsed {
  return attempt(() => commands(src, 0, false));
}

function commands(src: string, depth: number, nested: boolean): Segment[] {
  if (depth > MAX_DEPTH) fail("nested too deeply");
  return syntax(src, depth, nested).flatMap((s) => seeThrough(s, depth));
}

interface Wrapper {
  /** short options without an argument */
  flags: string;
  /** short options taking an argument, attached (`-n5`) or next */
  withArg?: string;
  /** long options; a trailing "=" marks one taking an argument */
  long?: string[];
  /** operands before the command: timeout's duration, taskset's mask */
  operands?: number;
  /** NAME=value operands before the command are its environment (env, sudo) */
  env?: boolean;
  /** options after which no command follows (`command -v`, `sudo -l`) */
  noCommand?: string[];
  /** options after which the command words are a shell script (`sudo -s`, `env -S`) */
  shell?: string[];
}

const XARGS_LONG = ["null", "arg-file=", "delimiter=", "eof=", "replace", "max-lines=", "max-args=", "max-procs=", "max-chars="];
const NS_LONG = ["mount", "uts", "ipc", "net", "pid", "user", "cgroup", "time", "root", "wd", "fork"];
const WRAPPERS: Record<string, Wrapper> = {
  env: { flags: "-i0v", withArg: "uCS", long: ["ignore-environment", "null", "debug", "unset=", "chdir=", "split-string="], env: true, shell: ["S", "split-string"] },
  timeout: { flags: "v", withArg: "sk", long: ["signal=", "kill-after=", "preserve-status", "foreground", "verbose"], operands: 1 },
  nice: { flags: "0123456789", withArg: "n", long: ["adjustment="] }, // `nice -10 cmd`
  nohup: { flags: "" },
  command: { flags: "pvV", noCommand: ["v", "V"] },
  builtin: { flags: "" },
  exec: { flags: "cl", withArg: "a" },
  time: { flags: "pvqa", withArg: "fo", long: ["format=", "output=", "append", "verbose", "portability", "quiet"] },
  stdbuf: { flags: "", withArg: "ioe", long: ["input=", "output=", "error="] },
  xargs: { flags: "0prtxie", withArg: "IaEdLnPs", long: [...XARGS_LONG, "interactive", "no-run-if-empty", "verbose", "exit", "open-tty", "process-slot-var="] },
  sudo: {
    ...{ flags: "AbEHiKklnPSsVve", withArg: "CDghpRrTtUu", env: true, shell: ["s", "i", "shell", "login"] },
    long: ["user=", "group=", "chdir=", "host=", "prompt=", "role=", "type=", "other-user=", "close-from=", "command-timeout=", "preserve-env", "login", "shell", "non-interactive", "background", "stdin", "set-home", "edit", "list", "validate", "version", "remove-timestamp", "reset-timestamp"],
    noCommand: ["e", "l", "v", "V", "K", "edit", "list", "validate", "version", "remove-timestamp"],
  },
  doas: { flags: "nsL", withArg: "uC", noCommand: ["L", "C"], shell: ["s"] },
  ionice: { flags: "t", withArg: "cnpPu", long: ["class=", "classdata=", "pid=", "pgid=", "uid=", "ignore"] },
  chrt: { flags: "abdefiormRv", withArg: "TPD", operands: 1 },
  taskset: { flags: "acp", long: ["all-tasks", "cpu-list", "pid"], operands: 1 },
  setsid: { flags: "cfw", long: ["ctty", "fork", "wait"] },
  nsenter: { flags: "amuinpUCTFZrw", withArg: "tSG", long: [...NS_LONG, "target=", "setuid=", "setgid=", "all", "preserve-credentials", "no-fork", "follow-context"] },
  unshare: { flags: "muinpUCTrcf", withArg: "RwSG", long: [...NS_LONG, "map-root-user", "map-current-user", "kill-child", "mount-proc", "propagation=", "setgroups=", "setuid=", "setgid="] },
  busybox: { flags: "" },
};
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash"]);
// `-c` only switches mode: the script is the first operand (`bash -c -x 'cmd'` is legal)
const SHELL: Wrapper = { flags: "abcefhklmnprstuvxBCEHPTi", withArg: "oO", long: ["norc", "noprofile", "posix", "login", "noediting", "restricted", "verbose", "debugger", "rcfile=", "init-file="] };
const FIND_EXEC = new Set(["-exec", "-execdir", "-ok", "-okdir"]);

/** What `seg` runs, seen through (see parseCommand). */
function seeThrough(seg: Segment, depth: number): Segment[] {
  const first = seg.words[0];
  if (!first || first.unknown || first.glob) return [seg];
  const name = first.text.slice(first.text.lastIndexOf("/") + 1);
  const args = seg.words[1]?.text === "--" ? seg.words.slice(2) : seg.words.slice(1);
  if (name === "eval") return [part(seg, [first], true), ...script(args, seg, depth)];
  if (name === "trap" && args.length >= 2) return [part(seg, [first, ...args.slice(1)], true), ...script(args.slice(0, 1), seg, depth)];
  if (name === "find") return find(seg, depth);
  if (name === "alias") {
    // dash expands aliases even in scripts: `alias x='rm -rf ~'` then `x`
    const bodies = args.filter((w) => w.text.includes("=")).map((w) => ({ ...w, text: w.text.slice(w.text.indexOf("=") + 1) }));
    return [seg, ...bodies.flatMap((body) => script([body], seg, depth))];
  }
  if (SHELLS.has(name)) return shell(seg, depth);
  if ((name === "." || name === "source") && (args[0]?.unknown || args[0]?.glob)) return [seg, unknownCommand(seg.raw)]; // `. <(curl …)`
  const spec = WRAPPERS[name];
  return spec ? wrapper(seg, name, spec, depth) : [seg];
}

/** The wrapper's own part of `seg`: its words, with the segment's assignments (and redirections). */
function part(seg: Segment, words: Word[], redirects: boolean, raw = seg.raw): Segment {
  return { raw, assigns: seg.assigns, words, redirects: redirects ? seg.redirects : [], nested: seg.nested };
}

function unknownCommand(raw: string): Segment {
  return { raw, assigns: [], words: [{ text: raw, raw, unknown: true, glob: false }], redirects: [], nested: true };
}

/** Words joined into a script, as eval does; built from an expansion (or absent) → unknown. */
function script(words: Word[], seg: Segment, depth: number): Segment[] {
  if (!words.length || words.some((w) => w.unknown || w.glob)) return [unknownCommand(seg.raw)];
  return commands(words.map((w) => w.text).join(" "), depth + 1, true);
}

function run(seg: Segment, words: Word[], env: Word[], redirects: Redirect[], depth: number): Segment[] {
  const raw = words.map((w) => w.raw).join(" ");
  return seeThrough({ raw, assigns: [...seg.assigns, ...env], words, redirects, nested: true }, depth + 1);
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

function wrapper(seg: Segment, name: string, spec: Wrapper, depth: number): Segment[] {
  const parsed = options(seg.words, spec, false);
  if (!parsed) return [part(seg, seg.words, true), unknownCommand(seg.raw)];
  const { seen } = parsed;
  let k = Math.min(parsed.k + (spec.operands ?? 0), seg.words.length);
  const own = seg.words.slice(0, k);
  const env: Word[] = [];
  while (spec.env && k < seg.words.length && ASSIGN.test(seg.words[k]!.raw)) env.push(seg.words[k++]!);
  const cmd = seg.words.slice(k);
  const has = (keys?: string[]) => keys?.find((key) => seen.has(key));
  if (has(spec.noCommand)) return [part(seg, seg.words, true)];
  const shellKey = has(spec.shell);
  if (shellKey !== undefined) {
    const value = seen.get(shellKey);
    return [part(seg, own, true), ...script(value ? [value, ...cmd] : cmd, seg, depth)];
  }
  if (!cmd.length) return [part(seg, seg.words, true)];
  const ownRaw = [...seg.assigns, ...own].map((w) => w.raw).join(" ");
  return [part(seg, own, false, ownRaw), ...run(seg, name === "xargs" ? xargsCommand(cmd, seen) : cmd, env, seg.redirects, depth)];
}

/** xargs fills its `-I` placeholder, or else appends what it reads: `xargs env` runs `env rm -rf /` given that input. */
function xargsCommand(cmd: Word[], seen: Map<string, Word | null>): Word[] {
  const placeholder = seen.get("I")?.text ?? (seen.has("i") || seen.has("replace") ? seen.get("replace")?.text || "{}" : undefined);
  return placeholder ? fill(cmd, placeholder) : [...cmd, INPUT];
}

function shell(seg: Segment, depth: number): Segment[] {
  const parsed = options(seg.words, SHELL, true);
  if (!parsed) return [part(seg, seg.words, true), unknownCommand(seg.raw)];
  const [first, ...rest] = seg.words.slice(parsed.k);
  if (parsed.seen.has("c")) return [part(seg, [...seg.words.slice(0, parsed.k), ...rest], true), ...script(first ? [first] : [], seg, depth)];
  // no operand (or -s): commands come from stdin, as in `curl … | sh`
  if (!first || parsed.seen.has("s")) return [part(seg, seg.words, true), unknownCommand(seg.raw)];
  return [seg]; // runs a script file: opaque, like any program
}

function find(seg: Segment, depth: number): Segment[] {
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
    if (end >= w.length) return [part(seg, w, true), unknownCommand(seg.raw)];
    inner.push(...run(seg, fill(w.slice(k + 1, end), "{}"), [], [], depth));
    k = end;
  }
  return inner.length ? [part(seg, own, true), ...inner] : [seg];
}

const literal = (text: string): Word => ({ text, raw: text, unknown: false, glob: false });

/** Leading options per `spec`: where the operands start, and the options seen (with their values). Undefined when unsure. */
function options(words: Word[], spec: Wrapper, plus: boolean): { k: number; seen: Map<string, Word | null> } | undefined {
  const seen = new Map<string, Word | null>();
  let k = 1;
  for (; k < words.length; k++) {
    const w = words[k]!;
    const t = w.text;
    if (w.unknown || w.glob) return undefined; // might be an option, might be the command
    if (t === "--") return { k: k + 1, seen };
    if (t.startsWith("--")) {
      const eq = t.indexOf("=");
      const name = t.slice(2, eq < 0 ? undefined : eq);
      if (spec.long?.includes(name)) seen.set(name, eq < 0 ? null : literal(t.slice(eq + 1)));
      else if (spec.long?.includes(name + "=")) {
        const value = eq < 0 ? words[++k] : literal(t.slice(eq + 1));
        if (!value) return undefined;
        seen.set(name, value);
      } else return undefined;
      continue;
    }
    if (t === "-" && spec.flags.includes("-")) {
      seen.set("-", null);
      continue;
    }
    if (t.length < 2 || !(t.startsWith("-") || (plus && t.startsWith("+")))) break;
    for (let j = 1; j < t.length; j++) {
      const ch = t[j]!;
      if (spec.flags.includes(ch)) seen.set(ch, null);
      else if (spec.withArg?.includes(ch)) {
        const value = j + 1 < t.length ? literal(t.slice(j + 1)) : words[++k];
        if (!value) return undefined;
        seen.set(ch, value);
        break;
      } else return undefined;
    }
  }
  return { k, seen };
}
