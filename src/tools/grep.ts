// The grep tool (SPEC §7): regex search over the project's files. ripgrep does the work when it is
// installed or inside the binary (ripgrep.ts); otherwise a built-in walker (walk.ts) does. Both
// feed the same collector and formatter, and ripgrep runs with flags that make it see the same
// files, so the model gets the same text either way:
//   --hidden                  dotfiles are searched (.github/, .env.example…); ALWAYS_SKIP is not
//   ignore files              ripgrep's own: .gitignore, .ignore, .rgignore, .git/info/exclude and
//                             git's global excludes file, which walk.ts reads too (fs/ignore-files.ts)
//   --crlf --encoding auto    `$` matches before CRLF; a byte-order mark is no text (`^` matches after
//                             it) and a UTF-16 file with one is searched as text; other bytes as they are
//   binary files              any other file with a NUL byte is dropped (ripgrep warns when it finds
//                             one after a match)
//   context                   taken from ripgrep's context lines, cut to the shown matches here
//   long lines                ripgrep leaves out lines over RG_MAX_COLUMNS; they are read from the file
// Patterns are compiled as JS regexes first (grep-regex.ts: so a bad pattern fails the same way in
// both); one ripgrep's Rust dialect rejects (look-around, backreferences) runs on the built-in path.
import { homedir } from "node:os";
import { sep } from "node:path";
import { type Tool, toolError } from "../kernel/tool.ts";
import { GREP_MAX_CHARS } from "./grep-results.ts";
import { TOOL } from "../kernel/tool-names.ts";
import type { GrepToolOptions, Query } from "./grep-search.ts";

export type { GrepToolOptions };

export const GREP_MAX_RESULTS = 100; // matching lines shown unless max_results says otherwise
const GREP_MAX_RESULTS_LIMIT = 1000; // the most max_results may ask for
const GREP_MAX_CONTEXT = 10; // context lines either side, at most

export function createGrepTool(options: GrepToolOptions = {}): Tool {
  const home = options.home ?? homedir();
  return {
    name: TOOL.grep,
    description:
      // any JS regex: one ripgrep's dialect rejects (look-around, backreferences) runs on the built-in search
      `JS regex per line in files under path; skips binary, .git, node_modules and .gitignored files unless path names them. ` +
      `Returns path:line: text by path, at most max_results (default ${GREP_MAX_RESULTS}) and ${GREP_MAX_CHARS} chars.`,
    parameters: {
      type: "object",
      properties: {
        pattern: { type: "string" },
        path: { type: "string", description: "file or dir, default ." },
        glob: { type: "string", description: "*.ts, !*.test.ts, src/**/*.ts (under path)" },
        ignore_case: { type: "boolean" },
        context: { type: "integer", description: "lines around each match" },
        max_results: { type: "integer" },
      },
      required: ["pattern"],
    },
    run: async (args, ctx) => {
      const query = parseArgs(args);
      if (typeof query === "string") return toolError(query);
      // the search itself is loaded at the first grep: a run that never searches does not load it (the short task's peak RSS)
      const { searchFiles } = await import("./grep-search.ts");
      return searchFiles(query, ctx, { ...options, home });
    },
  };
}

function parseArgs(args: Record<string, unknown>): Query | string {
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
