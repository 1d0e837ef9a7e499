// What the bash tool tells the model beyond a command's output (SPEC §7): a command that needs a
// terminal is not started (it would wait until the timeout), and a result gets one line when the
// command did something other than it looks: dash rejected bash syntax or read it otherwise (a brace
// expansion left as written), or it ended with a `cd` or an `export` that the next call will not see.
// Pure: commands are read with the permission checker's shell reader.
import { readingOf } from "../permission/rules.ts";
import { parseCommand } from "../permission/shell-commands.ts";
import type { Segment } from "../permission/shell-model.ts";
import { stdinSources } from "../permission/shell-stdin.ts";
import type { ShellChoice } from "./shell.ts";

/** vi and the names it goes by (Debian's `editor` alternative is vi or nano: nano has no batch form for it to take). */
const VI = new Set(["vi", "vim", "nvim", "view", "vimdiff", "nvimdiff", "ex", "rvim", "rview", "vim.basic", "vim.tiny", "vim.nox", "editor"]);
/** Full-screen editors that wait for keys on a terminal whatever their input is (gvim only with -v: else it is a window). */
const EDITORS = new Set([...VI, "gvim", "nano", "pico", "micro", "joe", "jed", "ne", "mcedit", "hx", "helix", "kak"]);
/** A command that may run one of EDITORS (or git's difftool, mergetool): an editor's name as a word of its own (a path's last part too). */
const NAMES_AN_EDITOR = new RegExp(`(^|[^\\w.-])(${[...EDITORS, "difftool", "mergetool"].map((n) => n.replace(".", "\\.")).join("|")})($|[^\\w.-])`);
/** vi's modes that run without a terminal: silent Ex mode (`-es`, `-e -s`, `ex -s`), a script of keys (`-s FILE`), headless. */
const SILENT = /^(-[eE]?s|-s[eE]|--headless)$/;
/** vi's commands that end it: the last of a command's `-c CMD` and `+CMD` (`+%s/a/b/g|wq`). */
const QUITS = /^:?\s*(w?q(a|all)?|x(a|all|it)?|wq(a|all)?|exi(t)?|quit(all)?|cq)!?\s*$/;
/** What any of them prints and exits on, the editor never opened: `vim --version | head -1`, `nano -V`, `hx --health`. */
const PRINTS = /^(--version|--help|-h|--health)$/;
/** The editors whose -V is --version (vim's is verbose: it opens the editor). */
const DASH_V_VERSION = new Set(["nano", "pico", "hx", "helix"]);
/** git's tools that start vi on the files (`git difftool --tool=vimdiff`). */
const VI_TOOLS = /^(n|g)?vimdiff\d?$/;

/** Whether vi's `words` (after its name) run it without a terminal: a silent mode, or commands given that end with a quit. */
function viBatchWords(words: string[]): boolean {
  if (words.some((w) => SILENT.test(w))) return true;
  const commands: string[] = [];
  words.forEach((w, i) => {
    if (w === "-c" && i + 1 < words.length) commands.push(words[i + 1]!);
    else if (w.startsWith("+") && w.length > 1) commands.push(w.slice(1));
  });
  const last = commands.at(-1)?.split("|").at(-1);
  return last !== undefined && QUITS.test(last);
}

/** Ex mode (`ex`, `vim -e`, `vim -E`) fed its commands on stdin (`<`, `<<`, `<<<`, a pipe): it reads them and ends at end-of-input. */
function exFed(seg: Segment, name: string, words: string[]): boolean {
  if (name !== "ex" && !words.some((w) => w === "-e" || w === "-E")) return false;
  return seg.piped === true || stdinSources(seg).length > 0; // its own, or given by a group or loop around it
}

/** Whether vi's segment runs it without a terminal: viBatchWords, or Ex mode fed on stdin. */
function viBatchSegment(seg: Segment, name: string, words: string[]): boolean {
  return viBatchWords(words) || exFed(seg, name, words);
}

/** Whether a segment starts a full-screen editor: vi not in a batch form, another editor not asked to print and exit, git's difftool or mergetool with a vi tool. */
function startsEditor(seg: Segment): boolean {
  const name = programName(seg);
  const words = seg.words.slice(1).map((w) => w.text);
  if (name === "git") {
    const at = words.findIndex((w) => w === "difftool" || w === "mergetool");
    const rest = at < 0 ? [] : words.slice(at + 1);
    return rest.some((w, i) => VI_TOOLS.test(w.replace(/^--tool=/, "")) && (w.startsWith("--tool=") || /^(-t|--tool)$/.test(rest[i - 1] ?? "")));
  }
  if (name === undefined || !EDITORS.has(name) || (name === "gvim" && !words.includes("-v"))) return false;
  if (words.some((w) => PRINTS.test(w) || (w === "-V" && DASH_V_VERSION.has(name)))) return false;
  return !(VI.has(name) || name === "gvim") || !viBatchSegment(seg, name, words);
}

/** Why `command` is not run (it starts a full-screen editor, which would wait for keys until the timeout), or undefined. */
export function needsTerminal(command: string, shell: ShellChoice): string | undefined {
  if (!NAMES_AN_EDITOR.test(command)) return undefined; // most commands: no parse (the first costs ~14 ms)
  const editor = segmentsOf(command, shell)?.find(startsEditor);
  if (!editor) return undefined;
  const name = programName(editor);
  if (name === "git")
    return "not run: vimdiff is a full-screen editor and bash commands have no terminal (it would wait until the timeout). Read the change with git diff; resolve a conflict with edit";
  return `not run: ${name} is a full-screen editor and bash commands have no terminal (it would wait until the timeout). Change files with edit or write_file, or script it (sed -i, vim -es, or commands that end with a quit: vim -c 'normal dd' -c wq f)`;
}

/** Whether `command` runs vi in a batch form (`vim -es`, `vim -c … -c wq`): vim's no-terminal warning is then no sign that it waits. */
export function viBatch(command: string, shell: ShellChoice): boolean {
  if (!NAMES_AN_EDITOR.test(command)) return false;
  return (
    segmentsOf(command, shell)?.some((seg) => {
      const name = programName(seg);
      return (
        name !== undefined &&
        (VI.has(name) || name === "gvim") &&
        viBatchSegment(
          seg,
          name,
          seg.words.slice(1).map((w) => w.text),
        )
      );
    }) ?? false
  );
}

/**
 * What dash prints for bash syntax: `[[`, arrays, `${x:1}`/`${x//a/b}`, pipefail, `<<<`, `$((2**3))`,
 * bash's builtins and its `function` keyword (dash reads `function f {` on a line of its own as a command).
 */
const DASH_REJECTS =
  /\[\[: not found|Syntax error: "\(" unexpected|Illegal option -o pipefail|Bad substitution|Syntax error: redirection unexpected|arithmetic expression: expecting primary: "[^"\n]*\*\*|\b(source|declare|typeset|shopt|pushd|popd|mapfile|readarray|disown|let|function): not found/;
/** dash on `function f { …; }` in one line: `Syntax error: "}" unexpected` (said only when the command has the keyword). */
const DASH_FUNCTION = /Syntax error: "\}" unexpected/;
const FUNCTION_KEYWORD = /(^|[\s;&|(])function\s+[\w.:-]+\s*(\(\s*\))?\s*\{/;
/** dash's `[` on bash's `==`: `[: b: unexpected operator`, the test false (said only when the command has `==`). */
const DASH_TEST_EQUALS = /\[: .*: unexpected operator/;
/** A brace expansion as bash reads it, `{a,b}` or `{1..3}` (not `${…}`); the word around it is found by wordAround. */
const BRACES = /(?<!\$)\{[^{}\s$]*(,|\.\.)[^{}\s]*\}/;
/** What ends a shell word, for wordAround. */
const WORD_END = /[\s;&|()<>]/;
/** echo given `-e` (alone or among `-n`, `-ne`): bash's echo takes it, dash's prints it. */
const ECHO_E = /(^|[\s;&|(])echo(\s+-n)*\s+-[nE]*e[neE]*(?=\s|$)/;
/** bash's variables that dash leaves empty. */
const BASH_VARIABLES = /\$\{?(RANDOM|PIPESTATUS|BASH_SOURCE|BASH_REMATCH|SECONDS)\b/;
/** Here-document bodies: what the shell does not read as commands (a script written to a file). */
const HEREDOCS = /<<-?\s*(['"]?)(\w+)\1[^\n]*\n[\s\S]*?\n\t*\2(?=\n|$)/g;
/** Single-quoted text, where nothing expands (an awk program), and an escaped `\$`. */
const NOT_READ = /'[^']*'|\\\$/g;
/** bash's `$'…'` quoting (`$'caf\xE9.txt'`, as hey writes odd file names), which dash reads as `$` and '…'. */
const ANSI_C = /(^|[\s=;&|(])(\$'(?:[^'\\]|\\.)*')/;
/** Double-quoted text, where a brace or an option is no word of its own (a `$VAR` in it still expands). */
const DOUBLE_QUOTED = /"(?:[^"\\]|\\.)*"/g;

/**
 * What bash would have done that dash did otherwise without an error to show: a brace expansion
 * left as written (`mkdir -p src/{a,b}` makes one directory named so), `$'…'` read as `$` and text,
 * `echo -e` printing its `-e`, `$RANDOM` empty. Looked for outside quotes and here-documents (`bash -c '{a,b}'` is bash's).
 */
function dashQuietly(command: string): string[] {
  const code = command.replace(HEREDOCS, " ");
  const read = code.replace(NOT_READ, " ");
  const words = read.replace(DOUBLE_QUOTED, " ");
  const said: string[] = [];
  const ansi = ANSI_C.exec(code.replace(DOUBLE_QUOTED, " "))?.[2];
  if (ansi)
    said.push(
      `it has no $'…' quoting: \`${ansi.slice(0, 60)}\` was read as a $ then '…' (printf '\\351' writes a byte such as \\xE9; a glob, caf?.txt, names a file with one)`,
    );
  const braces = BRACES.exec(words);
  const braced = braces && wordAround(words, braces.index, braces.index + braces[0].length);
  if (braced) said.push(`it does no brace expansion: \`${braced.slice(0, 60)}\` stayed one word, as written`);
  if (ECHO_E.test(words)) said.push("its echo printed `-e` as text (and reads \\ escapes without it): printf '…\\n' works in both");
  const variable = BASH_VARIABLES.exec(read)?.[1];
  if (variable !== undefined) said.push(`$${variable} is bash's: empty in dash`);
  return said;
}

/** The word of `text` that holds `start`..`end`: scanned out from there, in time linear in the word. */
function wordAround(text: string, start: number, end: number): string {
  while (start > 0 && !WORD_END.test(text[start - 1]!)) start--;
  while (end < text.length && !WORD_END.test(text[end]!)) end++;
  return text.slice(start, end);
}

/** Builtins whose effect ends with the call: the next one starts in the working directory with hey's environment. */
const LOST = new Set(["cd", "pushd", "popd", "export", "unset", "alias", "source", "."]);
/** A word of LOST in a command, and an assignment at the start of one of its commands: the cheap look before a parse. */
const LOST_WORD = /(^|[\s;&|(`])(cd|pushd|popd|export|unset|alias|source|\.)($|[\s;&|)`])/;
const ASSIGNS = /(^|[;&|(\n]\s*)[A-Za-z_]\w*=/;
/** The builtins of LOST that change the directory. */
const MOVES = new Set(["cd", "pushd", "popd"]);

/**
 * One-line notes for a finished command: bash syntax dash rejected (`stderr` is where it says so)
 * or read otherwise without a word, and, when it succeeded (`exitCode` 0), a last `cd`/`export` the
 * next call will not see.
 */
export function commandNotes(command: string, stderr: string, shell: ShellChoice, exitCode = 0): string[] {
  const notes: string[] = [];
  if (shell.lacks) {
    const bash = shell.lacks.bash ? "run it with bash -c '…' or write" : "write";
    if (
      DASH_REJECTS.test(stderr) ||
      (DASH_TEST_EQUALS.test(stderr) && command.includes("==")) ||
      (DASH_FUNCTION.test(stderr) && FUNCTION_KEYWORD.test(command))
    ) {
      notes.push(
        `[the shell is dash, not bash: it rejected bash syntax above, so the command did not do what it says, whatever its exit code; ${bash} POSIX sh]`,
      );
    } else {
      const quiet = dashQuietly(command);
      if (quiet.length > 0) notes.push(`[the shell is dash, not bash: ${quiet.join("; ")}; ${bash} POSIX sh]`);
    }
  }
  // parsed only when a builtin of LOST or an assignment may end it: most commands need no parse
  const mayLose = exitCode === 0 && (LOST_WORD.test(command) || ASSIGNS.test(command));
  const top = mayLose ? segmentsOf(command, shell)?.filter((s) => !s.nested) : undefined;
  const last = top?.at(-1);
  const name = last && (last.words.length === 0 && last.assigns.length > 0 ? "=" : programName(last));
  // `cd sub; make; cd ..` went back itself: a last cd is said to be lost only when it is the command's one move
  const moved = (seg: Segment) => MOVES.has(programName(seg) ?? "");
  const wentBack = last !== undefined && moved(last) && top!.slice(0, -1).some(moved);
  if (notes.length === 0 && last && name !== undefined && (LOST.has(name) || name === "=") && !wentBack) {
    const what = last.raw.trim().slice(0, 80);
    notes.push(`[\`${what}\` lasts for this call only: the next bash call starts in the working directory with hey's environment; chain it: ${what} && …]`);
  }
  return notes;
}

function segmentsOf(command: string, shell: ShellChoice): Segment[] | undefined {
  const reading = readingOf(shell.name);
  if (reading === undefined || reading === "powershell") return undefined;
  const parsed = parseCommand(command, reading);
  return parsed.ok ? parsed.segments : undefined;
}

/** The program a segment runs, by its base name, when its first word is known. */
function programName(seg: Segment): string | undefined {
  const first = seg.words[0];
  if (!first || first.unknown || first.glob) return undefined;
  return first.text.slice(first.text.lastIndexOf("/") + 1);
}
