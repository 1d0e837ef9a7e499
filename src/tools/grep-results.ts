// The grep tool's results (SPEC §7): the hits of each file, collected in path order under the cap
// whichever search found them (ripgrep or the built-in walker), and the text the model reads. Pure.
import { errnoCode, errorText } from "../kernel/errors.ts";
import { clip } from "./grep-clip.ts";
import { GREP_MAX_CHARS } from "./grep-args.ts";

export interface Line {
  text: string;
  match: boolean;
}

/** The hits of one file: how many lines matched, and the lines needed to show the first `cap`. */
export interface FileHits {
  path: string;
  count: number;
  lines: Map<number, Line>;
}

export interface Collector {
  /** the files the cap can show, in path order: worked out on each read, so read it once the search is done */
  readonly files: FileHits[];
  total: number;
  add(hits: FileHits): void;
  /** paths (as shown) the search could not read, and why */
  unreadable: { path: string; why: string }[];
  /** every file with a match and its count of matching lines, kept or not */
  counts: { path: string; count: number }[];
  /** binary files (paths as shown) that match, none of them shown */
  binary: string[];
}

/** Lines held below which the collector does not stop to drop what it cannot show: a prune costs a sort. */
const PRUNE_FLOOR = 4096;

/**
 * Keeps the files that can still be shown under the cap, each with the lines of the matches it may
 * still show (fairShares), and counts every match. `files` is read sorted by path, component by
 * component. Memory stays bounded by the cap, not by the number of matches: the files and lines
 * that cannot be shown are dropped whenever the held ones have doubled since the last drop, so a
 * search of 100,000 matching files costs a sort of about 2 × cap files every cap files, not a
 * re-sharing of every kept file per file found (which froze hey for a minute at max_results 1000).
 */
export function createCollector(cap: number, context = 0): Collector {
  let kept: { hits: FileHits; key: string }[] = [];
  let sorted = true;
  let held = 0; // lines held by the kept files
  let limit = PRUNE_FLOOR; // lines, or files, held that start the next prune
  let last: string | undefined; // once more files than the cap match, the last shown: a file after it never is
  // a file's share only shrinks as more files come: what it can no longer show is let go. Sharing
  // among the kept files is sharing among all: a file is dropped only once more files than the cap
  // match, and from then on the first `cap` in path order show one match each
  const prune = () => {
    if (!sorted) kept.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    sorted = true;
    const shares = fairShares(
      kept.map((f) => f.hits.count),
      cap,
    );
    const before = kept.length;
    kept = kept.filter((_, i) => shares[i]! > 0);
    if (kept.length < before) last = kept.at(-1)!.key;
    held = 0;
    for (const [i, f] of kept.entries()) {
      trim(f.hits, shares[i]!, context);
      held += f.hits.lines.size;
    }
    limit = Math.max(PRUNE_FLOOR, 2 * held, 2 * kept.length);
  };
  const collector: Collector = {
    get files() {
      prune();
      return kept.map((f) => f.hits);
    },
    total: 0,
    unreadable: [],
    counts: [],
    binary: [],
    add(hits) {
      if (hits.count === 0) return;
      collector.total += hits.count;
      collector.counts.push({ path: hits.path, count: hits.count });
      const key = pathKey(hits.path);
      if (last !== undefined && key > last) return;
      if (sorted && kept.length > 0 && key < kept.at(-1)!.key) sorted = false;
      kept.push({ hits, key });
      held += hits.lines.size;
      if (held > limit || kept.length > limit) prune();
    },
  };
  return collector;
}

/** `path` as a string that sorts as comparePaths does: "/" below every character of a name. */
const pathKey = (path: string) => path.replaceAll("/", "\0");

/**
 * How many of each file's matches (`counts`, in path order) a result of `cap` matches shows: every
 * file the same number, as many as fit (all of a file's when it has fewer), then one more each for
 * the first files in path order that have more, up to the cap. So one lockfile with 80,000 matches
 * cannot push the two matches in source files out of the result.
 */
export function fairShares(counts: number[], cap: number): number[] {
  const used = (level: number) => counts.reduce((sum, c) => sum + Math.min(c, level), 0);
  let low = 0; // the highest level that fits, found by halving
  let high = cap;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (used(mid) <= cap) low = mid;
    else high = mid - 1;
  }
  let extra = cap - used(low);
  return counts.map((c) => (c > low && extra > 0 ? (extra--, low + 1) : Math.min(c, low)));
}

/** Drops the lines of `file` past its first `share` matches and their context after. */
function trim(file: FileHits, share: number, context: number): void {
  const matches = [...file.lines].filter(([, line]) => line.match).map(([n]) => n);
  if (matches.length <= share || share === 0) return;
  const last = matches.sort((a, b) => a - b)[share - 1]! + context;
  for (const n of file.lines.keys()) if (n > last) file.lines.delete(n);
}

export function comparePaths(a: string, b: string): number {
  const x = a.split("/");
  const y = b.split("/");
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  }
  return x.length - y.length;
}

/**
 * Hits of one file built as its lines are read, in order (`line`): every match counted, the first
 * `cap` kept with `context` lines either side. Holds the kept lines and the last `context` lines only.
 */
export function createHits(path: string, regex: RegExp, cap: number, context: number): { hits: FileHits; line(text: string, n: number): void } {
  const hits: FileHits = { path, count: 0, lines: new Map() };
  const before: { text: string; n: number }[] = []; // the lines before this one, for a match's context
  let after = 0; // lines up to this one are context after a kept match
  return {
    hits,
    line(text, n) {
      const match = regex.test(text);
      if (match) hits.count++;
      if (match && hits.count <= cap) {
        // a line before that matched is kept already: those left are context
        for (const b of before) if (!hits.lines.has(b.n)) hits.lines.set(b.n, { text: clip(b.text), match: false });
        hits.lines.set(n, { text: clip(text, regex), match: true });
        after = n + context;
      } else if (n <= after) hits.lines.set(n, { text: clip(text, match ? regex : undefined), match });
      if (context === 0) return;
      before.push({ text, n });
      if (before.length > context) before.shift();
    },
  };
}

/** Why a file or directory could not be read, in ripgrep's words (`permission denied`). */
export function reasonOf(e: unknown): string {
  const code = errnoCode(e);
  return code === "EACCES" ? "permission denied" : code === "EPERM" ? "operation not permitted" : lower(errorText(e));
}

export const lower = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** The line naming what could not be searched (at most 3 paths, in path order), or "". */
export function unreadableNote(found: Collector): string {
  const all = found.unreadable.sort((a, b) => comparePaths(a.path, b.path));
  if (all.length === 0) return "";
  const named = all.slice(0, 3).map((u) => `${u.path} (${u.why})`);
  return `[not searched, could not be read: ${named.join(", ")}${all.length > 3 ? `, and ${all.length - 3} more` : ""}]`;
}

/** How many binary files a result names at most. */
const BINARY_NAMED = 5;

/**
 * What a search says of the binary files that match (in path order, the first BINARY_NAMED named),
 * as `git grep` says `Binary file nul.txt matches`: a line under the matches
 * (`[2 binary files also match: img.png, nul.txt; not shown]`), or with none, words to end
 * its no-match line (` but in 2 binary files, not shown: img.png, nul.txt`); "" when none match.
 */
export function binaryNote(found: Collector): string {
  const all = found.binary.sort(comparePaths);
  if (all.length === 0) return "";
  const named = all.slice(0, BINARY_NAMED).join(", ") + (all.length > BINARY_NAMED ? ` and ${all.length - BINARY_NAMED} more` : "");
  const files = all.length === 1 ? "1 binary file" : `${all.length} binary files`;
  if (found.total === 0) return ` but in ${files}, not shown: ${named}`;
  return `[${files} also ${all.length === 1 ? "matches" : "match"}: ${named}; not shown]`;
}

/**
 * The line naming the directories a search that found nothing left out (walk.ts leftOutDirs), or "":
 * those in one workspace's packages as one (200 `packages/NAME/node_modules` as `packages/*` + `/node_modules/ (200 folders)`), at most 5 named.
 */
export function ignoredNote(paths: string[]): string {
  if (paths.length === 0) return "";
  const named = collapsedDirs(paths);
  return `[ignored, not searched: ${named.slice(0, 5).join(", ")}${named.length > 5 ? ` and ${named.length - 5} more` : ""}; name one as path to search it]`;
}

/**
 * Folders of one name in sibling folders (`a/x/dist`, `a/y/dist`) as one entry naming the first of
 * them, `a/*` + `/dist/ (2 folders, as a/x/dist/)`: grep's path takes no glob, so the model is given
 * one it can search; the top ones first.
 */
function collapsedDirs(paths: string[]): string[] {
  const groups = new Map<string, string[]>();
  for (const path of paths) {
    const parts = path.split("/");
    const key = parts.length < 2 ? path : [...parts.slice(0, -2), "*", parts.at(-1)].join("/");
    groups.set(key, [...(groups.get(key) ?? []), path]);
  }
  const depth = (path: string) => path.split("/").length;
  return [...groups]
    .sort(([a], [b]) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, members]) => (members.length === 1 ? `${members[0]}/` : `${key}/ (${members.length} folders, as ${members.sort(comparePaths)[0]}/)`));
}

/**
 * The result text: matches as `path:line: text`, context as `path-line- text`, and a note saying
 * what was left out and how to narrow. The text stops before the first match (with its context)
 * that would take it past `maxChars`.
 */
export function format(found: Collector, cap: number, context: number, maxChars = GREP_MAX_CHARS): string {
  const out: string[] = [];
  let size = 0;
  let full = false;
  const shownIn = new Map<string, number>();
  const files = found.files;
  const shares = fairShares(
    files.map((f) => f.count),
    cap,
  );
  for (const [i, file] of files.entries()) {
    if (full) break;
    const all = [...file.lines]
      .filter(([, line]) => line.match)
      .map(([n]) => n)
      .sort((a, b) => a - b);
    const matches = all.slice(0, shares[i]);
    // the context after the last shown match stops before the next match, which is not shown (grep -m)
    const next = all[matches.length] ?? Infinity;
    const print = new Set<number>();
    for (const m of matches) for (let n = m - context; n <= m + context && n < next; n++) if (file.lines.has(n)) print.add(n);
    for (const unit of unitsOf(
      [...print].sort((a, b) => a - b),
      file,
      context,
    )) {
      const text = unit.map((n) => {
        const line = file.lines.get(n)!;
        const mark = line.match ? ":" : "-";
        return `${file.path}${mark}${n}${mark} ${line.text}`;
      });
      const chars = text.reduce((sum, l) => sum + l.length + 1, 0);
      if (size + chars > maxChars) {
        full = true;
        break;
      }
      size += chars;
      out.push(...text);
      shownIn.set(file.path, (shownIn.get(file.path) ?? 0) + 1);
    }
  }
  const shown = [...shownIn.values()].reduce((a, b) => a + b, 0);
  const more = found.total - shown;
  if (more > 0) out.push(leftOutNote(found, shownIn, more, full ? maxChars : undefined));
  return out.join("\n");
}

/**
 * The lines to print cut into units of one match each: its line, the context before it not yet
 * printed, and the context after it up to the next match's.
 */
function unitsOf(lines: number[], file: FileHits, context: number): number[][] {
  const units: number[][] = [];
  let ahead: number[] = [];
  let last = -Infinity;
  for (const n of lines) {
    if (file.lines.get(n)!.match) {
      units.push([...ahead, n]);
      ahead = [];
      last = n;
    } else if (units.length > 0 && n <= last + context) units.at(-1)!.push(n);
    else ahead.push(n);
  }
  return units;
}

/** `… N more matches not shown (T in all, in F files); left out: a.csv 1300, …; narrow with …`. */
function leftOutNote(found: Collector, shownIn: Map<string, number>, more: number, maxChars: number | undefined): string {
  const files = found.counts.length;
  const where = files > 1 ? `, in ${files} files` : "";
  const stop = maxChars === undefined ? "" : `; the result stops at ${maxChars} characters`;
  // the three files with most left out (then in path order), in one pass: a sort of 100,000 paths cost seconds
  const most3: { path: string; n: number }[] = [];
  let left = 0;
  for (const f of found.counts) {
    const n = f.count - (shownIn.get(f.path) ?? 0);
    if (n <= 0) continue;
    left++;
    const at = most3.findIndex((m) => n > m.n || (n === m.n && comparePaths(f.path, m.path) < 0));
    if (at !== -1) most3.splice(at, 0, { path: f.path, n });
    else most3.push({ path: f.path, n });
    if (most3.length > 3) most3.pop();
  }
  const named = most3.map((f) => `${f.path} ${f.n}`);
  const most = files > 1 ? `; left out: ${named.join(", ")}${left > 3 ? ` and ${left - 3} more files` : ""}` : "";
  const narrow =
    maxChars === undefined
      ? "narrow with path, glob or a more specific pattern, or raise max_results"
      : "narrow with path, glob, a smaller context or max_results, or a more specific pattern";
  return `… ${more} more ${more === 1 ? "match" : "matches"} not shown (${found.total} in all${where}${stop})${most}; ${narrow}`;
}
