// Path rules for hey's file tools (SPEC §8): `read_file: GLOB`, `write_file: GLOB`, `edit: GLOB`,
// `grep: GLOB` in an allow or deny list. A call's `path` (grep's, default the working directory) is
// resolved with `~` as the home, a relative path under the working directory and `..` resolved. An
// allow entry is matched against the file the call really opens, every link followed, so a link
// `src/keys -> ~/.ssh` inside an allowed tree is judged as where it leads. A deny entry refuses when
// it matches that file or the name the call used (links not followed): `.env -> .env.local` is
// refused by `/**/.env`, and `../other/.env` or a link `x -> ~/.ssh` by `~/.ssh/**`. A pattern is
// resolved the same way: `~/…` under the home, an absolute one as written, a relative one under the
// working directory (where the model's relative paths point too) — a project's own entries are
// anchored at the project folder first (anchoredEntry); links in its directory part are
// followed (a deny entry is also taken as written). `*` and `?` match within one name, `**` any
// number of directories; a pattern naming a directory covers everything in it. A grep searches a
// whole tree: a deny pattern refuses it only when the path it names is denied (a file, or a folder
// inside a denied one); below it, the files a deny entry names, or no allow entry covers, are passed
// by one at a time (refusedFiles), as Claude Code's Grep leaves denied files out. Each entry judges
// its own tool: a read_file deny without grep's and edit's is said to the user (readOnlyDenies). Pure: the caller
// says where links lead (FilePlace.real).
import * as nodePath from "node:path";
import { type PlatformPath, resolveUserPath } from "../fs/user-path.ts";
import { TOOL } from "../kernel/tool-names.ts";
import type { ToolOrigin } from "../kernel/tool-calls.ts";
import { denyWords } from "./refusal-words.ts";

/** The tools a path rule may name: each takes the file or directory it works on as `path`. */
export const PATH_TOOLS: readonly string[] = [TOOL.readFile, TOOL.writeFile, TOOL.edit, TOOL.grep];

/** One `TOOL: GLOB` entry as read: `entry` as the config file writes it. */
export interface FilePattern {
  entry: string;
  tool: string;
  glob: string;
}

/** Where the file tools run, for resolving paths; built by the caller, which can look at the disk. */
export interface FilePlace {
  /** the tools' working directory: relative paths and patterns are under it */
  cwd: string;
  home: string;
  /** `abs` with every link on the way followed (also for a file not created yet); may throw (a look that did not answer in time) */
  real(abs: string): string;
  /** names compare ignoring case (macOS, Windows) */
  fold: boolean;
  /** the platform's path functions (path.win32 in tests of Windows paths) */
  p?: PlatformPath;
}

/** What the path rules say of one file tool call: refused (deny, or cannot tell), allowed by an allow entry, or nothing (no entry matches). */
export type FileVerdict = { refused: string } | { allowed: true } | { subject: string; entry?: string };

/** `TOOL: GLOB` for one of PATH_TOOLS, or why it is none; undefined for any other entry. */
export function readFilePattern(entry: string): FilePattern | { error: string } | undefined {
  const m = /^([a-z_]+)\s*:(.*)$/s.exec(entry.trim());
  if (!m || !PATH_TOOLS.includes(m[1]!)) return undefined;
  const [tool, glob] = [m[1]!, m[2]!.trim()];
  if (!glob) return { error: `has an empty pattern; "${tool}" alone covers every path` };
  if (/^~[^/\\]/.test(glob)) return { error: `names another user's home (${glob.split(/[/\\]/)[0]}), which is not supported; give the full path` };
  return { entry: entry.trim(), tool, glob };
}

/**
 * `entry` with its relative pattern anchored at `root`: a project's `.hey/config.toml` names the
 * project's files (a `.env` at any depth, `edit: src/**`) wherever in it hey starts, so its
 * patterns are under the folder that holds `.hey/`, not the working directory. Any other entry (a `~/…` or
 * absolute pattern, a tool name, `bash: …`) is returned as it is.
 */
export function anchoredEntry(entry: string, root: string, p: PlatformPath = nodePath): string {
  const file = readFilePattern(entry);
  if (!file || "error" in file || file.glob.startsWith("~") || p.isAbsolute(file.glob)) return entry;
  return `${file.tool}: ${p.join(root, file.glob)}`;
}

/** A deny entry (a `read_file: GLOB` one, for readOnlyDenies) as a config file writes it (`entry`), in force as `anchored` (a project's under its folder), and where it is (`file`: `FILE:LINE`). */
export interface ReadDeny {
  entry: string;
  anchored: string;
  file: string;
}

/**
 * Why a read_file deny entry does not keep its files from the model, one line each: each entry
 * judges its own tool, and grep hands the model the lines it finds, edit shows lines of the file it
 * edits (its diff, where old_string nearly matched, and whether a guessed text is there at all), so
 * an entry whose files `deny` (the lists in force, every file's) leaves to grep or edit is said with
 * the entries to add. A `grep`/`edit` entry covers it by name alone or by a pattern covering its
 * files (`grep: ~/.ssh` covers `read_file: ~/.ssh/**`).
 */
export function readOnlyDenies(reads: readonly ReadDeny[], deny: readonly string[]): string[] {
  const paths = deny.map((e) => readFilePattern(e)).filter((f): f is FilePattern => f !== undefined && !("error" in f));
  const out: string[] = [];
  for (const r of reads) {
    const read = readFilePattern(r.anchored);
    if (!read || "error" in read || read.tool !== TOOL.readFile || !deny.includes(r.anchored)) continue;
    const open = [TOOL.grep, TOOL.edit].filter(
      (tool) => !deny.some((e) => e.trim() === tool) && !paths.some((f) => f.tool === tool && coversGlob(f.glob, read.glob)),
    );
    if (open.length === 0) continue;
    const glob = readFilePattern(r.entry) as FilePattern;
    const does = open.map((t) =>
      t === TOOL.grep ? "grep still searches them and shows the model the lines it finds" : "edit shows the model lines of a file it edits",
    );
    out.push(
      `${r.file}: [permission] deny "${r.entry}" keeps those files from read_file only: ${does.join(", and ")}; add ${open.map((t) => `"${t}: ${glob.glob}"`).join(", ")} too${open.includes(TOOL.grep) ? " (a grep of a folder that may hold them is then refused)" : ""}`,
    );
  }
  return out;
}

/**
 * What the deny entries `reads` add to the permission settings: where each is written (the first
 * file's, when two write it), and `notes` with the read_file entries' notes (readOnlyDenies) after them.
 */
export function denyFacts(
  reads: readonly ReadDeny[],
  deny: readonly string[],
  notes: readonly string[],
): { denyAt?: Record<string, string>; entryNotes?: string[] } {
  const entryNotes = [...notes, ...readOnlyDenies(reads, deny)];
  const denyAt = reads.length ? Object.fromEntries(reads.toReversed().map((r) => [r.anchored, r.file])) : undefined;
  return { ...(denyAt ? { denyAt } : {}), ...(entryNotes.length ? { entryNotes } : {}) };
}

/** Where `coversGlob` resolves patterns: any fixed folder does, as both patterns resolve alike; no link is followed. */
const GLOB_PLACE: FilePlace = { cwd: "/cwd", home: "/home", real: (abs) => abs, fold: false, p: nodePath.posix };

/** Whether the pattern `outer` covers every path `inner` matches: the same pattern, or one covering the folder `inner`'s wildcards start in. */
function coversGlob(outer: string, inner: string): boolean {
  if (outer === inner) return true;
  const fixed = inner.split(/[\\/]/);
  const at = fixed.findIndex((part) => /[*?[]/.test(part));
  const folder = (at < 0 ? fixed : fixed.slice(0, at)).join("/") || ".";
  const where = resolveUserPath(folder, GLOB_PLACE.cwd, GLOB_PLACE.home, nodePath.posix);
  return !("error" in where) && covers(outer, nodePath.posix.normalize(where.abs), GLOB_PLACE) === "yes";
}

/** The project folder of a project's file: the one holding `.hey/` for `.hey/config.toml`, the file's own for `.mcp.json`. */
export const projectFolder = (source: string, p: PlatformPath = nodePath) =>
  p.basename(p.dirname(source)) === ".hey" ? p.dirname(p.dirname(source)) : p.dirname(source);

/** The path a call of `tool` works on, as its arguments give it: grep's defaults to the working directory; undefined when it names none. */
function pathOf(tool: string, args: Record<string, unknown>): string | undefined {
  if (tool === TOOL.grep && (args.path === undefined || args.path === "")) return ".";
  return typeof args.path === "string" && args.path !== "" ? args.path : undefined;
}

/**
 * How the path rules judge `tool` called with `args` (hey's own file tools only: an MCP tool, whose
 * arguments mean what its server says, is judged by name). undefined: no path entry names the tool
 * (nothing to look up). `place` undefined: the caller cannot look at the disk, so a path cannot be
 * told and the call is refused.
 */
export function judgeFile(
  tool: string,
  args: Record<string, unknown>,
  lists: { allow?: readonly FilePattern[]; deny: readonly FilePattern[]; denyAt?: Readonly<Record<string, string>> },
  place: FilePlace | undefined,
  origin?: ToolOrigin,
): FileVerdict | undefined {
  if (origin || !PATH_TOOLS.includes(tool)) return undefined;
  const deny = lists.deny.filter((f) => f.tool === tool);
  const allow = (lists.allow ?? []).filter((f) => f.tool === tool);
  if (!deny.length && !allow.length) return undefined;
  const path = pathOf(tool, args);
  if (path === undefined) return undefined; // the tool refuses a call without a path itself
  const subject = `${tool} of \`${path}\``;
  if (!place) return { refused: `cannot verify ${subject}: this check was given no working directory to resolve paths from` };
  let written: string;
  let target: string;
  try {
    written = writtenPath(path, place);
    target = place.real(written);
  } catch (e) {
    return { refused: `cannot verify ${subject}: ${(e as Error).message}` };
  }
  const shown = written === target ? subject : `${subject} (${target})`;
  for (const entry of deny) {
    const hit = denies(entry.glob, { written, target }, place);
    // the name the call used matched: where it leads is shown only when that is what matched
    if (hit === "written") return { refused: `${subject} matches ${denyWords(entry.entry, lists.denyAt)}` };
    if (hit === "target") return { refused: `${shown} matches ${denyWords(entry.entry, lists.denyAt)}` };
    if (hit !== "no") return { refused: `cannot verify ${subject} against ${denyWords(entry.entry, lists.denyAt)}: ${hit.unknown}` };
  }
  // a folder grep searches is let in when an allow entry may cover some file in it: refusedFiles passes the others by
  const hits = allow.map((entry) => ({ entry, hit: covers(entry.glob, target, place, tool === TOOL.grep ? "tree" : "file") }));
  if (hits.some((h) => h.hit === "yes")) return { allowed: true };
  const unknown = hits.find((h) => typeof h.hit === "object");
  if (unknown && typeof unknown.hit === "object")
    return { refused: `cannot verify ${subject} against allow entry \`${unknown.entry.entry}\`: ${unknown.hit.unknown}` };
  return { subject: shown, ...offered(tool, target, place) };
}

/** The absolute path `path` names as written: `~`, the working directory and `..` resolved, no link followed; throws saying why it names none. */
function writtenPath(path: string, place: FilePlace): string {
  const p = place.p ?? nodePath;
  const where = resolveUserPath(path, place.cwd, place.home, p);
  if ("error" in where) throw new Error(where.error);
  return p.normalize(where.abs);
}

/**
 * Whether the pattern `glob` covers `target` (an absolute path, links followed): the path or a
 * directory above it matches. `"tree"`: `target` is a directory searched whole, which is covered
 * also when a path below it may match. A pattern whose directory cannot be looked at: unknown.
 */
export function covers(glob: string, target: string, place: FilePlace, kind: "file" | "tree" = "file"): "yes" | "no" | { unknown: string } {
  let pattern: string[];
  try {
    pattern = patternParts(glob, place);
  } catch (e) {
    return { unknown: (e as Error).message };
  }
  return partsMatch(pattern, target, place, kind) ? "yes" : "no";
}

/**
 * Whether the deny pattern `glob` refuses a call on `written` (the path as the call names it, no
 * link followed) that opens `target`: the pattern, as written or with the links in its directory
 * part followed, matches either. A link's name is what a user denies as often as the file it leads
 * to (`.env -> .env.local`, `server.key -> certs/server.pem`), so either refuses. "written": the
 * name matched; "target": only where it leads did. A pattern whose directory cannot be looked at, and
 * whose written form matches neither: unknown.
 */
function denies(glob: string, paths: { written: string; target: string }, place: FilePlace): "target" | "written" | "no" | { unknown: string } {
  const patterns: string[][] = [];
  let unknown: { unknown: string } | undefined;
  for (const follow of [false, true])
    try {
      patterns.push(patternParts(glob, place, follow));
    } catch (e) {
      unknown = { unknown: (e as Error).message };
    }
  if (patterns.some((pattern) => partsMatch(pattern, paths.written, place, "file"))) return "written";
  if (patterns.some((pattern) => partsMatch(pattern, paths.target, place, "file"))) return "target";
  return unknown ?? "no";
}

/**
 * Which files of a tree that `tool` searches (grep) the path rules keep from it, by absolute path as
 * the walk or ripgrep finds them: one a deny entry names (as found, or where the links above it
 * lead), or, unless the allow list allows the tool by name (`byName`), one no allow entry covers.
 * Neither search follows a link to a file (ripgrep, given a matched file back by name, reads it
 * only while it is still that file: tools/grep-same-file.ts), so where a file leads is where its folder does: each
 * folder is looked up once (a tree of 50k files costs a lookup per folder, not per file). A file
 * whose folder cannot be looked at is kept out. Undefined: no entry judges the tool's files.
 */
export function refusedFiles(
  tool: string,
  lists: { allow?: readonly FilePattern[]; deny: readonly FilePattern[]; denyAt?: Readonly<Record<string, string>> },
  place: FilePlace | undefined,
  byName: boolean,
): ((abs: string) => boolean) | undefined {
  const deny = lists.deny.filter((f) => f.tool === tool);
  const allow = byName ? [] : (lists.allow ?? []).filter((f) => f.tool === tool);
  if (!deny.length && !allow.length) return undefined;
  if (!place) return () => true;
  const p = place.p ?? nodePath;
  let deniedBy: string[][];
  let allowed: string[][];
  try {
    const both = deny.flatMap((f) => [patternParts(f.glob, place, false), patternParts(f.glob, place)]);
    deniedBy = [...new Map(both.map((parts) => [parts.join("/"), parts])).values()]; // most patterns hold no link: one form
    allowed = allow.map((f) => patternParts(f.glob, place));
  } catch {
    return () => true; // judgeFile has refused the call already: nothing gets through if it did run
  }
  // a folder's answer is looked up once: where it leads, and whether a pattern covers it (and so every file in it)
  const folders = new Map<string, { real: string; moved: boolean; denied: boolean; allowed: boolean }>();
  const folderOf = (dir: string) => {
    let known = folders.get(dir);
    if (!known) {
      const real = place.real(dir);
      const moved = real !== dir;
      const denied = deniedBy.some((parts) => partsMatch(parts, dir, place, "file") || (moved && partsMatch(parts, real, place, "file")));
      known = { real, moved, denied, allowed: allowed.some((parts) => partsMatch(parts, real, place, "file")) };
      folders.set(dir, known);
    }
    return known;
  };
  return (abs) => {
    const written = p.normalize(abs);
    let folder: ReturnType<typeof folderOf>;
    try {
      folder = folderOf(p.dirname(written));
    } catch {
      return true;
    }
    if (folder.denied) return true;
    const name = slashed(p.basename(written), place);
    const target = folder.moved ? p.join(folder.real, p.basename(written)) : written;
    if (deniedBy.some((parts) => nameMatches(parts, name) && (partsEqual(parts, written, place) || (folder.moved && partsEqual(parts, target, place)))))
      return true;
    return allowed.length > 0 && !folder.allowed && !allowed.some((parts) => nameMatches(parts, name) && partsEqual(parts, target, place));
  };
}

/** Whether the last pattern segment may match the name `name` (a cheap test before the whole path's). */
const nameMatches = (pattern: string[], name: string) => pattern.at(-1) === "**" || nameMatch(pattern.at(-1) ?? "", name);

/** Whether the pattern segments match the absolute path `abs` itself (no folder above it). */
const partsEqual = (pattern: string[], abs: string, place: FilePlace) => segmentsMatch(pattern, 0, slashed(abs, place).split("/").filter(Boolean), 0);

/** Whether the pattern segments `pattern` cover the absolute path `abs`, as `covers` says. */
function partsMatch(pattern: string[], abs: string, place: FilePlace, kind: "file" | "tree"): boolean {
  const parts = slashed(abs, place).split("/").filter(Boolean);
  for (let n = parts.length; n >= 0; n--) if (segmentsMatch(pattern, 0, parts.slice(0, n), 0)) return true;
  return kind === "tree" && mayHold(pattern, 0, parts, 0);
}

/**
 * The pattern as absolute path segments, compared as names are (folded where names ignore case):
 * `~/` and relative resolved, links in its directory part followed (`follow`; else as written).
 */
function patternParts(glob: string, place: FilePlace, follow = true): string[] {
  const p = place.p ?? nodePath;
  const where = resolveUserPath(glob, place.cwd, place.home, p);
  if ("error" in where) throw new Error(where.error);
  const abs = p.normalize(where.abs);
  const parts = abs.split(p.sep === "\\" ? /[\\/]/ : "/");
  const wild = parts.findIndex((s) => /[*?]/.test(s));
  // links are looked up by the names as written (a case-sensitive volume on macOS), compared folded
  const fixed = wild === -1 ? abs : parts.slice(0, wild).join(p.sep);
  const root = p.parse(abs).root; // `/`, `C:\`: a pattern may have no name before its first `*`
  const dir = fixed.length < root.length ? root : fixed;
  const rest = wild === -1 ? [] : parts.slice(wild);
  return [...slashed(follow ? place.real(dir) : dir, place).split("/"), ...rest.map((s) => (place.fold ? s.toLowerCase() : s))].filter(Boolean);
}

/** `abs` with `/` between names, lowercase where names ignore case. */
function slashed(abs: string, place: FilePlace): string {
  const p = place.p ?? nodePath;
  const s = p.sep === "\\" ? abs.replaceAll("\\", "/") : abs;
  return place.fold ? s.toLowerCase() : s;
}

/** Whether pattern segments from `i` match path segments from `j` exactly (`**`: any number of names, none too). */
function segmentsMatch(pattern: string[], i: number, parts: string[], j: number): boolean {
  if (i === pattern.length) return j === parts.length;
  if (pattern[i] === "**") return segmentsMatch(pattern, i + 1, parts, j) || (j < parts.length && segmentsMatch(pattern, i, parts, j + 1));
  return j < parts.length && nameMatch(pattern[i]!, parts[j]!) && segmentsMatch(pattern, i + 1, parts, j + 1);
}

/** Whether a path below the directory `parts` may match the pattern from `i` on: every name of the directory matches a leading part of it. */
function mayHold(pattern: string[], i: number, parts: string[], j: number): boolean {
  if (j === parts.length) return i < pattern.length;
  if (i === pattern.length) return false;
  if (pattern[i] === "**") return true;
  return nameMatch(pattern[i]!, parts[j]!) && mayHold(pattern, i + 1, parts, j + 1);
}

/** One name against one pattern name: `*` any characters, `?` one. */
function nameMatch(glob: string, name: string): boolean {
  if (!/[*?]/.test(glob)) return glob === name;
  let regex = namePatterns.get(glob);
  if (!regex) {
    const body = glob
      .replace(/[.+^${}()|[\]\\]/g, "\\$&")
      .replaceAll("*", ".*")
      .replaceAll("?", ".");
    regex = new RegExp(`^${body}$`, "s");
    if (namePatterns.size > 1000) namePatterns.clear(); // a list holds a few dozen: never grows without end
    namePatterns.set(glob, regex);
  }
  return regex.test(name);
}
/** Each pattern name's RegExp, made once: a grep over a tree matches it against every file it finds. */
const namePatterns = new Map<string, RegExp>();

/**
 * The entry that allows exactly `target` for `tool`: relative under the working directory, `~/…`
 * under the home, else absolute; none for a name a pattern cannot spell (it holds `*` or `?`).
 */
function offered(tool: string, target: string, place: FilePlace): { entry?: string } {
  const p = place.p ?? nodePath;
  if (/[*?]/.test(target)) return {};
  const under = (dir: string) => {
    let real: string;
    try {
      real = place.real(dir);
    } catch {
      return undefined;
    }
    const rel = p.relative(real, target);
    return rel === ".." || rel.startsWith(`..${p.sep}`) || p.isAbsolute(rel) ? undefined : rel.replaceAll("\\", "/");
  };
  const inCwd = under(place.cwd);
  const inHome = inCwd === undefined ? under(place.home) : undefined;
  const glob = inCwd !== undefined ? inCwd || "." : inHome !== undefined ? (inHome ? `~/${inHome}` : "~") : target;
  return covers(glob, target, place) === "yes" ? { entry: `${tool}: ${glob}` } : {};
}
