// The write_file tool (SPEC §7): create or replace a whole file (fs/atomic.ts: atomically, unless that would change what the file is).
import { readFile, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { ParentIsFileError, parentIsFile, readOnlyMode, writeFileAtomic } from "../fs/atomic.ts";
import { FileInUseError, fileInUse } from "../fs/busy-rename.ts";
import { readOnlyError } from "./edit.ts";
import { contentHash } from "./read-file.ts";
import { cutLineRefusal, type SeenFiles, writeRefusal } from "./seen-files.ts";
import { gutterGate, gutterRefusal } from "./line-gutter.ts";
import { decodeText, likeBefore } from "../fs/text-encoding.ts";
import { realTarget } from "../fs/real-target.ts";
import { directorySpelling, resolveUserPath } from "../fs/user-path.ts";
import { type Tool, toolError } from "../kernel/tool.ts";
import { errorText } from "../kernel/errors.ts";
import { TOOL } from "../kernel/tool-names.ts";
import { diskPath } from "../fs/dir-names.ts";
import { creationRefusal } from "./missing-file.ts";
import { inWorkDir } from "../fs/work-dir.ts";
import type { WriteVet } from "../config/write-check.ts";

/**
 * `home`: what a leading `~` in a path means (default: the user's home); `seen`: what the agent last
 * saw of each file — pass the same map to read_file, edit and write_file (createAgent's default
 * tools share one; default: this tool's own, and then no existing file can be replaced, since
 * only a file read or written through the same map may be): a file changed since, or never read,
 * is not replaced; `vet`: a refusal of the content for that file (hey's config files), else it is written.
 */
export function createWriteFileTool(options: { home?: string; seen?: SeenFiles; vet?: WriteVet } = {}): Tool {
  const home = options.home ?? homedir();
  const seen = options.seen ?? new Map();
  const gutterFor = gutterGate(); // per tool: a refused gutter passes when the same text comes again
  return {
    name: TOOL.writeFile,
    description: "Create or overwrite a file, and its parent directories; keeps a file's mode, owner and hard links. To change part of a file, use edit.",
    parameters: {
      type: "object",
      properties: { path: { type: "string" }, content: { type: "string" } },
      required: ["path", "content"],
    },
    // a write at the old path of a project moved since hey started would make its tree again there, a ghost; said as what it is, not as a file not found
    run: (args, ctx) =>
      inWorkDir(
        ctx.cwd,
        (moved) => toolError(`write_file: ${String(args.path)} not written: ${moved}`),
        async () => {
          const { path, content } = args as { path: string; content: string }; // types checked by the pipeline
          if (path === "") return toolError("write_file: `path` must be a non-empty string");

          const where = resolveUserPath(path, ctx.cwd, home);
          if ("error" in where) return toolError(`write_file: ${where.error}`);
          const { abs } = where;
          const before = await stat(diskPath(abs)).catch(() => undefined);
          if (before?.isDirectory()) return toolError(`${path} is a directory; give a file path`);
          // a FIFO would wait for a reader, and a device or socket is not a file to replace with one
          if (before && !before.isFile()) return toolError(`${path} is not a regular file (a named pipe, device or socket); not changed`);
          const slash = directorySpelling(path);
          if (slash) return toolError(`write_file: ${slash}`);
          const refused = before ? undefined : await creationRefusal(path, abs);
          if (refused) return toolError(refused);
          const locked = await readOnlyMode(abs);
          if (locked) return toolError(readOnlyError(path, locked));
          const old = before?.isFile() ? await readFile(diskPath(abs)).catch(() => undefined) : undefined;
          const real = realTarget(abs);
          const cut = cutLineRefusal(path, content);
          if (cut) return toolError(cut);
          const gutter = gutterFor(abs, content, old ? [decodeText(old).text] : []);
          if (gutter) return toolError(gutterRefusal("content", gutter, `${path} not written`));
          const stale = writeRefusal(path, seen.get(real), old && { hash: contentHash(old), bytes: old }, content);
          if (stale) return toolError(stale);
          const { bytes, kept, converted, unfit } = likeBefore(old, content);
          // U+FFFD is what a byte that is not UTF-8 became on its way to the model (cat in bash): writing it back loses the byte
          if (unfit?.missing.includes("\uFFFD"))
            return toolError(
              `${path} is ${unfit.encoding}, and content has U+FFFD (�), the mark of a byte read as if it were UTF-8: read the file with read_file, which decodes it, and write what that shows; not changed`,
            );
          const vetted = options.vet?.(abs, content);
          if (vetted && "refused" in vetted) return toolError(`write_file: ${path} ${vetted.refused}`);
          try {
            await writeFileAtomic(abs, bytes, { unchanged: before ? old : null }); // undefined (unreadable): not compared
          } catch (e) {
            if (e instanceof FileInUseError) return toolError(fileInUse(path, e.code));
            return toolError(`cannot write ${path}: ${e instanceof ParentIsFileError ? parentIsFile(spelled(path, abs, e.file)) : errorText(e)}`);
          }
          seen.set(real, { hash: contentHash(bytes) });
          const lines = content === "" ? 0 : content.split("\n").length - (content.endsWith("\n") ? 1 : 0);
          const form =
            (kept.length ? `; kept its ${kept.join(", ")}` : "") +
            (converted ? `; ${converted}` : "") +
            (unfit ? `; now UTF-8: ${unfit.encoding} cannot hold ${unfit.missing.join(" ")}` : "");
          const note = vetted && "note" in vetted ? `\n${vetted.note}` : "";
          return { output: `${before ? "overwrote" : "created"} ${path} (${count(lines, "line")}, ${count(bytes.length, "byte")}${form})${note}` };
        },
      ),
  };
}

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** `ancestor`, a parent of `abs`, as `path` (the user's spelling of `abs`) names it; else as it is. */
function spelled(path: string, abs: string, ancestor: string): string {
  const rest = abs.slice(ancestor.length);
  return abs.startsWith(ancestor) && rest.startsWith("/") && path.endsWith(rest) && path.length > rest.length ? path.slice(0, -rest.length) : ancestor;
}
