// The edit tool (SPEC §7): exact string replacement in a file, answered with a short diff.
// old_string must be non-empty: new files and whole rewrites are write_file's job, so a stray
// empty old_string can never clobber a file.
import { readFile, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { readOnlyMode, writeFileAtomic } from "../fs/atomic.ts";
import { realTarget } from "../fs/real-target.ts";
import { directorySpelling, resolveUserPath } from "../fs/user-path.ts";
import { type Tool, toolError } from "../kernel/tool.ts";
import { errorText } from "../kernel/errors.ts";
import { TOOL } from "../kernel/tool-names.ts";
import { contentHash } from "./read-file.ts";
import { changedSinceRead, type SeenFiles, seenAfterEdit } from "./seen-files.ts";
import { decodeText, ENCODING_NAME, encodeText, isText } from "../fs/text-encoding.ts";

export const EDIT_DIFF_LINES = 40; // diff lines shown in the result; the rest is summarized
const DIFF_CONTEXT = 3; // unchanged lines around each change
const DIFF_LINE_CHARS = 300; // a diff line is cut after this many characters
const HINT_MAX_CHARS = 5000; // longer old_strings get no whitespace-insensitive search

/**
 * `home`: what a leading `~` in a path means (default: the user's home); `seen`: what the agent
 * last saw of each file, kept up to date for write_file (shared by a run's file tools).
 */
export function createEditTool(options: { home?: string; seen?: SeenFiles } = {}): Tool {
  const home = options.home ?? homedir();
  const seen = options.seen ?? new Map();
  return {
    name: TOOL.edit,
    description:
      "Replace old_string with new_string in a file. old_string must match exactly (whitespace included) and only once, " +
      "unless replace_all. Returns a diff. Use write_file for new files.",
    parameters: {
      type: "object",
      properties: {
        path: { type: "string" },
        old_string: { type: "string" },
        new_string: { type: "string" },
        replace_all: { type: "boolean" },
      },
      required: ["path", "old_string", "new_string"],
    },
    run: async (args, ctx) => {
      // types checked by the pipeline (kernel/tool-args.ts)
      const {
        path,
        old_string: oldArg,
        new_string: newArg,
        replace_all: replaceAll = false,
      } = args as { path: string; old_string: string; new_string: string; replace_all?: boolean };
      if (path === "") return toolError("edit: `path` must be a non-empty string");
      if (oldArg === "") return toolError("edit: `old_string` is empty; use write_file to create a file or replace all of it");
      if (oldArg === newArg) return toolError("edit: old_string and new_string are identical; nothing to change");

      const where = resolveUserPath(path, ctx.cwd, home);
      if ("error" in where) return toolError(`edit: ${where.error}`);
      const slash = directorySpelling(path);
      if (slash) return toolError(`edit: ${slash}`);
      const { abs } = where;
      const info = await stat(abs).catch((e: NodeJS.ErrnoException) => e);
      if (info instanceof Error)
        return toolError(info.code === "ENOENT" ? `file not found: ${path}; use write_file to create it` : `cannot read ${path}: ${info.message}`);
      if (!info.isFile()) return toolError(`${path} is not a regular file`);
      const locked = await readOnlyMode(abs);
      if (locked) return toolError(readOnlyError(path, locked));
      const bytes = await readFile(abs);
      if (!isText(bytes)) return toolError(`${path} is a binary file; edit only changes text files`);
      const { text, encoding } = decodeText(bytes);

      // The model writes "\n"; a CRLF file must stay CRLF. Mixed files fall back to the raw text.
      const eol = text.includes("\r\n") ? "\r\n" : "\n";
      let oldString = oldArg.replace(/\r?\n/g, eol);
      let newString = newArg.replace(/\r?\n/g, eol);
      let at = indexesOf(text, oldString);
      if (at.length === 0 && oldString !== oldArg) {
        [oldString, newString] = [oldArg, newArg];
        at = indexesOf(text, oldString);
      }
      // A file mixing CRLF and LF: read_file shows neither, so a line break in old_string matches
      // either, and new_string's take the kind most of the match's have (CRLF on a tie).
      const mixed = at.length === 0 && eol === "\r\n" && oldArg.includes("\n") ? mixedMatches(text, oldArg) : undefined;
      if (mixed) {
        oldString = mixed.text;
        const crlf = oldString.split("\r\n").length - 1;
        newString = newArg.replace(/\r?\n/g, 2 * crlf >= oldString.split("\n").length - 1 ? "\r\n" : "\n");
        at = mixed.at;
      }
      if (oldString === newString) return toolError("edit: old_string and new_string differ only in line endings; nothing to change");
      if (at.length === 0 && text.replace(/^\uFEFF/, "") === "")
        return toolError(`${path} is empty, so old_string cannot match; use write_file to give it content`);
      if (at.length === 0) {
        const changed = changedSinceRead(path, seen.get(realTarget(abs)), contentHash(bytes));
        return toolError((changed ? `${changed}\n` : "") + notFound(text, oldArg, path, eol));
      }
      if (at.length > 1 && !replaceAll) {
        const lines = lineNumbers(text, at);
        const list = lines.slice(0, 20).join(", ") + (lines.length > 20 ? ", …" : "");
        return toolError(
          `old_string matches ${at.length} times in ${path} (lines ${list}); include more surrounding lines to pick one, or set replace_all to change every one`,
        );
      }

      let updated = "";
      let from = 0;
      const spans: Span[] = [];
      for (const index of at) {
        updated += text.slice(from, index);
        spans.push({ old: index, new: updated.length });
        updated += newString;
        from = index + oldString.length;
      }
      updated += text.slice(from);
      const encoded = encodeText(updated, encoding);
      if ("missing" in encoded)
        return toolError(`${path} is not UTF-8 but ${ENCODING_NAME[encoding]}, which cannot hold ${encoded.missing.join(" ")} of new_string; not changed`);
      try {
        await writeFileAtomic(abs, encoded, { unchanged: bytes });
      } catch (e) {
        return toolError(`cannot write ${path}: ${errorText(e)}`);
      }
      const real = realTarget(abs);
      seen.set(real, seenAfterEdit(seen.get(real), contentHash(bytes), contentHash(encoded)));
      const count = at.length === 1 ? "1 replacement" : `${at.length} replacements`;
      return {
        output: `edited ${path}: ${count}${encoding === "utf-8" ? "" : ` (kept in ${ENCODING_NAME[encoding]})`}\n${diff(text, updated, spans, oldString.length, newString.length)}`,
      };
    },
  };
}

/** A read-only file is left alone: it may be kept so on purpose. */
export const readOnlyError = (path: string, mode: string) =>
  `${path} is read-only (mode ${mode}); not changed. If it really should change, make it writable first (chmod u+w)`;

/** Where `oldArg` occurs with each of its line breaks read as CRLF or LF, when every occurrence is the same text. */
function mixedMatches(text: string, oldArg: string): { text: string; at: number[] } | undefined {
  const pattern = oldArg
    .replace(/\r\n/g, "\n")
    .split("\n")
    .map((part) => part.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&"))
    .join("\\r?\\n");
  const found = [...text.matchAll(new RegExp(pattern, "g"))];
  if (found.length === 0 || found.some((m) => m[0] !== found[0]![0])) return undefined;
  return { text: found[0]![0], at: found.map((m) => m.index) };
}

function indexesOf(text: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) out.push(i);
  return out;
}

/** 1-based line numbers of ascending character offsets. */
function lineNumbers(text: string, offsets: number[]): number[] {
  const out: number[] = [];
  let line = 1;
  let pos = 0;
  for (const offset of offsets) {
    for (let nl = text.indexOf("\n", pos); nl !== -1 && nl < offset; nl = text.indexOf("\n", nl + 1)) line++;
    pos = offset;
    out.push(line);
  }
  return out;
}

/** read_file's line prefix (`  12\t`), which a model sometimes copies into old_string */
const LINE_NUMBER = /^ *\d+\t/;

function notFound(text: string, oldString: string, path: string, eol: string): string {
  const plain = `old_string not found in ${path}; read the file again and copy the exact text`;
  if (oldString.includes("\uFFFD") && !text.includes("\uFFFD"))
    return `old_string not found in ${path}: it has U+FFFD (�), the mark of a byte shown as if it were UTF-8 (cat in bash); read_file shows the file's own characters, copy them`;
  const lines = oldString.split(/\r?\n/).filter((l) => l !== "");
  const prefixed = lines.length > 0 && lines.every((l) => LINE_NUMBER.test(l));
  if (prefixed && text.includes(oldString.replace(/^ *\d+\t/gm, "").replace(/\r?\n/g, eol)))
    return `old_string not found in ${path}: its lines start with read_file's line numbers ("${lines[0]!.match(LINE_NUMBER)![0].trim()}\\t"); leave them out of old_string and new_string`;
  const unended = oldString.replace(/\r?\n$/, "").replace(/\r?\n/g, eol);
  if (/\n$/.test(oldString) && !text.endsWith("\n") && text.endsWith(unended))
    return `old_string not found in ${path}: it ends with a line break, but the file's last line has none; leave it out`;
  const chars = [...oldString.replace(/\s+/g, "")];
  if (chars.length === 0 || chars.length > HINT_MAX_CHARS) return plain;
  const loose = new RegExp(chars.map((c) => c.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&")).join("\\s*"), "u");
  const match = loose.exec(text);
  if (!match) return plain;
  const first = lineNumbers(text, [match.index])[0]!;
  const end = text.indexOf("\n", match.index + match[0].length);
  const shown = text
    .slice(text.lastIndexOf("\n", match.index) + 1, end === -1 ? undefined : end)
    .split("\n")
    .slice(0, 10);
  const numbered = shown.map((line, i) => `${first + i}\t${cut(line.replace(/\r$/, ""))}`).join("\n");
  return `old_string not found in ${path}, but it matches when whitespace is ignored, at line ${first}:\n${numbered}\ncopy the exact text (indentation, tabs, line breaks) into old_string`;
}

const cut = (line: string) => (line.length > DIFF_LINE_CHARS ? line.slice(0, DIFF_LINE_CHARS) + "…" : line);

/** Where one replacement starts in the old and in the new text. */
interface Span {
  old: number;
  new: number;
}

/** A changed block: old lines [a, b) became new lines [a2, b2) (0-based). */
interface Change {
  a: number;
  b: number;
  a2: number;
  b2: number;
}

/**
 * A unified diff of the replacements, with DIFF_CONTEXT lines of context, capped at
 * EDIT_DIFF_LINES lines. Each replacement touches the lines from its start to the character just
 * after it, in both texts; everything outside those lines is unchanged and aligned.
 */
function diff(before: string, after: string, spans: Span[], oldLength: number, newLength: number): string {
  const lines = (text: string) =>
    text
      .replace(/^\uFEFF/, "") // read_file does not show a byte-order mark either
      .replace(/\n$/, "")
      .split("\n")
      .map((l) => l.replace(/\r$/, ""));
  const oldLines = lines(before);
  const newLines = lines(after);
  const oldAt = lineNumbers(
    before,
    spans.flatMap((s) => [s.old, s.old + oldLength]),
  );
  const newAt = lineNumbers(
    after,
    spans.flatMap((s) => [s.new, s.new + newLength]),
  );

  const changes: Change[] = [];
  spans.forEach((_, i) => {
    // the end of a replacement that removes a final newline lies past the last line
    const b = Math.min(oldAt[2 * i + 1]!, oldLines.length);
    const b2 = Math.min(newAt[2 * i + 1]!, newLines.length);
    const c = { a: oldAt[2 * i]! - 1, b, a2: newAt[2 * i]! - 1, b2 };
    const prev = changes[changes.length - 1];
    if (prev && c.a <= prev.b)
      [prev.b, prev.b2] = [c.b, c.b2]; // on the same or the next line: one block
    else changes.push(c);
  });
  for (const c of changes) {
    while (c.a < c.b && c.a2 < c.b2 && oldLines[c.a] === newLines[c.a2]) [c.a, c.a2] = [c.a + 1, c.a2 + 1];
    while (c.a < c.b && c.a2 < c.b2 && oldLines[c.b - 1] === newLines[c.b2 - 1]) [c.b, c.b2] = [c.b - 1, c.b2 - 1];
  }

  const out: string[] = [];
  for (let i = 0; i < changes.length; ) {
    let j = i;
    while (j + 1 < changes.length && changes[j + 1]!.a - changes[j]!.b <= 2 * DIFF_CONTEXT) j++;
    const first = changes[i]!;
    const last = changes[j]!;
    const start = Math.max(0, first.a - DIFF_CONTEXT);
    const end = Math.min(oldLines.length, last.b + DIFF_CONTEXT);
    const start2 = first.a2 - (first.a - start);
    const end2 = last.b2 + (end - last.b);
    out.push(`@@ -${start + 1},${end - start} +${start2 + 1},${end2 - start2} @@`);
    let pos = start;
    for (const c of changes.slice(i, j + 1)) {
      for (; pos < c.a; pos++) out.push(" " + oldLines[pos]);
      for (let l = c.a; l < c.b; l++) out.push("-" + oldLines[l]);
      for (let l = c.a2; l < c.b2; l++) out.push("+" + newLines[l]);
      pos = c.b;
    }
    for (; pos < end; pos++) out.push(" " + oldLines[pos]);
    i = j + 1;
  }
  const shown = out.slice(0, EDIT_DIFF_LINES).map(cut);
  const more = out.length - EDIT_DIFF_LINES;
  if (more > 0) shown.push(`… ${more} more diff line${more === 1 ? "" : "s"}`);
  return shown.join("\n");
}
