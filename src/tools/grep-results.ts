// The grep tool's results (SPEC §7): the hits of each file, collected in path order under the cap
// whichever search found them (ripgrep or the built-in walker), and the text the model reads. Pure.
import { errnoCode, errorText } from "../kernel/errors.ts";

const GREP_LINE_CHARS = 300; // a result line is cut after this many characters (minified code)

/**
 * Long lines (minified code, a one-line JSON) are cut once, when they are stored: to the
 * GREP_LINE_CHARS around the first match when it lies beyond them, else from the start.
 */
export function clip(text: string, regex?: RegExp): string {
  if (text.length <= GREP_LINE_CHARS) return text;
  const at = regex?.exec(text)?.index ?? 0;
  if (at < GREP_LINE_CHARS / 2) return text.slice(0, GREP_LINE_CHARS) + "…";
  const start = Math.min(at - Math.floor(GREP_LINE_CHARS / 3), text.length - GREP_LINE_CHARS);
  return `…${text.slice(start, start + GREP_LINE_CHARS)}${start + GREP_LINE_CHARS < text.length ? "…" : ""}`;
}

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
  files: FileHits[];
  total: number;
  add(hits: FileHits): void;
  /** paths (as shown) the search could not read, and why */
  unreadable: { path: string; why: string }[];
}

/**
 * Keeps the files (sorted by path, component by component) that can still be shown under the
 * cap, and counts every match. Memory stays bounded by the cap, not by the number of matches.
 */
export function createCollector(cap: number): Collector {
  const files: FileHits[] = [];
  const collector: Collector = {
    files,
    total: 0,
    unreadable: [],
    add(hits) {
      if (hits.count === 0) return;
      collector.total += hits.count;
      let at = files.findIndex((f) => comparePaths(hits.path, f.path) < 0);
      if (at === -1) at = files.length;
      files.splice(at, 0, hits);
      let kept = 0;
      const full = files.findIndex((f) => (kept += Math.min(f.count, cap)) >= cap);
      if (full !== -1) files.length = full + 1;
    },
  };
  return collector;
}

export function comparePaths(a: string, b: string): number {
  const x = a.split("/");
  const y = b.split("/");
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  }
  return x.length - y.length;
}

/** Hits of one file from its lines: all matches counted, the first `cap` kept with context. */
export function hitsOf(path: string, lines: string[], regex: RegExp, cap: number, context: number): FileHits {
  const hits: FileHits = { path, count: 0, lines: new Map() };
  for (let i = 0; i < lines.length; i++) {
    if (!regex.test(lines[i]!)) continue;
    hits.count++;
    if (hits.count > cap) continue;
    for (let n = Math.max(1, i + 1 - context); n <= Math.min(lines.length, i + 1 + context); n++) {
      if (hits.lines.has(n)) continue;
      const match = n === i + 1 || regex.test(lines[n - 1]!);
      hits.lines.set(n, { text: clip(lines[n - 1]!, match ? regex : undefined), match });
    }
  }
  return hits;
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

/** The result text: matches as `path:line: text`, context as `path-line- text`, and the cap note. */
export function format(found: Collector, cap: number, context: number): string {
  const out: string[] = [];
  let budget = cap;
  let shown = 0;
  for (const file of found.files) {
    if (budget <= 0) break;
    const matches = [...file.lines]
      .filter(([, line]) => line.match)
      .map(([n]) => n)
      .sort((a, b) => a - b);
    const print = new Set<number>();
    for (const m of matches.slice(0, budget)) {
      for (let n = m - context; n <= m + context; n++) if (file.lines.has(n)) print.add(n);
    }
    for (const n of [...print].sort((a, b) => a - b)) {
      const line = file.lines.get(n)!;
      const mark = line.match ? ":" : "-";
      out.push(`${file.path}${mark}${n}${mark} ${line.text}`);
      if (line.match) {
        shown++;
        budget--;
      }
    }
  }
  const more = found.total - shown;
  if (more > 0)
    out.push(
      `… ${more} more ${more === 1 ? "match" : "matches"} not shown (${found.total} in all); narrow with path, glob or a more specific pattern, or raise max_results`,
    );
  return out.join("\n");
}
