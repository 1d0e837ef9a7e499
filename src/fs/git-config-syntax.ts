// A git config file's settings, read as git reads them (git-config(1) "Syntax", git's config.c):
// sections `[name]`, `[name "sub"]` or the old `[name.sub]`, section and key names in any case, a
// key alone meaning true, values with their quotes removed and escapes (`\"`, `\\`, `\n`, `\t`,
// `\b`, a `\` ending the line) resolved, blanks outside quotes kept inside the value but not at its
// ends, `#`/`;` comments outside quotes. Git stops at the first line it cannot read (and refuses to
// run): so does this reader, saying which line. Also whether an `[includeIf "COND"]` is met
// (includeConditionMet). Pure: fs/git-config-files.ts reads the files.
import { globToRegExp } from "./gitignore.ts";

/** One setting: `section.sub.key = value`; section and key lowercased, sub as written (lowercased in the `[name.sub]` form), value undefined for a key alone. */
export interface GitConfigEntry {
  section: string;
  sub: string | undefined;
  key: string;
  value: string | undefined;
}

/** A file's settings in order, up to `badLine`, the first line git cannot read (it stops there), when there is one. */
export interface GitConfigParse {
  entries: GitConfigEntry[];
  badLine?: number;
}

const isSpace = (c: string | undefined) => c === " " || c === "\t" || c === "\n" || c === "\v" || c === "\f" || c === "\r";
const isKeyChar = (c: string | undefined) => c !== undefined && /[A-Za-z0-9-]/.test(c);
const ESCAPES: Record<string, string> = { n: "\n", t: "\t", b: "\b", "\\": "\\", '"': '"' };

export function parseGitConfig(text: string): GitConfigParse {
  const s = text.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
  const entries: GitConfigEntry[] = [];
  let i = 0;
  let line = 1;
  let base: string | undefined; // `section` or `section.sub`, as git names it
  const bad = (): GitConfigParse => ({ entries, badLine: line });

  /** `[…]` from after the `[`: the section's name, or undefined where git stops. */
  const header = (): string | undefined => {
    let name = "";
    for (;;) {
      const c = s[i++];
      if (c === undefined || c === "\n") return undefined;
      if (c === "]") return name.toLowerCase();
      if (isSpace(c)) break;
      if (!isKeyChar(c) && c !== ".") return undefined;
      name += c;
    }
    while (s[i] === " " || s[i] === "\t") i++;
    if (s[i++] !== '"') return undefined;
    let sub = "";
    for (;;) {
      let c = s[i++];
      if (c === undefined || c === "\n") return undefined;
      if (c === '"') break;
      if (c === "\\") c = s[i++];
      if (c === undefined || c === "\n") return undefined;
      sub += c;
    }
    return s[i++] === "]" ? `${name.toLowerCase()}.${sub}` : undefined;
  };

  /** A value from after the `=`, to the end of its line (lines a `\` joins); undefined where git stops. */
  const value = (): string | undefined => {
    let out = "";
    let quoted = false;
    let comment = false;
    let spaces = 0;
    for (;;) {
      const c = s[i++] ?? "\n"; // the end of the text ends the line
      if (c === "\n") {
        if (quoted) return undefined; // the line the quote opened on is the bad one
        if (i <= s.length) line++;
        return out;
      }
      if (comment) continue;
      if (isSpace(c) && !quoted) {
        if (out) spaces++;
        continue;
      }
      if (!quoted && (c === "#" || c === ";")) {
        comment = true;
        continue;
      }
      out += " ".repeat(spaces);
      spaces = 0;
      if (c === "\\") {
        const next = s[i++];
        if (next === "\n") {
          line++;
          continue;
        }
        const escaped = next === undefined ? undefined : ESCAPES[next];
        if (escaped === undefined) return undefined;
        out += escaped;
      } else if (c === '"') quoted = !quoted;
      else out += c;
    }
  };

  while (i < s.length) {
    const c = s[i]!;
    if (c === "\n") line++;
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (c === "#" || c === ";") {
      while (i < s.length && s[i] !== "\n") i++;
      continue;
    }
    if (c === "[") {
      i++;
      base = header();
      if (base === undefined) return bad();
      continue;
    }
    if (!/[A-Za-z]/.test(c) || base === undefined) return bad();
    const start = i;
    while (isKeyChar(s[i])) i++;
    const key = s.slice(start, i).toLowerCase();
    while (s[i] === " " || s[i] === "\t") i++;
    let v: string | undefined;
    if (s[i] === "=") {
      i++;
      v = value();
      if (v === undefined) return bad();
    } else if (i < s.length && s[i] !== "\n") return bad();
    const dot = base.indexOf(".");
    entries.push({ section: dot < 0 ? base : base.slice(0, dot), sub: dot < 0 ? undefined : base.slice(dot + 1), key, value: v });
  }
  return { entries };
}

/** What an `[includeIf "COND"]` is weighed against: the repository's git directory (the paths it may be known by) and its branch. */
export interface IncludeContext {
  /** absolute paths of the repository's git directory (`.git`, or a worktree's `.git/worktrees/NAME`): as found and real */
  gitDirs: string[];
  /** the checked-out branch (`main`, from HEAD's `refs/heads/main`), undefined when HEAD is detached or unknown */
  branch: string | undefined;
  /** the user's home, for `~/` */
  home: string;
  /** every `remote.NAME.url` of the config (read without `hasconfig:` includes, as git collects them), for `hasconfig:remote.*.url:` */
  remoteUrls: string[];
}

/**
 * Whether `cond` (`gitdir:~/work/`, `gitdir/i:…`, `onbranch:feature/`, `hasconfig:remote.*.url:…`), found in the config file
 * `file` (undefined when not from a file), is met, as git-config(1) "Conditional includes" says: a
 * `gitdir` pattern starting `~/` is below home, `./` beside the file, any other relative one
 * matches at any depth, one ending in `/` matches all below (`**` after it),
 * matched as git's wildmatch does with `*` not crossing `/`; `hasconfig:remote.*.url:GLOB` is met
 * when a remote's URL matches. Any condition git does not know is not met.
 */
export function includeConditionMet(cond: string, file: string | undefined, at: IncludeContext): boolean {
  const [, kind, pattern] = /^(gitdir|gitdir\/i|onbranch|hasconfig:remote\.\*\.url):(.*)$/s.exec(cond) ?? [];
  if (kind === undefined || pattern === undefined) return false;
  if (kind.startsWith("hasconfig")) return at.remoteUrls.some((url) => wildmatch(pattern, url, false));
  if (kind === "onbranch") return at.branch !== undefined && wildmatch(pattern.endsWith("/") ? `${pattern}**` : pattern, at.branch, false);
  let glob = pattern;
  if (glob.startsWith("~/")) glob = `${at.home.replace(/\/$/, "")}/${glob.slice(2)}`;
  else if (glob.startsWith("./")) {
    if (file === undefined) return false;
    glob = `${file.slice(0, file.lastIndexOf("/"))}/${glob.slice(2)}`;
  } else if (!glob.startsWith("/")) glob = `**/${glob}`;
  if (glob.endsWith("/")) glob += "**";
  return at.gitDirs.some((dir) => wildmatch(glob, dir, kind === "gitdir/i"));
}

/** git's wildmatch with WM_PATHNAME, by way of gitignore.ts's globs (which also read `{a,b}`: git's `{` is a plain character). */
function wildmatch(glob: string, text: string, caseFold: boolean): boolean {
  const re = globToRegExp(glob.replace(/[{},]/g, "\\$&"));
  return re !== undefined && new RegExp(re.source, caseFold ? `${re.flags}i` : re.flags).test(text);
}
