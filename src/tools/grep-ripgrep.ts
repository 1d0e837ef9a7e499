// The grep tool's search with ripgrep (grep-search.ts says which flags make it see what the
// built-in walk sees). A common word in a big repository matches millions of lines, and the result
// shows a hundred: reading every match line ripgrep prints only to count them took 3–5 times
// ripgrep's own time (4 million matches, 420 MB of output: 6–10 s). So it asks three things, each
// costing about what its answer needs:
//   1. how many lines match in each file (`--count`): one line per file, the search's whole cost
//   2. which of those files hold a NUL byte (binary: named, not shown), read only where they matched
//   3. the lines of the files the result shows (fairShares), each at most as far as its share
//      (`--max-count`), with their context; asked at the same time as 2, and again in the rare
//      case that a file it read turns out binary. A file is read only while it is still the
//      regular file that matched (grep-same-file.ts), and counted by what was read when it lost
//      matches since 1 (rewritten, deleted)
// The counts are the same ones the lines would give: ripgrep counts a line once however often it matches.
import { resolve } from "node:path";
import { shownName } from "../fs/odd-names.ts";
import type { ToolContext } from "../kernel/tool.ts";
import type { GlobFilter } from "./grep-glob.ts";
import { type Clip, clip, createClip } from "./grep-clip.ts";
import { posixClasses } from "./grep-regex.ts";
import { comparePaths, type Collector, createCollector, createHits, type FileHits, fairShares, lower } from "./grep-results.ts";
import { readLinePieces, readLines } from "./file-lines.ts";
import { fileIdentity } from "./grep-same-file.ts";
import { eachRecord } from "./ripgrep.ts";
import type { Scope } from "./walk.ts";

/** One search, as both grep-search.ts paths run it. */
export interface Search {
  root: string;
  /** what the walk leaves out there (walk.ts scopeOf) */
  scope: Scope;
  isFile: boolean;
  regex: RegExp;
  pattern: string;
  ignoreCase: boolean;
  context: number;
  /** how ripgrep applies the glob (grep-glob.ts) */
  rgGlob: Pick<GlobFilter, "rgArgs" | "rgPaths">;
  /** how ripgrep reads git's global excludes file as the walk does (fs/ignore-files.ts globalExcludes) */
  rgExcludes: string[];
  cap: number;
  /** ripgrep runs the pattern with PCRE2 (`--pcre2`) instead of its own engine */
  pcre2?: boolean;
  /** whether a file (by its absolute path) passes the glob, and the permission rules let grep read it */
  keep: (abs: string) => boolean;
  show: (abs: string) => string;
}

type Env = Record<string, string | undefined> | undefined;

/**
 * Lines longer than this many bytes ripgrep does not print (`--max-columns`): they are read from the
 * file itself and cut around the match (clip). Without it one line of a minified bundle with a match
 * on every character cost gigabytes: ripgrep's `--json` lists each match, and ignores --max-columns,
 * so ripgrep's plain output is read instead.
 */
const RG_MAX_COLUMNS = 4096;
/** How ripgrep prints a line over RG_MAX_COLUMNS: `[Omitted long matching line]`, `[Omitted long context line]`. */
const RG_OMITTED = /^\[Omitted long .*\]$/;
/** The line ripgrep prints when a file it was searching turns out to hold a NUL byte (the file is dropped). */
const RG_BINARY_SAID = ": WARNING: stopped searching binary file";
/** What `--binary` prints for a binary file that matches (its lines printed before are dropped). */
const RG_BINARY_MATCHES = /: binary file matches \(found "\\0" byte around offset \d+\)$/;
/** A path ripgrep could not read, as it says on stderr: `rg: PATH: Permission denied (os error 13)`. */
const RG_UNREADABLE = /^rg: (.+): (.+?) \(os error \d+\)$/;
/**
 * Characters of paths given to one ripgrep: Windows takes command lines of 32,767 characters at
 * most; macOS 1 MB of arguments and environment, Linux 2 MB. Each run costs a start (~5 ms).
 */
const ARGV_CHARS = process.platform === "win32" ? 24_000 : 256_000;
const NEWLINE = new Uint8Array([10]);
const strict = new TextDecoder("utf-8", { fatal: true });

/** A file that matched: its name as ripgrep printed it (cwd-relative when the search path was), and its count. */
interface Matched {
  printed: string;
  abs: string;
  count: number;
  /** its name is not plain UTF-8 text (fs/odd-names.ts): it cannot be given back to ripgrep, and is read here instead */
  odd: boolean;
}

/**
 * The hits ripgrep finds, or undefined when it could not run or did not finish a search (it
 * rejected the pattern, failed to start or was killed by an abort), so the caller falls back to
 * the built-in search.
 */
export async function searchWithRg(rg: string, search: Search, ctx: ToolContext, env: Env): Promise<Collector | undefined> {
  const found = createCollector(search.cap, search.context);
  const matched = await countMatches(rg, search, ctx, env, found);
  if (!matched) return undefined;
  // which files hold a NUL is asked while the lines are read: that a shown one does is rare, and then they are read again
  const [binary, first] = await Promise.all([holdingNul(rg, search, matched, ctx, env, found), linesShown(rg, search, matched, new Set(), ctx, env, found)]);
  if (!binary || !first) return undefined;
  let lines: Shown | undefined = first;
  if ([...first.shown.keys()].some((m) => binary.has(m))) lines = await linesShown(rg, search, matched, binary, ctx, env, found);
  // a shown file that turned binary as it was read gives its share to the others: asked once more
  if (lines && lines.turned.size > 0) {
    for (const m of lines.turned) binary.add(m);
    lines = await linesShown(rg, search, matched, binary, ctx, env, found);
  }
  if (!lines) return undefined;
  for (const m of matched) {
    if (binary.has(m) || lines.turned.has(m)) found.binary.push(search.show(m.abs));
    else found.add(lines.shown.get(m) ?? { path: search.show(m.abs), count: m.count, lines: new Map() });
  }
  return found;
}

interface Shown {
  shown: Map<Matched, FileHits>;
  turned: Set<Matched>;
}

/**
 * The hits of the files of `matched` but `binary` a result shows (fairShares), with their lines; and
 * those that turned out binary as they were read. The files are ordered as the Collector orders them
 * (by the path shown), so the files given lines are the files it shows.
 */
async function linesShown(rg: string, search: Search, matched: Matched[], binary: Set<Matched>, ctx: ToolContext, env: Env, found: Collector) {
  const text = matched
    .filter((m) => !binary.has(m))
    .map((m) => ({ m, shown: search.show(m.abs) }))
    .sort((a, b) => comparePaths(a.shown, b.shown))
    .map(({ m }) => m);
  const shares = fairShares(
    text.map((m) => m.count),
    search.cap,
  );
  const shown = new Map<Matched, FileHits>();
  for (const [i, m] of text.entries()) if (shares[i]! > 0) shown.set(m, { path: search.show(m.abs), count: m.count, lines: new Map() });
  const turned = await shownLines(rg, search, shown, Math.max(0, ...shares), ctx, env, found);
  if (!turned) return undefined;
  // a file that lost matches since they were counted (rewritten, deleted) is counted by what was read
  for (const [i, m] of text.entries()) {
    const hits = shown.get(m);
    const seen = hits ? [...hits.lines.values()].filter((l) => l.match).length : 0;
    if (hits && seen < Math.min(shares[i]!, m.count)) hits.count = seen;
  }
  return { shown, turned } satisfies Shown;
}

/** ripgrep's arguments that say which files a search reads: dotfiles, ignore files, the names always skipped, the glob. */
export function rgScope(search: Search): string[] {
  const argv = ["--no-config", "--hidden"];
  for (const name of search.scope.skip) argv.push("--glob", `!${name}`);
  if (!search.scope.gitignore) argv.push("--no-ignore-vcs");
  return [...argv, ...search.rgExcludes, ...search.rgGlob.rgArgs];
}

/** ripgrep's arguments that say how the pattern matches a line. */
function rgPattern(search: Search): string[] {
  const argv = ["--crlf", "--encoding", "auto"];
  // PCRE2 takes POSIX classes as Unicode sets (ripgrep's own engine, and grep's, as ASCII): spelled out, they stay ASCII
  if (search.pcre2) argv.push("--pcre2");
  if (search.ignoreCase) argv.push("--ignore-case");
  // a binary file found in a directory is searched whole, and named when it matches
  if (!search.isFile) argv.push("--binary");
  return argv;
}
const patternArgs = (search: Search) => ["--regexp", search.pcre2 ? posixClasses(search.pattern) : search.pattern];

/**
 * Pass 1: the files with a match that `search.keep` lets through and their counts of matching lines
 * (`PATH\0N`); the paths ripgrep could not read go to `found.unreadable`. A name with a line break
 * in it comes in pieces: the pieces before the one with the NUL are its start.
 */
async function countMatches(rg: string, search: Search, ctx: ToolContext, env: Env, found: Collector): Promise<Matched[] | undefined> {
  const argv = [rg, ...rgScope(search), ...rgPattern(search), "--count", "--with-filename", "--null", "--color", "never"];
  // harmless with --count; a ripgrep before 12 rejects it here, before it searches, not after (pass 3)
  if (search.context > 0) argv.push("--no-context-separator");
  const matched: Matched[] = [];
  let before: Uint8Array[] = [];
  const ran = await runRg([...argv, ...patternArgs(search), "--", ...search.rgGlob.rgPaths], ctx, env, (bytes) => {
    const nul = bytes.indexOf(0);
    if (nul === -1) return void before.push(bytes, NEWLINE);
    const name = before.length === 0 ? bytes.subarray(0, nul) : Buffer.concat([...before, bytes.subarray(0, nul)]);
    before = [];
    const printed = shownName(name);
    const abs = resolve(ctx.cwd, printed);
    const count = Number(new TextDecoder().decode(bytes.subarray(nul + 1)));
    if (count > 0 && search.keep(abs)) matched.push({ printed, abs, count, odd: !plainName(name, printed) });
  });
  if (!ran) return undefined;
  noteUnreadable(ran.stderr, search, ctx, found);
  return matched;
}

/** The paths ripgrep said on `stderr` it could not read go to `found.unreadable`, each once (a file deleted since pass 1 is one). */
function noteUnreadable(stderr: string[], search: Search, ctx: ToolContext, found: Collector): void {
  // other lines are warnings (a bad .gitignore glob): the search went on
  for (const [, path, why] of stderr.map((l) => RG_UNREADABLE.exec(l)).filter((m) => m !== null)) {
    const abs = resolve(ctx.cwd, path!);
    const shown = search.show(abs);
    if (abs.startsWith(search.root) && !found.unreadable.some((u) => u.path === shown)) found.unreadable.push({ path: shown, why: lower(why!) });
  }
}

/** Whether a name's bytes are the UTF-8 of the name hey shows, so that ripgrep can be given it back. */
function plainName(bytes: Uint8Array, printed: string): boolean {
  try {
    return strict.decode(bytes) === printed;
  } catch {
    return false;
  }
}

/**
 * Pass 2: which of `files` hold a NUL byte (after a UTF-16 file's byte-order mark says to read it as
 * text, as the search did): ripgrep's `--binary` counts such a file's lines and prints none. Each is
 * read up to its first NUL: the files that matched, not the whole tree.
 */
async function holdingNul(rg: string, search: Search, files: Matched[], ctx: ToolContext, env: Env, found: Collector): Promise<Set<Matched> | undefined> {
  const binary = new Set<Matched>();
  const byName = new Map(files.filter((f) => !f.odd).map((f) => [f.printed, f]));
  const argv = [rg, "--no-config", "--encoding", "auto", "--text", "--files-with-matches", "--null", "--color", "never", "--regexp", "\\x00", "--"];
  for (const batch of batches([...byName.keys()])) {
    const ran = await runRg(
      [...argv, ...batch],
      ctx,
      env,
      (name) => {
        const file = byName.get(shownName(name));
        if (file) binary.add(file);
      },
      0,
    );
    if (!ran) return undefined;
    noteUnreadable(ran.stderr, search, ctx, found);
  }
  // a name ripgrep cannot be given back is read here, up to its first NUL
  const upToNul = (file: Matched) =>
    readLinePieces(
      file.abs,
      () => {},
      () => {},
      ctx.signal,
    ).catch(() => "text");
  for (const file of files) if (file.odd && (await upToNul(file)) === "binary") binary.add(file);
  if (ctx.signal.aborted) return undefined;
  return binary;
}

/**
 * Pass 3: the lines of the `shown` files, each up to `most` matches and the context after the last;
 * the files that turned out binary meanwhile are returned. ripgrep prints `PATH\0N:TEXT` for a match
 * and `PATH\0N-TEXT` for context, no line between context groups (`--no-context-separator`, ripgrep
 * 12 and later; an older one rejects it and the built-in search answers): with `--crlf` it would be
 * `--\r`, and a line `--` could be part of a file's name.
 */
async function shownLines(
  rg: string,
  search: Search,
  shown: Map<Matched, FileHits>,
  most: number,
  ctx: ToolContext,
  env: Env,
  found: Collector,
): Promise<Set<Matched> | undefined> {
  const turned = new Set<Matched>();
  // each file is read only while it is the regular file that matched (grep-same-file.ts)
  const under = [search.root, ...search.rgGlob.rgPaths.map((p) => resolve(ctx.cwd, p))];
  const identity = new Map<Matched, string | undefined>();
  for (const m of shown.keys()) identity.set(m, await fileIdentity(m.abs, under));
  const byName = new Map([...shown].filter(([m]) => !m.odd && identity.get(m)).map(([m, hits]) => [m.printed, { m, hits }]));
  const argv = [rg, "--no-config", ...rgPattern(search), "--with-filename", "--line-number", "--null", "--no-heading", "--color", "never"];
  argv.push("--max-columns", String(RG_MAX_COLUMNS), "--max-count", String(most));
  if (search.context > 0) argv.push("--context", String(search.context), "--no-context-separator");
  argv.push(...patternArgs(search), "--");
  const long = new Map<Matched, number[]>(); // lines ripgrep left out for their length, read from the file below
  const decoder = new TextDecoder();
  let before: Uint8Array[] = [];
  const onLine = (bytes: Uint8Array) => {
    const nul = bytes.indexOf(0);
    if (nul === -1) {
      // a binary file's note, or the start of a name with a line break in it
      const said = decoder.decode(bytes);
      const binary = RG_BINARY_MATCHES.exec(said) ?? (said.includes(RG_BINARY_SAID) ? [said.slice(said.indexOf(RG_BINARY_SAID))] : null);
      if (!binary) return void before.push(bytes, NEWLINE);
      const name = Buffer.concat([...before, bytes]);
      before = [];
      const file = byName.get(shownName(name.subarray(0, name.length - Buffer.byteLength(binary[0]))));
      if (file) turned.add(file.m);
      return;
    }
    const file = byName.get(shownName(before.length === 0 ? bytes.subarray(0, nul) : Buffer.concat([...before, bytes.subarray(0, nul)])));
    before = [];
    const line = /^(\d+)([:-])/.exec(decoder.decode(bytes.subarray(nul + 1, nul + 24)));
    if (!file || !line) return;
    const n = Number(line[1]);
    const match = line[2] === ":";
    const text = decoder.decode(bytes.subarray(nul + 1 + line[0].length)).replace(/\r$/, "");
    file.hits.lines.set(n, { text: clip(text, match ? search.regex : undefined), match });
    if (RG_OMITTED.test(text)) long.set(file.m, [...(long.get(file.m) ?? []), n]);
  };
  for (const batch of batches([...byName.keys()])) {
    const ran = await runRg([...argv, ...batch], ctx, env, onLine);
    if (!ran) return undefined;
    noteUnreadable(ran.stderr, search, ctx, found);
  }
  for (const [m, hits] of shown) {
    if (!m.odd || !identity.get(m)) continue;
    // up to the cap: its count may differ from pass 1's, and the Collector shares by the new one
    const read = createHits(hits.path, search.regex, search.cap, search.context);
    if ((await readLines(m.abs, read.line, ctx.signal).catch(() => "text")) === "binary") turned.add(m);
    if (ctx.signal.aborted) return undefined;
    // counted by the engine that found its lines (the JS regex), so the count and the lines agree
    hits.lines = read.hits.lines;
    hits.count = read.hits.count;
  }
  for (const [m, lines] of long) await reclip(m.abs, shown.get(m)!, new Set(lines), search.regex).catch(() => {}); // unreadable now: `[Omitted long … line]` stays
  // looked at once every read of it is done, the long lines' too
  for (const [m, hits] of shown) {
    if (identity.get(m) !== undefined && identity.get(m) === (await fileIdentity(m.abs, under))) continue;
    hits.lines = new Map(); // counted from what was read (linesShown): none
    if (!found.unreadable.some((u) => u.path === hits.path)) found.unreadable.push({ path: hits.path, why: "changed while grep searched" });
  }
  return turned;
}

/** `paths` in runs that fit one command line. */
function batches(paths: string[]): string[][] {
  const out: string[][] = [];
  let chars = ARGV_CHARS;
  for (const path of paths) {
    if (chars + path.length + 3 > ARGV_CHARS) out.push([]), (chars = 0);
    out.at(-1)!.push(path);
    chars += path.length + 3; // a space, and quotes on Windows
  }
  return out;
}

/**
 * Runs ripgrep with `argv`, giving each record of its output (ended by `sep`) to `take`. Undefined
 * when it could not start, was aborted or did not finish: exit 0 (matches), 1 (none), or 2 when every
 * error is a path it could not read; else its stderr lines.
 */
async function runRg(argv: string[], ctx: ToolContext, env: Env, take: (record: Uint8Array) => void, sep = 10): Promise<{ stderr: string[] } | undefined> {
  if (ctx.signal.aborted) return undefined; // an abort before the start is heard by no listener
  let proc: Bun.Subprocess<"ignore", "pipe", "pipe">;
  try {
    proc = Bun.spawn(argv, { cwd: ctx.cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe", ...(env ? { env } : {}) });
  } catch {
    return undefined;
  }
  const errors = proc.stderr.text();
  const kill = () => proc.kill();
  ctx.signal.addEventListener("abort", kill, { once: true });
  try {
    await eachRecord(proc.stdout, sep, take, () => ctx.signal.aborted);
    if (ctx.signal.aborted) {
      proc.kill(); // the listener may not have run yet
      return undefined;
    }
    const code = await proc.exited;
    const stderr = (await errors).split("\n").filter(Boolean);
    if (ctx.signal.aborted || !(code === 0 || code === 1 || (code === 2 && stderr.length > 0 && stderr.every((l) => RG_UNREADABLE.test(l))))) return undefined;
    return { stderr };
  } catch {
    proc.kill(); // unreadable output: do not leave it blocked on a full pipe
    return undefined;
  } finally {
    ctx.signal.removeEventListener("abort", kill);
  }
}

/** Cuts the `wanted` lines of `hits` from the file, read a piece at a time (grep-clip.ts), up to the last of them. */
async function reclip(abs: string, hits: FileHits, wanted: Set<number>, regex: RegExp): Promise<void> {
  const last = Math.max(...wanted);
  let cut: Clip | undefined;
  await readLinePieces(
    abs,
    (text, n) => {
      const line = wanted.has(n) ? hits.lines.get(n) : undefined;
      if (line) (cut ??= createClip(line.match ? regex : undefined)).push(text);
    },
    (n) => {
      const line = hits.lines.get(n);
      if (cut && line && wanted.has(n)) line.text = cut.end();
      cut = undefined;
      return n >= last;
    },
  );
}
