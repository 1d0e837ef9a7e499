// Where a local MCP server runs (README "MCP servers"). A server the project defines — its
// `command` written in the project's `.hey/config.toml` or `.mcp.json` — runs in the project
// root, or in its `cwd` taken from there: wherever below the root hey starts, `./tools/srv.sh` is
// the same program and `args = ["."]` the same directory, so the line the user approved means one
// thing (Claude Code runs a `.mcp.json` server in the project root too). A server of the user's
// own config, or of a --config file, runs in its `cwd` as written, else where hey started.
// Pure: paths only.
import { basename, dirname, isAbsolute, join } from "node:path";

/**
 * The directory a server runs in: `written` is its `cwd` key (empty: none), `projectFile` the
 * project file that wrote its `command` (undefined: not a project's). Undefined: hey's own directory.
 */
export function serverDir(written: string | undefined, projectFile: string | undefined): string | undefined {
  if (!projectFile) return written || undefined;
  const root = projectRootOf(projectFile);
  return !written ? root : isAbsolute(written) ? written : join(root, written);
}

/** The project root of a project file: the directory holding `.mcp.json`, or the `.hey/` of `.hey/config.toml`. */
export function projectRootOf(projectFile: string): string {
  return basename(projectFile) === ".mcp.json" ? dirname(projectFile) : dirname(dirname(projectFile));
}
