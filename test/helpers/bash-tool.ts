// The bash tool as the tool tests use it: this machine's shell, run in a temporary project directory
// of the test file's (removed after its last test), full outputs in its `.out`, and the context a call gets.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { ToolContext } from "../../src/kernel/tool.ts";
import { type BashToolOptions, createBashTool } from "../../src/tools/bash.ts";
import { chooseShell } from "../../src/tools/shell.ts";
import { fileTempDir } from "./fixtures.ts";

export const shell = chooseShell({ platform: process.platform, findOnPath: (name) => Bun.which(name) ?? undefined });

export function fileBashTool(prefix: string) {
  const dir = fileTempDir(prefix);
  mkdirSync(join(dir.path, ".out"));
  return {
    dir: dir.path,
    /** where full outputs (and background jobs' output) go */
    out: join(dir.path, ".out"),
    tool: (opts: Partial<BashToolOptions> = {}) =>
      createBashTool({ shell, timeoutMs: 10_000, filter: "builtin", raw: false, outputDir: join(dir.path, ".out"), ...opts }),
    ctx: (signal = new AbortController().signal): ToolContext => ({ signal, cwd: dir.path }),
  };
}
