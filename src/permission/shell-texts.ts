// Text a shell will run that a command hands to another program (SPEC §8, deny lists): a script
// the same command writes and then runs with sh, bash or dash (or as a file whose first line names
// one, or none), a git config value git runs with the shell (`-c alias.x='!cmd'`,
// `core.sshCommand`, `diff.external`, `core.fsmonitor`… and the GIT_* variables that set them), and
// the recipes of a makefile the command writes or gives make on stdin. rules.ts reads each with
// hey's own shell reader and judges its commands as it judges `sh -c` text, so quoting that splits a
// name (`r''m`, `r\m`, `${x}m`) hides nothing. Text whose value is known only when it runs is
// "unknown". Pure.
import { NEXT } from "./git.ts";
import { program } from "./match.ts";
import type { Reading } from "./shell-commands.ts";
import type { Segment, Word } from "./shell-model.ts";
import type { WrittenScript } from "./written-scripts.ts";
import { stdinText } from "./written-text.ts";

/** Shell text to judge: what runs it, for messages (`git's core.pager`), and how it is read. */
export interface ShellText {
  text: string;
  from: string;
  reading: Reading;
}

const known = (w: Word | undefined): w is Word => !!w && !w.unknown && !w.glob && !w.anyValue;
/** The shells a script is read as, by program name (shell-commands.ts reads the same three). */
const SHELLS: Record<string, Reading> = { sh: "sh", bash: "bash", rbash: "bash", dash: "dash" };
/** Programs that run a file given to them as a program (execve), which reads its `#!` line. */
const EXECUTES = new Set(["", "env", "nohup", "timeout", "nice"]);
/** Shells the checker does not read: a script run by one cannot be verified. */
const UNREAD = new Set(["zsh", "ksh", "mksh", "fish"]);
/**
 * git config keys whose value git runs with the shell (git-config(1)): aliases starting with `!`
 * and credential helpers starting with `!` are handled apart.
 */
const GIT_SHELL_KEYS =
  /^(core\.(sshcommand|pager|editor|fsmonitor|askpass|gitproxy)|pager\..+|sequence\.editor|diff\.external|diff\..+\.(command|textconv)|filter\..+\.(clean|smudge|process)|merge\..+\.driver|(diff|merge)tool\..+\.cmd|remote\..+\.(uploadpack|receivepack)|uploadpack\.packobjectshook|web\.browser|browser\..+\.cmd|sendemail\.(sendmailcmd|tocmd|cccmd))$/i;
/** Variables git reads as a command it runs with the shell. */
const GIT_SHELL_VARS = new Set([
  "GIT_SSH_COMMAND",
  "GIT_PAGER",
  "GIT_EDITOR",
  "GIT_SEQUENCE_EDITOR",
  "GIT_EXTERNAL_DIFF",
  "GIT_ASKPASS",
  "PAGER",
  "EDITOR",
  "VISUAL",
]);

/** The shell text a segment hands on, or why some of it is known only at run time. `script`: the file it runs that the command wrote (written-scripts.ts). */
export function shellTexts(seg: Segment, script: WrittenScript | undefined, segments: Segment[]): ShellText[] | { unknown: string } {
  const first = seg.words[0];
  if (!known(first) || seg.inert) return [];
  const name = program(first.text);
  const out: ShellText[] = [];
  if (script) {
    const read = scriptReading(script);
    if (read === "unread") return { unknown: `runs \`${script.file.raw}\`, a script for a shell hey does not read` };
    if (read === "make") {
      const recipes = makeRecipes(script.text);
      if ("unknown" in recipes) return recipes;
      out.push(...recipes.map((text) => ({ text, from: `runs the makefile \`${script.file.raw}\`, which this command writes`, reading: "sh" as const })));
    } else if (read) out.push({ text: script.text, from: `runs \`${script.file.raw}\`, which this command writes`, reading: read });
  }
  if (name === "make" && readsStdin(seg.words)) {
    const input = stdinText(seg.redirects);
    if (input && "why" in input) return { unknown: `make reads a makefile that ${input.why.replace(/^writes/, "comes")}` };
    const recipes = input ? makeRecipes(input.text) : [];
    if ("unknown" in recipes) return recipes;
    out.push(...recipes.map((text) => ({ text, from: "gives make a makefile on stdin", reading: "sh" as const })));
  }
  if (name === "git") {
    const git = gitShellTexts(seg, segments);
    if ("unknown" in git) return git;
    out.push(...git);
  }
  return out;
}

/** A makefile named as make's stdin. */
const STDIN = /^(-|\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0)$/;
const MAKEFILE = /^(-f|--file=|--makefile=)/;
const readsStdin = (words: Word[]) =>
  words.some((w, i) =>
    known(w) && /^(-f|--file|--makefile)$/.test(words[i - 1]?.text ?? "")
      ? STDIN.test(w.text)
      : MAKEFILE.test(w.text) && STDIN.test(w.text.replace(MAKEFILE, "")),
  );

/** How a written script is read: by the shell that runs it, by the shell its `#!` line names (none: sh), as a makefile, or not at all (undefined). */
function scriptReading({ runner, text }: WrittenScript): Reading | "make" | "unread" | undefined {
  if (Object.hasOwn(SHELLS, runner)) return SHELLS[runner];
  if (UNREAD.has(runner)) return "unread";
  if (runner === "make") return "make";
  if (!EXECUTES.has(runner)) return undefined;
  const line = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(text);
  if (!line) return "sh"; // a file without `#!` that the kernel cannot run is run by the shell
  const shell = program(program(line[1]!) === "env" ? (line[2] ?? "") : line[1]!);
  return Object.hasOwn(SHELLS, shell) ? SHELLS[shell] : UNREAD.has(shell) ? "unread" : undefined;
}

/**
 * The recipe lines of a makefile, each as make gives it to the shell (`@`, `-`, `+` dropped, `$$`
 * as `$`). A `$` that make expands itself (a variable, `$(shell …)`) or a SHELL set in the file:
 * unknown.
 */
export function makeRecipes(text: string): string[] | { unknown: string } {
  if (/\$[^$]/.test(text.replace(/\$\$/g, ""))) return { unknown: "make expands a variable or function in its makefile, known only at run time" };
  if (/^\s*(export\s+|override\s+)?(SHELL|\.SHELLFLAGS)\s*[:+?!]?=/m.test(text)) return { unknown: "its makefile sets the shell make runs recipes with" };
  const recipes: string[] = [];
  // backslash-newline inside a recipe reaches the shell as written, the next line's leading tab removed
  const lines = text.replace(/\\\n\t/g, "\\\n").split("\n");
  for (const line of lines) {
    const rule = /^[^\t#=]*?:(?!=)[^;=]*;(.*)$/.exec(line);
    const recipe = line.startsWith("\t") ? line.slice(1) : rule?.[1];
    if (recipe !== undefined) recipes.push(recipe.replace(/^[\s@+-]+/, "").replace(/\$\$/g, "$"));
  }
  return recipes.filter((r) => r.trim());
}

/** The values of git's `-c KEY=VALUE`, `git config KEY VALUE` and leading GIT_* assignments that git runs with the shell. */
function gitShellTexts(seg: Segment, segments: Segment[]): ShellText[] | { unknown: string } {
  const out: ShellText[] = [];
  for (const a of seg.assigns) {
    const eq = a.text.indexOf("=");
    if (eq < 0 || !GIT_SHELL_VARS.has(a.text.slice(0, eq))) continue;
    if (a.unknown || a.glob || a.anyValue) return { unknown: `sets a command git runs, known only at run time: \`${a.raw}\`` };
    out.push({ text: a.text.slice(eq + 1), from: `sets ${a.text.slice(0, eq)}, which git runs with the shell`, reading: "sh" });
  }
  const words = seg.words;
  let k = 1;
  for (; k < words.length; k++) {
    const w = words[k]!;
    if (!known(w) || !w.text.startsWith("-")) break;
    const env = /^--config-env(=|$)/.test(w.text);
    if (w.text !== "-c" && !env) {
      if (NEXT.has(w.text)) k++;
      continue;
    }
    const value = env && w.text.includes("=") ? { ...w, text: w.text.slice(w.text.indexOf("=") + 1), raw: w.raw.slice(w.raw.indexOf("=") + 1) } : words[++k];
    if (!value) break;
    // `--config-env=KEY=VAR` reads VAR from the environment hey started with, the user's, unless the command sets it
    const name = env ? /=([A-Za-z_][A-Za-z0-9_]*)$/.exec(value.text)?.[1] : undefined;
    const set = !name || seg.assigns.some((a) => a.text.startsWith(`${name}=`)) || segments.some((s) => s !== seg && s.raw.includes(name));
    const setting = env && !set ? undefined : gitSetting(value, env);
    if (setting && "unknown" in setting) return setting;
    if (setting) out.push(setting);
  }
  // `git config [options] KEY VALUE`: a command the next git runs
  if (known(words[k]) && words[k]!.text === "config") {
    const operands: Word[] = [];
    for (let i = k + 1; i < words.length; i++) {
      const w = words[i]!;
      if (known(w) && w.text.startsWith("-")) {
        if (/^(-f|--file|--blob|--type|--default|--comment|--value)$/.test(w.text)) i++;
        continue;
      }
      operands.push(w);
    }
    const [key, value] = operands;
    if (key && value) {
      const setting = gitSetting({ ...value, text: `${key.text}=${value.text}`, raw: `${key.raw}=${value.raw}`, unknown: key.unknown || value.unknown }, false);
      if (setting && "unknown" in setting) return setting;
      if (setting) out.push(setting);
    }
  }
  return out;
}

/** A `KEY=VALUE` git runs with the shell (GIT_SHELL_KEYS, an alias or helper starting with `!`): its command; `env`: VALUE names a variable. */
function gitSetting(value: Word, env: boolean): ShellText | { unknown: string } | undefined {
  const eq = value.text.indexOf("=");
  const runs = (key: string) => GIT_SHELL_KEYS.test(key) || /^(alias|credential)\./i.test(key);
  if (env || value.unknown || value.glob || value.anyValue) {
    // `-c core.pager=$P`, `--config-env=alias.x=VAR`: a command known only at run time; `-c "$CFG"` could be any key
    const key = /^[A-Za-z0-9.-]+(?==)/.exec(env ? value.text : value.raw)?.[0];
    return !key || runs(key) ? { unknown: `sets a command git runs, known only at run time: \`${value.raw}\`` } : undefined;
  }
  const key = (eq < 0 ? value.text : value.text.slice(0, eq)).toLowerCase();
  const v = eq < 0 ? "" : value.text.slice(eq + 1);
  const bang = /^(alias\..+|credential(\..+)?\.helper)$/.test(key);
  if (bang ? !v.startsWith("!") : !GIT_SHELL_KEYS.test(key)) return undefined;
  return { text: bang ? v.slice(1) : v, from: `sets git's ${key}, which git runs with the shell`, reading: "sh" };
}
