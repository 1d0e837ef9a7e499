// One config file read and parsed: a TOML file, or a project's `.mcp.json` (config/mcp-formats.ts),
// with errors that name the file and, for a syntax error, its line and column. Merging and checking
// the files is config/load.ts's and config/resolve.ts's.
import type TOMLModule from "@iarna/toml";
import { isDevNull, readHeadText } from "../fs/read-head.ts";
import { realPathAt } from "../fs/root-probe.ts";
import { errnoCode, errorText } from "../kernel/errors.ts";
import { fromMcpJson } from "./mcp-formats.ts";
import { ConfigError, type ConfigLayer, type Written } from "./settings.ts";
import { redefinedReason } from "./toml-reason.ts";

/** @iarna/toml's TomlError: `line`/`col` are 0-based; `message` ends with " at row N, col M, pos P:" and a code excerpt. */
interface TomlError extends Error {
  fromTOML: true;
  line: number;
  col: number;
}

const isTomlError = (e: unknown): e is TomlError => e instanceof Error && (e as Partial<TomlError>).fromTOML === true;

/** The short reason of a TomlError: its excerpt cut off, and a character code shown as the character. */
function reason(e: TomlError): string {
  return e.message
    .replace(/ at row \d+, col \d+, pos \d+:[\s\S]*$/, "")
    .replace(/Unknown character "(\d+)"/, (_, code: string) => `Unknown character ${JSON.stringify(String.fromCodePoint(Number(code)))}`);
}

/**
 * Reads and parses one config file. A missing file (or one below a file: ENOTDIR) is undefined, or a ConfigError when
 * `required` (the `--config` file). Throws ConfigError `PATH:LINE:COL: reason` (1-based) on a
 * syntax error and `PATH: ...` when the file cannot be read.
 */
export function loadLayer(path: string, opts: { required: boolean; written?: Written }): ConfigLayer | undefined {
  let text: string;
  try {
    text = (opts.written?.path === path ? opts.written.text : undefined) ?? readConfigText(path);
  } catch (e) {
    const code = errnoCode(e);
    if (absent(code) && !opts.required) return undefined;
    if (code === "ENOENT") throw new ConfigError(`--config ${path}: no such file`);
    throw unreadable(path, e);
  }
  return { source: path, data: parseToml(path, text), text };
}

/**
 * Reads a project's `.mcp.json` as a config layer (config/mcp-formats.ts): undefined when there is
 * none; its warnings go to `warn`; `written`: a write's text read instead of the disk's. Throws
 * ConfigError when it is not JSON (`path:line:col`), or a server entry is not an object (or its
 * `type` contradicts it), or it cannot be read. `drop` given, and not a write being vetted: such an
 * entry is left out of the layer and handed to `drop` with its errors instead.
 */
export function loadMcpJson(
  path: string,
  warn: (message: string) => void,
  written?: Written,
  drop?: (server: string, errors: string[]) => void,
): ConfigLayer | undefined {
  let text: string;
  try {
    text = (written?.path === path ? written.text : undefined) ?? readConfigText(path);
  } catch (e) {
    if (absent(errnoCode(e))) return undefined;
    throw unreadable(path, e);
  }
  const read = fromMcpJson(path, text);
  const broken = Object.entries(read.broken);
  const lenient = drop !== undefined && written?.path !== path; // the agent's own write is refused whole
  const errors = [...read.errors, ...(lenient ? [] : broken.flatMap(([, e]) => e))];
  if (errors.length) throw new ConfigError(errors.join("\n"));
  if (lenient) for (const [server, e] of broken) drop(server, e);
  for (const w of read.warnings) warn(w);
  return { source: path, data: read.data, locate: read.locate, origins: read.origins };
}

/**
 * A config file's text, read only from a regular file (fs/read-head.ts opens it without waiting): a
 * FIFO would hold start-up in open() until something wrote to it. /dev/null reads as empty
 * (`--config /dev/null`: no settings). UTF-16 with a byte-order mark (Windows PowerShell 5.1's
 * `>`) is read as such, as read_file reads it. Throws the system error, EISDIR or EINVAL (not a file).
 */
function readConfigText(path: string): string {
  return isDevNull(path, realPathAt) ? "" : readHeadText(path, Number.MAX_SAFE_INTEGER).text; // its real path shared with recordKey's
}

/**
 * No file there: none by that name, or a file where a directory of its path would be (HOME=/dev/null,
 * a `.hey` that is a file) — nothing can exist below a file, as git counts it for its config files.
 * Not EACCES: a file this user cannot read may hold deny rules, and is refused.
 */
const absent = (code: string | undefined) => code === "ENOENT" || code === "ENOTDIR";

/** The ConfigError for a config file that is there but cannot be read. */
function unreadable(path: string, e: unknown): ConfigError {
  const code = errnoCode(e);
  if (code === "EINVAL") return new ConfigError(`${path} is not a regular file (a FIFO, device or socket); hey reads config only from a file`);
  return new ConfigError(`${path}: cannot read (${code ?? errorText(e)})`);
}

/**
 * Bun's native parser for the common case; @iarna/toml only to locate an error, because
 * Bun.TOML's errors carry no line or column and @iarna/toml costs ~14 ms of start-up to load.
 */
function parseToml(path: string, text: string): Record<string, unknown> {
  const clean = text.replace(/^\uFEFF/, ""); // editors on Windows may write a byte-order mark
  try {
    return Bun.TOML.parse(clean) as Record<string, unknown>;
  } catch (fast) {
    const TOML = require("@iarna/toml") as typeof TOMLModule;
    try {
      // CRLF as LF, same lines: @iarna/toml takes a CR in a comment for the mistake, on line 1 (Windows files end lines so)
      TOML.parse(clean.replace(/\r\n/g, "\n"));
    } catch (e) {
      if (isTomlError(e)) {
        const why = reason(e);
        const said = (why === "Can't redefine existing key" && redefinedReason(clean, e.line)) || why;
        throw new ConfigError(`${path}:${e.line + 1}:${e.col + 1}: ${said}`);
      }
      throw e;
    }
    // the two parsers disagree (e.g. an integer beyond 2^53): Bun's reason, without a position
    throw new ConfigError(`${path}: ${errorText(fast).replace(/^TOML Parse error: /, "")}`);
  }
}
