// .gitignore matching (SPEC §7 grep) with the semantics of ripgrep's `ignore` crate, so that the
// built-in walker and ripgrep leave the same files in; `.ignore`, `.rgignore`, `.git/info/exclude`
// and the global excludes file hold the same rules and are weighed here too (isIgnored). Globs
// follow its `globset` dialect: `*` and `?` never cross `/`, `**` spans directories only as a whole
// path component, `[...]` classes (`!` or `^` negates), `{a,b}` alternatives, `\` escapes.

/** "ignore" or "keep" (a `!` rule) from the last rule that matched, undefined when none did. */
export type Verdict = "ignore" | "keep" | undefined;

/** The rules of one .gitignore; `relPath` is relative to that file's directory, `/`-separated. */
export type IgnoreRules = (relPath: string, isDir: boolean) => Verdict;

interface Rule {
  re: RegExp;
  keep: boolean;
  dirOnly: boolean;
}

/**
 * Compiles the lines of one .gitignore. Lines that are not valid globs are skipped, as git and
 * ripgrep do; never throws. The last matching rule wins.
 */
export function compileIgnore(lines: readonly string[]): IgnoreRules {
  const rules: Rule[] = [];
  lines.forEach((line, i) => {
    const rule = parseRule(i === 0 ? line.replace(/^\uFEFF/, "") : line);
    if (rule) rules.push(rule);
  });
  return (relPath, isDir) => {
    for (let i = rules.length - 1; i >= 0; i--) {
      const rule = rules[i]!;
      if ((isDir || !rule.dirOnly) && rule.re.test(relPath)) return rule.keep ? "keep" : "ignore";
    }
    return undefined;
  };
}

/** One directory on the way from a path up to the filesystem root, with the ignore files it holds. */
export interface IgnoreLevel {
  /** the directory, in the same coordinates as the paths tested (e.g. absolute, `/`-separated) */
  dir: string;
  /** its .gitignore, if it has one */
  rules?: IgnoreRules;
  /** `.git/info/exclude`, read where `.git` is (a repository root) */
  exclude?: IgnoreRules;
  /** its `.ignore`, which applies with or without git */
  ignore?: IgnoreRules;
  /** its `.rgignore`, ripgrep's own file, which outranks every other */
  rgignore?: IgnoreRules;
  /** it contains `.git`: .gitignore files above a repository root do not apply inside it */
  hasGit: boolean;
}

/**
 * Whether `path` is ignored, given the directories above it, nearest first, and the global excludes
 * file (`global`, matched against the whole path), with ripgrep's precedence: for each kind of file
 * the nearest one with a matching rule decides, and a kind that decides outranks the ones after it:
 * `.rgignore`, `.ignore`, `.gitignore`, `.git/info/exclude`, the global file. The git kinds stop at
 * the repository root and count only inside a repository (some level has `.git`), ripgrep's default.
 */
export function isIgnored(levels: readonly IgnoreLevel[], path: string, isDir: boolean, global?: IgnoreRules): boolean {
  const inRepo = levels.some((level) => level.hasGit);
  let rgignore: Verdict, ignore: Verdict, gitignore: Verdict, exclude: Verdict;
  let sawGit = false;
  for (const level of levels) {
    const prefix = level.dir.endsWith("/") ? level.dir : level.dir === "" ? "" : level.dir + "/";
    if (path.startsWith(prefix)) {
      const rel = path.slice(prefix.length);
      rgignore ??= level.rgignore?.(rel, isDir);
      ignore ??= level.ignore?.(rel, isDir);
      if (inRepo && !sawGit) {
        gitignore ??= level.rules?.(rel, isDir);
        exclude ??= level.exclude?.(rel, isDir);
      }
    }
    sawGit ||= level.hasGit;
  }
  return (rgignore ?? ignore ?? gitignore ?? exclude ?? (inRepo ? global?.(path, isDir) : undefined)) === "ignore";
}

function parseRule(line: string): Rule | undefined {
  line = line.replace(/\r$/, "");
  if (line.startsWith("#")) return undefined;
  if (!line.endsWith("\\ ")) line = line.trimEnd();
  if (line === "") return undefined;
  let keep = false;
  let anchored = false;
  let dirOnly = false;
  if (line.startsWith("\\!") || line.startsWith("\\#")) {
    line = line.slice(1);
  } else {
    if (line.startsWith("!")) {
      keep = true;
      line = line.slice(1);
    }
    if (line.startsWith("/")) {
      line = line.slice(1);
      anchored = true;
    }
  }
  if (line.endsWith("/")) {
    dirOnly = true;
    line = line.slice(0, -1);
    if (line.endsWith("\\")) line = line.slice(0, -1);
  }
  let glob = line;
  // A pattern without a slash matches at any depth; one with a slash is relative to the file.
  if (!anchored && !line.includes("/") && !glob.startsWith("**/") && glob !== "**") glob = "**/" + glob;
  // `dir/**` matches what is inside dir, not dir itself.
  if (glob.endsWith("/**")) glob += "/*";
  const re = globToRegExp(glob);
  return re && { re, keep, dirOnly };
}

type Token =
  | { t: "lit"; c: string }
  | { t: "any" } // ?
  | { t: "star" } // *
  | { t: "prefix" } // **/ at the start
  | { t: "suffix" } // /** at the end
  | { t: "middle" } // /**/
  | { t: "class"; negated: boolean; ranges: [string, string][] }
  | { t: "alt"; alts: Token[][] };

/**
 * The anchored RegExp for a globset-style glob matched against a `/`-separated path, or
 * undefined when the glob is invalid (dangling `\`, unbalanced or nested braces). Never throws.
 */
export function globToRegExp(glob: string): RegExp | undefined {
  const tokens = parseGlob(glob);
  if (!tokens) return undefined;
  if (tokens.length === 1 && tokens[0]!.t === "prefix") return /^.*$/s;
  return new RegExp("^" + toRegex(tokens) + "$", "su");
}

function parseGlob(glob: string): Token[] | undefined {
  const chars = [...glob];
  const top: Token[] = [];
  let alt: Token[][] | undefined; // the branches of the open {…}, current one last
  let prev: string | undefined;
  const current = () => (alt ? alt[alt.length - 1]! : top);
  const isSep = (c: string | undefined) => c === "/";

  for (let i = 0; i < chars.length; ) {
    const c = chars[i]!;
    const tokens = current();
    if (c === "\\") {
      const next = chars[i + 1];
      if (next === undefined) return undefined;
      tokens.push({ t: "lit", c: next });
      prev = next;
      i += 2;
      continue;
    }
    i++;
    if (c === "?") tokens.push({ t: "any" });
    else if (c === "*") {
      if (chars[i] !== "*") tokens.push({ t: "star" });
      else {
        i++;
        const next = chars[i];
        const twoStars = () => tokens.push({ t: "star" }, { t: "star" });
        if (tokens.length === 0) {
          if (next !== undefined && !isSep(next)) twoStars();
          else {
            tokens.push({ t: "prefix" });
            if (isSep(next)) i++;
          }
        } else if (!isSep(prev) && !(alt && (prev === "," || prev === "{"))) twoStars();
        else {
          let suffix: boolean;
          if (next === undefined || (alt && (next === "," || next === "}"))) suffix = true;
          else if (isSep(next)) {
            suffix = false;
            i++;
          } else {
            twoStars();
            prev = "*";
            continue;
          }
          const last = tokens.pop()!;
          if (last.t === "prefix" || last.t === "suffix") tokens.push(last);
          else tokens.push({ t: suffix ? "suffix" : "middle" });
        }
      }
    } else if (c === "[") {
      const parsed = parseClass(chars, i);
      if (parsed) {
        tokens.push(parsed.token);
        i = parsed.end;
      } else tokens.push({ t: "lit", c }); // an unclosed class is literal, as in git
    } else if (c === "{") {
      if (alt) return undefined;
      alt = [[]];
    } else if (c === "}") {
      if (!alt) return undefined;
      top.push({ t: "alt", alts: alt });
      alt = undefined;
    } else if (c === "," && alt) alt.push([]);
    else tokens.push({ t: "lit", c });
    prev = chars[i - 1];
  }
  return alt ? undefined : top;
}

/** A `[...]` class from just after `[`, as globset reads it; undefined when unclosed or invalid. */
function parseClass(chars: string[], start: number): { token: Token; end: number } | undefined {
  let i = start;
  const negated = chars[i] === "!" || chars[i] === "^";
  if (negated) i++;
  const ranges: [string, string][] = [];
  let first = true;
  let inRange = false; // saw `-` after a character: the next one closes a range
  for (; i < chars.length; i++) {
    const c = chars[i]!;
    const last = ranges[ranges.length - 1];
    if (c === "]" && !first) {
      if (inRange) ranges.push(["-", "-"]);
      return { token: { t: "class", negated, ranges }, end: i + 1 };
    }
    if (c === "-" && !first && !inRange) inRange = true;
    else if (inRange && last) {
      if (c < last[0]) return undefined;
      last[1] = c;
      inRange = false;
    } else ranges.push([c, c]);
    first = false;
  }
  return undefined;
}

function toRegex(tokens: Token[]): string {
  let re = "";
  for (const token of tokens) {
    switch (token.t) {
      case "lit":
        re += token.c.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");
        break;
      case "any":
        re += "[^/]";
        break;
      case "star":
        re += "[^/]*";
        break;
      case "prefix":
        re += "(?:/?|.*/)";
        break;
      case "suffix":
        re += "/.*";
        break;
      case "middle":
        re += "(?:/|/.*/)";
        break;
      case "class": {
        const esc = (c: string) => c.replace(/[\\\][^-]/g, "\\$&");
        const body = token.ranges.map(([lo, hi]) => (lo === hi ? esc(lo) : `${esc(lo)}-${esc(hi)}`)).join("");
        re += `[${token.negated ? "^" : ""}${body}]`;
        break;
      }
      case "alt": {
        const parts = token.alts.map(toRegex).filter((p) => p !== "");
        if (parts.length > 0) re += `(?:${parts.join("|")})`;
        break;
      }
    }
  }
  return re;
}
