// The grep tool (SPEC §7): regex search over the project's files. This file is what every run
// loads (the tool's description and arguments, checked by grep-args.ts); the search itself,
// ripgrep or the built-in walker, is grep-search.ts, loaded at the first grep call: a run that
// never searches does not load it (each module loaded costs resident memory: SPEC §22's short task).
import { homedir } from "node:os";
import { type Tool, toolError } from "../kernel/tool.ts";
import { GREP_MAX_CHARS, GREP_MAX_RESULTS, parseArgs } from "./grep-args.ts";
import { TOOL } from "../kernel/tool-names.ts";
import type { GrepToolOptions } from "./grep-search.ts";

export function createGrepTool(options: GrepToolOptions = {}): Tool {
  const home = options.home ?? homedir();
  return {
    name: TOOL.grep,
    description:
      // any JS regex: one ripgrep's dialect rejects (look-around, backreferences) runs with its PCRE2, else on the built-in search
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
      const { searchFiles } = await import("./grep-search.ts");
      return searchFiles(query, ctx, { ...options, home });
    },
  };
}
