// The write_file tool (SPEC §7): create or replace a whole file, atomically.
import { stat } from "node:fs/promises";
import { homedir } from "node:os";
import { writeFileAtomic } from "../fs/atomic.ts";
import { readHeadBytes } from "../fs/read-head.ts";
import { resolveUserPath } from "../fs/user-path.ts";
import { type Tool, toolError } from "../kernel/tool.ts";
import { errorText } from "../kernel/errors.ts";
import { TOOL } from "../kernel/tool-names.ts";

/** `home`: what a leading `~` in a path means (default: the user's home). */
export function createWriteFileTool(options: { home?: string } = {}): Tool {
  const home = options.home ?? homedir();
  return {
    name: TOOL.writeFile,
    // an existing file's CRLF line ends are kept too (crlfFile): the result says so, the description need not
    description: "Create or overwrite a file. Creates parent directories; atomic; keeps an existing file's mode. To change part of a file, use edit.",
    parameters: {
      type: "object",
      properties: { path: { type: "string" }, content: { type: "string" } },
      required: ["path", "content"],
    },
    run: async (args, ctx) => {
      const { path, content } = args as { path: string; content: string }; // types checked by the pipeline
      if (path === "") return toolError("write_file: `path` must be a non-empty string");

      const where = resolveUserPath(path, ctx.cwd, home);
      if ("error" in where) return toolError(`write_file: ${where.error}`);
      const { abs } = where;
      const before = await stat(abs).catch(() => undefined);
      if (before?.isDirectory()) return toolError(`${path} is a directory; give a file path`);
      const crlf = before?.isFile() === true && !content.includes("\r") && content.includes("\n") && crlfFile(abs);
      const bytes = new TextEncoder().encode(crlf ? content.replaceAll("\n", "\r\n") : content);
      try {
        await writeFileAtomic(abs, bytes);
      } catch (e) {
        return toolError(`cannot write ${path}: ${errorText(e)}`);
      }
      const lines = content === "" ? 0 : content.split("\n").length - (content.endsWith("\n") ? 1 : 0);
      return {
        output: `${before ? "overwrote" : "created"} ${path} (${count(lines, "line")}, ${count(bytes.length, "byte")}${crlf ? "; its CRLF line ends kept" : ""})`,
      };
    },
  };
}

/**
 * Whether the file's line ends are CRLF, all of them, in its first 64 KB: a Windows file the model
 * rewrites with `\n` keeps them (edit does the same), or every line of it would show as changed.
 */
function crlfFile(abs: string): boolean {
  try {
    const text = Buffer.from(readHeadBytes(abs, CRLF_PROBE_BYTES).bytes).toString("latin1");
    return text.includes("\r\n") && !/(^|[^\r])\n/.test(text);
  } catch {
    return false;
  }
}

const CRLF_PROBE_BYTES = 64 * 1024;

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
