// Text a shell will run that a command hands to another program (SPEC §8; judged by the deny list
// and, under every list, by the control checks: control-refusal.ts): a script
// the same command writes and then runs with sh, bash or dash (or as a file whose first line names
// one, or none), a git config value git runs with the shell (`-c alias.x='!cmd'`,
// `core.sshCommand`, `diff.external`, `core.fsmonitor`… and the GIT_* variables that set them), and
// the recipes of a makefile the command writes or gives make on stdin. rules.ts reads each with
// hey's own shell reader and judges its commands as it judges `sh -c` text, so quoting that splits a
// name (`r''m`, `r\m`, `${x}m`) hides nothing. Text whose value is known only when it runs is
// "unknown". Pure.
import type { ControlFiles } from "./control-files.ts";
import { gitShellTexts, type GitTrust } from "./git-texts.ts";
import { program } from "./match.ts";
import type { Reading } from "./shell-commands.ts";
import { known, type Segment, type Word } from "./shell-model.ts";
import type { WrittenScript } from "./written-scripts.ts";
import { stdinSources } from "./shell-stdin.ts";
import { submoduleUpdates } from "./submodule-updates.ts";
import { stdinText } from "./written-text.ts";

/** Shell text to judge: what runs it, for messages (`git's core.pager`), and how it is read. */
export interface ShellText {
  text: string;
  from: string;
  reading: Reading;
}

/** The shells a script is read as, by program name (shell-commands.ts reads the same three). */
const SHELLS: Record<string, Reading> = { sh: "sh", bash: "bash", rbash: "bash", dash: "dash" };
/** Programs that run a file given to them as a program (execve), which reads its `#!` line. */
const EXECUTES = new Set(["", "env", "nohup", "timeout", "nice"]);
/** Shells the checker does not read: a script run by one cannot be verified. */
const UNREAD = new Set(["zsh", "ksh", "mksh", "fish"]);
/**
 * The shell text a segment hands on, or why some of it is known only at run time. `script`: the
 * file it runs that the command wrote (written-scripts.ts); `trust`: how far git's own options are
 * trusted (git-texts.ts GitTrust); `control`: where git's config is read from (submodule-updates.ts).
 */
export function shellTexts(
  seg: Segment,
  script: WrittenScript | undefined,
  segments: Segment[],
  trust: GitTrust = "deny",
  control?: ControlFiles,
): ShellText[] | { unknown: string } {
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
    const input = stdinText(stdinSources(seg));
    if (!input && seg.piped) return { unknown: "gives make a makefile from a pipe, which the rules cannot see" };
    if (input && "why" in input) return { unknown: `make reads a makefile that ${input.why.replace(/^writes/, "comes")}` };
    const recipes = input ? makeRecipes(input.text) : [];
    if ("unknown" in recipes) return recipes;
    out.push(...recipes.map((text) => ({ text, from: "gives make a makefile on stdin", reading: "sh" as const })));
  }
  if (name === "git") {
    const git = gitShellTexts(seg, segments, trust, { home: control?.home, updates: submoduleUpdates(seg, segments, control) });
    if ("unknown" in git) return git;
    out.push(...git.map((t) => ({ ...t, reading: "sh" as const })));
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
  if (/^\s*[-s]?include\s/m.test(text)) return { unknown: "its makefile includes another makefile, which the rules cannot see" };
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
