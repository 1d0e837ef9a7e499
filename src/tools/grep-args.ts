// The grep tool's arguments and limits (SPEC §7): their ranges and defaults, the size of a result, and
// the glob as it is matched. Pure.
import { sep } from "node:path";

export const GREP_MAX_RESULTS = 100; // matching lines shown unless max_results says otherwise
const GREP_MAX_RESULTS_LIMIT = 1000; // the most max_results may ask for
const GREP_MAX_CONTEXT = 10; // context lines either side, at most

/**
 * The most characters of matching lines a result holds, as bash's 50 KB and read_file's 100,000
 * characters: a search with long lines and wide context (a CSV, context 10, max_results 1000)
 * otherwise returned megabytes in one call.
 */
export const GREP_MAX_CHARS = 50_000;

export interface Query {
  pattern: string;
  path?: string;
  glob?: string;
  ignoreCase: boolean;
  context: number;
  cap: number;
}

export function parseArgs(args: Record<string, unknown>): Query | string {
  // types checked by the pipeline (kernel/tool-args.ts); ranges here
  const { pattern, path, glob, ignore_case: ignoreCase = false } = args as { pattern: string; path?: string; glob?: string; ignore_case?: boolean };
  if (pattern === "") return "grep: `pattern` must be a non-empty string";
  if (glob === "") return "grep: `glob` must be a non-empty string";
  const context = count(args.context, "context", 0, 0, GREP_MAX_CONTEXT);
  if (typeof context === "string") return context;
  const cap = count(args.max_results, "max_results", GREP_MAX_RESULTS, 1, GREP_MAX_RESULTS_LIMIT);
  if (typeof cap === "string") return cap;
  return {
    pattern,
    ...(path ? { path } : {}),
    ...(glob ? { glob: globOf(glob, sep) } : {}),
    ignoreCase,
    context,
    cap,
  };
}

/**
 * The glob as it is matched: against `/`-separated paths, a leading `./` dropped. On Windows
 * (`separator` is a backslash) a model writes `src\**\*.ts` as often as the `/` form; there a
 * backslash is a separator, not an escape (no file name can hold the `*` or `?` it would escape).
 */
export function globOf(glob: string, separator: string): string {
  return (separator === "\\" ? glob.replaceAll("\\", "/") : glob).replace(/^\.\//, "");
}

function count(value: unknown, name: string, fallback: number, min: number, max: number): number | string {
  if (typeof value !== "number") return fallback;
  const n = value;
  if (n < min) return `grep: \`${name}\` must be an integer ≥ ${min}, got ${n}`;
  return Math.min(n, max);
}
