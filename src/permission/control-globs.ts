// Words that name a file only once the shell has run (issue 24, a red-team report): a glob
// (`cp x .g?t/config`, `mv ~/.local/stat? junk`) expands to whatever matches on disk, and a word
// holding a variable or a substitution (`cp x $d/config`) is anything. Each is compared with the
// paths the control-file guard keeps (control-arguments.ts), shell glob semantics per path
// component: `?`, `*`, `[…]`, braces expanded, `**` not special, and a leading `.` matched only
// by a `.` or a bracket that may hold one (unless the script turns on `dotglob`). Pure.
import { fixed, type Segment, type Word } from "./shell-model.ts";

/** git's hooks (githooks(5)): a file of one of these names in a hooks directory runs at the next git command. */
const HOOKS =
  "applypatch-msg,pre-applypatch,post-applypatch,pre-commit,pre-merge-commit,prepare-commit-msg,commit-msg,post-commit,pre-rebase,post-checkout,post-merge,pre-push,pre-receive,update,proc-receive,post-receive,post-update,reference-transaction,push-to-checkout,pre-auto-gc,post-rewrite,sendemail-validate,fsmonitor-watchman,post-index-change,p4-changelist,p4-prepare-changelist,p4-post-changelist,p4-pre-submit";

/** The names in git's own directory that run commands or point git elsewhere, `.git` itself among them. */
export const GIT_NAMES = [".git", "git~1", "config", "hooks", "commondir", "gitdir", ...HOOKS.split(",")];

const MAX_BRACES = 64; // words a brace expansion may give before the whole braced part counts as `*`

/** `a{b,c}d` as `abd`, `acd` (nested too); a sequence (`{1..9}`) or too many words: that part as `*`. */
export function expandBraces(text: string): string[] {
  const open = text.indexOf("{");
  if (open < 0) return [text];
  let depth = 0;
  const commas: number[] = [];
  let close = -1;
  for (let i = open; i < text.length && close < 0; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}" && --depth === 0) close = i;
    else if (text[i] === "," && depth === 1) commas.push(i);
  }
  if (close < 0 || (!commas.length && !text.slice(open, close).includes(".."))) return [text]; // `{}`: no expansion
  const head = text.slice(0, open);
  const rest = expandBraces(text.slice(close + 1));
  const cuts = [open, ...commas, close];
  const parts = commas.length ? cuts.slice(1).flatMap((c, k) => expandBraces(text.slice(cuts[k]! + 1, c))) : ["*"];
  const out = parts.flatMap((p) => rest.map((r) => head + p + r));
  return out.length > MAX_BRACES ? [`${head}*${text.slice(close + 1)}`] : out;
}

/** A regular expression for one path component written as a glob; `any` (a run-time part, shown as \0) matches anything, `/` too. */
function componentRegex(glob: string, dotglob: boolean, fold: boolean): RegExp {
  let out = "";
  let i = 0;
  for (; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "\0") out += ".*";
    else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end < 0) out += "\\[";
      else {
        const body = glob
          .slice(i + 1, end)
          .replace(/^[!^]/, "^")
          .replace(/[\\\]]/g, "\\$&");
        out += `[${body}]`;
        i = end;
      }
    } else out += c.replace(/[.+^${}()|\\\]]/g, "\\$&");
  }
  // a leading `.` is matched only by a `.`, a run-time part or a bracket that may hold one
  const lead = glob[0] === "*" || glob[0] === "?" || (glob[0] === "[" && !/^\[[^\]]*\./.test(glob));
  return new RegExp(`^${lead && !dotglob ? "(?!\\.)" : ""}${out}$`, fold ? "is" : "s");
}

/** Whether the glob component could match the name. */
export const matchesName = (glob: string, name: string, dotglob = false) => componentRegex(glob, dotglob, true).test(name);

/**
 * Whether the glob path `pattern` (absolute, normalized, braces expanded) could name `path` (`under`:
 * or anything below it), component by component.
 */
export function matchesPath(pattern: string, path: string, under: boolean, opts: { dotglob: boolean; fold: boolean }): boolean {
  const p = pattern.split(/[\\/]/).filter(Boolean);
  const t = path.split(/[\\/]/).filter(Boolean);
  if (p.length < t.length || (!under && p.length !== t.length)) return false;
  return t.every((name, k) => componentRegex(p[k]!, opts.dotglob, opts.fold).test(name));
}

/** Whether the glob path could name `dir` itself or a file directly in it (a PATH directory: programs are looked up there, not below). */
export const matchesDirectly = (pattern: string, dir: string, opts: { dotglob: boolean; fold: boolean }) =>
  matchesPath(pattern, dir, false, opts) ||
  (matchesPath(pattern, dir, true, opts) && pattern.split(/[\\/]/).filter(Boolean).length === dir.split(/[\\/]/).filter(Boolean).length + 1);

/** A word with run-time parts (`$d/config`, `"$(printf .gi)t"`, `` `x` ``) as a glob whose run-time parts are \0; quotes dropped. */
export function runtimeGlob(raw: string): string {
  return raw.replace(/\$\(.*\)|`[^`]*`|\$\{[^}]*\}|\$[A-Za-z_]\w*|\$[0-9@*#?$!-]|\$'(?:[^'\\]|\\.)*'/g, "\0").replace(/["'\\]/g, "");
}

/** The variables whose values the commands get from hey and the checker knows: assigning one makes the rest of a script unknown (variables.ts), so a word reads them as hey passes them. */
export const KNOWN_VARIABLES = ["HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "TMPDIR"];

/**
 * A word with the known variables (`vars`, KNOWN_VARIABLES) put in as the shell would: `"$HOME/.config/git"`,
 * `${HOME}/.local`, `"${XDG_CONFIG_HOME:-$HOME/.config}/git"` (a default or `=` taken when the variable is unset,
 * `:-` also when empty); decided once nothing known only at run time is left, else still run-time, its known
 * parts written out. A word with single quotes, backslashes or backquotes stays as it is.
 */
export function knownVariables(w: Word, vars: Readonly<Record<string, string | undefined>>): Word {
  if (!w.unknown || w.anyValue || /['\\`]/.test(w.raw)) return w;
  const known = (name: string) => KNOWN_VARIABLES.includes(name);
  const put = (text: string): string =>
    text.replace(/\$\{([A-Za-z_]\w*)(?:(:?)([-=])((?:[^{}]|\{[^{}]*\})*))?\}|\$([A-Za-z_]\w*)(?!\w)/g, (all, braced, colon, op, fallback, bare) => {
      const name = braced ?? bare;
      if (!known(name)) return all;
      const value = vars[name];
      if (op === undefined) return value ?? all;
      return value === undefined || (colon && value === "") ? put(fallback) : value;
    });
  const raw = put(w.raw);
  if (raw === w.raw) return w;
  const text = raw.replace(/"/g, "");
  return /\$/.test(raw) ? { ...w, raw, text } : { ...w, raw, text, unknown: false };
}

/** The last path component of a glob (a run-time part may hold `/`: its text after the last literal one). */
export const lastComponent = (glob: string) =>
  glob
    .replace(/[\\/]+$/, "")
    .split(/[\\/]/)
    .pop() ?? "";

/** Builtins that run code or set options from words: any word only the run knows (`shopt -s "$O"`, `eval "$x"`), or a script they read (`. ./env.sh`), could turn an option on. */
const RUNNERS = new Set(["shopt", "eval", "source", "."]);
/** Builtins that set the variables their words name (`declare "${x}IGNORE=1"`): a name only the run knows could be GLOBIGNORE. */
const DECLARERS = new Set(["declare", "typeset", "export", "local", "readonly", "read", "mapfile", "readarray"]);
const NAMED = /^[A-Za-z_][A-Za-z0-9_]*(\+?=|$)/; // a word whose variable name is written out (its value may be anything)

/** How bash could match the script's globs: `dotglob` (`*` and `?` match a leading `.`), `nocase` (letters match either case). */
export type GlobOptions = { dotglob: boolean; nocase: boolean };

/**
 * The bash options that could make the script's globs match more: a word naming dotglob or GLOBIGNORE
 * (which turns it on), or nocaseglob (`CONFIG.TOM?` matches config.toml, x157 #1; nocasematch too, to
 * be safe) — read after quotes go, so `shopt -s dot''glob` counts (x151 #5) — and both for a builtin
 * that could set them from a word only the run knows or from a script (`shopt -s "$O"`, `. ./env.sh`),
 * a command only the run knows given such a word, or code no rule can see. Every glob check reads
 * this one helper.
 */
export function globOptions(segments: Segment[]): GlobOptions {
  const naming = (re: RegExp) => segments.some((s) => [...s.assigns, ...s.words].some((w) => re.test(w.text)));
  const anything = segments.some((s) => {
    if (s.opaque !== undefined || s.unverified !== undefined) return true;
    const [first, ...args] = s.words;
    if (!first) return false;
    if (!fixed(first)) return args.some((w) => !fixed(w));
    if (first.text === "source" || first.text === ".") return true;
    if (RUNNERS.has(first.text)) return args.some((w) => !fixed(w));
    // `printf -v NAME`: the word after `-v` is a name
    const named = first.text === "printf" ? args.filter((_, k) => args[k - 1]?.text === "-v") : DECLARERS.has(first.text) ? args : [];
    return named.some((w) => !fixed(w) && !NAMED.test(w.raw));
  });
  return { dotglob: anything || naming(/dotglob|GLOBIGNORE/i), nocase: anything || naming(/nocase(glob|match)/i) };
}

/** Whether bash's dotglob could be on for the script's globs (globOptions). */
export const dotglobOn = (segments: Segment[]) => globOptions(segments).dotglob;

const MAX_MATCHES = 256; // paths a loop's glob may match before the checker stops following them

/**
 * The paths the absolute POSIX glob path `pattern` (normalized, braces expanded) matches now, as bash
 * expands it: a name with no glob character as written, the others among `names` (a directory's
 * entries, links followed, none when it is no directory; `.` and `..` too for a name written with a
 * leading `.`); `unknown`: a listing did not answer in time, or too many matched.
 */
export function globMatches(
  pattern: string,
  names: (dir: string) => string[] | undefined | { unknown: string },
  opts: { dotglob: boolean; fold: boolean },
): string[] | { unknown: string } {
  let paths = [""];
  for (const part of pattern.split("/").filter(Boolean)) {
    if (!/[*?[]/.test(part)) {
      paths = paths.map((p) => `${p}/${part}`);
      continue;
    }
    const name = componentRegex(part, opts.dotglob, opts.fold);
    const next: string[] = [];
    for (const p of paths) {
      const listed = names(p || "/");
      if (listed === undefined) continue;
      if (!Array.isArray(listed)) return listed;
      next.push(...(part.startsWith(".") ? [".", "..", ...listed] : listed).filter((n) => name.test(n)).map((n) => `${p}/${n}`));
      if (next.length > MAX_MATCHES) return { unknown: `\`${part}\` matches more than ${MAX_MATCHES} names` };
    }
    paths = next;
  }
  return paths;
}
