// The edit tool (SPEC §7): exact string replacement in a file, answered with a short diff.
// old_string must be non-empty: new files and whole rewrites are write_file's job, so a stray
// empty old_string can never clobber a file.
import { homedir } from "node:os";
import { readOnlyMode, writeFileAtomic } from "../fs/atomic.ts";
import type { WriteVet } from "../config/write-check.ts";
import { FileInUseError, fileInUse } from "../fs/busy-rename.ts";
import { realTarget } from "../fs/real-target.ts";
import { directorySpelling, resolveUserPath } from "../fs/user-path.ts";
import { type Tool, toolError } from "../kernel/tool.ts";
import { errorText } from "../kernel/errors.ts";
import { TOOL } from "../kernel/tool-names.ts";
import { INVISIBLE, lookAlike, oddCharacters, plainMatches } from "./look-alike.ts";
import { fileNotFound, type NameLookup, statNamed } from "./missing-file.ts";
import { changedSinceRead, editedUnseen, type SeenFiles, seenAfterEdit } from "./seen-files.ts";
import { gutterGate, gutterRefusal, LINE_NUMBER } from "./line-gutter.ts";
import { ENCODING_NAME, encodeText, keptStrays, shownText, utf8Pieces } from "../fs/text-encoding.ts";
import { EDIT_MAX_BYTES, hashing, readForEdit, tooBig } from "./edit-file.ts";
import { findMatches, firstLines, lineNumbers, majorityEol, replaceMatches, type Matches, type Spans } from "./edit-matches.ts";
import { inWorkDir } from "../fs/work-dir.ts";

export const EDIT_DIFF_LINES = 40; // diff lines shown in the result; the rest is summarized
const DIFF_CONTEXT = 3; // unchanged lines around each change
const DIFF_LINE_CHARS = 300; // a diff line is cut after this many characters
const DIFF_LEAD = 100; // characters shown before a change far into a long line
const HINT_MAX_CHARS = 5000; // longer old_strings get no whitespace-insensitive search
const MATCH_LINES_SHOWN = 20; // lines named when old_string matches more than once

/**
 * `home`: what a leading `~` in a path means (default: the user's home); `seen`: what the agent
 * last saw of each file, kept up to date for write_file (shared by a run's file tools); `rg`,
 * `cacheDir`: how a missing file's name is looked up in the project (missing-file.ts NameLookup);
 * `vet`: a refusal of the edited text for that file (hey's config files), else it is written.
 */
export function createEditTool(options: { home?: string; seen?: SeenFiles; vet?: WriteVet } & NameLookup = {}): Tool {
  const home = options.home ?? homedir();
  const seen = options.seen ?? new Map();
  const gutterFor = gutterGate(); // per tool: a refused gutter passes when the same text comes again
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
    // a write at the old path of a project moved since hey started would make its tree again there, a ghost; said as what it is, not as a file not found
    run: (args, ctx) =>
      inWorkDir(
        ctx.cwd,
        (moved) => toolError(`edit: ${String(args.path)} not changed: ${moved}`),
        async () => {
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
          const { abs, info } = await statNamed(where.abs);
          if (info instanceof Error)
            return toolError(
              info.code === "ENOENT"
                ? await fileNotFound(path, abs, ctx.cwd, home, "; to create it, use write_file", options)
                : `cannot read ${path}: ${info.message}`,
            );
          if (!info.isFile()) return toolError(`${path} is not a regular file`);
          const locked = await readOnlyMode(abs);
          if (locked) return toolError(readOnlyError(path, locked));
          if (info.size > EDIT_MAX_BYTES) return toolError(tooBig(path, info.size));
          const file = await readForEdit(abs);
          if (!file) return toolError(`${path} is a binary file; edit only changes text files`);
          // `raw` is `text` (the same length) with each byte that is not UTF-8 kept for writing back as it was
          const { text, encoding, raw = text, before } = file;

          // read_file shows no line ends: old_string's line breaks match either kind (edit-matches.ts)
          if (oldArg.replace(/\r\n/g, "\n") === newArg.replace(/\r\n/g, "\n"))
            return toolError("edit: old_string and new_string differ only in line endings; nothing to change");
          const gutter = gutterFor(abs, newArg, [oldArg, text]);
          if (gutter) return toolError(gutterRefusal("new_string", gutter, `${path} not changed`));
          let matches = await findMatches(text, oldArg, ctx.signal);
          if (!matches) return toolError(`edit interrupted: ${path} not changed`);
          let replacement = newArg;
          // curly quotes, dashes, a no-break space; accents stored decomposed; line breaks escaped twice
          const eol = () => majorityEol(text); // most of its lines' (asked only when nothing matched as written)
          const alike = matches.at.length === 0 ? lookAlike(text, oldArg, newArg) : undefined;
          if (alike && alike.oldString === alike.newString)
            return toolError(`edit: ${path} already holds new_string (old_string matched it with look-alike characters); nothing to change`);
          if (alike) {
            matches = { at: alike.at, end: alike.end } satisfies Matches;
            replacement = alike.newString;
          }
          const found = matches.at.length;
          if (found === 0 && text.replace(/^\uFEFF/, "") === "")
            return toolError(`${path} is empty, so old_string cannot match; use write_file to give it content`);
          if (found === 0) {
            const changed = changedSinceRead(path, seen.get(realTarget(abs)), before.sha256);
            return toolError((changed ? `${changed}\n` : "") + notFound(text, oldArg, path, eol()));
          }
          if (found > 1 && !replaceAll) {
            const lines = firstLines(text, matches.at, MATCH_LINES_SHOWN + 1);
            const list =
              lines.length === 1
                ? `all on line ${lines[0]}`
                : `lines ${lines.slice(0, MATCH_LINES_SHOWN).join(", ")}${lines.length > MATCH_LINES_SHOWN ? ", …" : ""}`;
            return toolError(
              `old_string matches ${found} times in ${path} (${list}); include more surrounding lines to pick one, or set replace_all to change every one`,
            );
          }

          const replaced = await replaceMatches(text, matches, replacement, ctx.signal, raw);
          if (!replaced || ctx.signal.aborted) return toolError(`edit interrupted: ${path} not changed`);
          const { updated, spans } = replaced;
          // UTF-8 (most files) is encoded a piece at a time as it is written: no second whole copy
          const encoded = encoding === "utf-8" ? utf8Pieces(updated) : encodeText(updated, encoding);
          if ("missing" in encoded)
            return toolError(`${path} is not UTF-8 but ${ENCODING_NAME[encoding]}, which cannot hold ${encoded.missing.join(" ")} of new_string; not changed`);
          const vetted = options.vet?.(abs, updated);
          if (vetted && "refused" in vetted) return toolError(`edit: ${path} ${vetted.refused}`);
          const hasher = new Bun.CryptoHasher("sha256"); // of the bytes written, as read_file's contentHash
          try {
            await writeFileAtomic(abs, hashing(encoded instanceof Uint8Array ? [encoded] : encoded, hasher), { unchanged: before });
          } catch (e) {
            return toolError(e instanceof FileInUseError ? fileInUse(path, e.code) : `cannot write ${path}: ${errorText(e)}`);
          }
          const real = realTarget(abs);
          const hashes = { before: before.sha256, after: hasher.digest("hex") };
          const unseen = editedUnseen(path, seen.get(real), hashes.before);
          seen.set(real, seenAfterEdit(seen.get(real), hashes, { before: text, at: matches.at, end: matches.end, newString: replacement }));
          const count = found === 1 ? "1 replacement" : `${found} replacements`;
          const strays = keptStrays(updated);
          const kept = encoding !== "utf-8" ? ` (kept in ${ENCODING_NAME[encoding]})` : strays ? ` (${strays})` : "";
          return {
            output: `edited ${path}: ${count}${kept}\n${alike ? `${alike.note}\n` : ""}${unseen ? `${unseen}\n` : ""}${vetted && "note" in vetted ? `${vetted.note}\n` : ""}${diff(text, shownText(updated), spans)}`,
          };
        },
      ),
  };
}

/** A read-only file is left alone: it may be kept so on purpose. */
export const readOnlyError = (path: string, mode: string) =>
  `${path} is read-only (mode ${mode}); not changed. If it really should change, make it writable first (chmod u+w)`;

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
  const alike = plainMatches(text, oldString).at; // lookAlike found none it could edit: written differently
  if (alike.length > 1)
    return `old_string not found in ${path}; it matches at lines ${lineNumbers(text, alike).join(", ")} when look-alike quotes, dashes and spaces are read as plain ones, but each place writes them differently: copy the exact text of the one to change`;
  const marker = /… \[cut: \d+ of \d+ chars\]/.exec(oldString);
  if (marker)
    return `old_string not found in ${path}: it has "${marker[0]}", read_file's mark where it cut a long line, which the file does not hold; end old_string before the mark (the start of the line is enough to match), or see the rest of the line with the command read_file gave`;
  const chars = [...oldString.replace(/\s+/g, "")];
  if (chars.length === 0 || chars.length > HINT_MAX_CHARS) return plain;
  const loose = new RegExp(chars.map((c) => c.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&")).join(`[\\s${INVISIBLE}]*`), "u");
  const match = loose.exec(text);
  if (!match) return plain;
  const first = lineNumbers(text, [match.index])[0]!;
  const end = text.indexOf("\n", match.index + match[0].length);
  const shown = text
    .slice(text.lastIndexOf("\n", match.index) + 1, end === -1 ? undefined : end)
    .split("\n")
    .slice(0, 10);
  const numbered = shown.map((line, i) => `${first + i}\t${cut(line.replace(/\r$/, ""))}`).join("\n");
  const odd = oddCharacters(match[0], oldString);
  return `old_string not found in ${path}, but it matches when whitespace is ignored, at line ${first}:\n${numbered}\n${odd ? `${odd}; ` : ""}copy the exact text (indentation, tabs, line breaks) into old_string`;
}

const cut = (line: string) => (line.length > DIFF_LINE_CHARS ? line.slice(0, DIFF_LINE_CHARS) + "…" : line);

/**
 * A changed line as the diff shows it, beside `other`, its line on the other side: from its start,
 * or, when they first differ past what a cut line shows (a minified bundle), from DIFF_LEAD
 * characters before that, so both sides show the change.
 */
function around(line: string, other: string): string {
  if (line.length <= DIFF_LINE_CHARS && other.length <= DIFF_LINE_CHARS) return line;
  let same = 0;
  while (same < line.length && line[same] === other[same]) same++;
  if (same <= DIFF_LINE_CHARS - DIFF_LEAD) return cut(line);
  return `…${cut(line.slice(same - DIFF_LEAD))}`;
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
 * after it, in both texts (not the line after a line break both end with); everything outside
 * those lines is unchanged and aligned. A line is
 * read from the texts only to be shown or compared: millions of replaced lines cost a count.
 */
function diff(before: string, after: string, spans: Spans): string {
  const oldLines = lineTable(before);
  const newLines = lineTable(after);
  const oldLine = oldLines.lineOf();
  const newLine = newLines.lineOf();

  const changes: Change[] = [];
  for (let i = 0; i < spans.oldAt.length; i++) {
    const [a, a2] = [oldLine(spans.oldAt[i]!) - 1, newLine(spans.newAt[i]!) - 1];
    // when both end at a line start (old_string ended in a line break, and new_string too), the line there is untouched
    const whole = atLineStart(before, spans.oldEnd[i]!) && atLineStart(after, spans.newEnd[i]!) ? 1 : 0;
    // the end of a replacement that removes a final newline lies past the last line
    const b = Math.min(oldLine(spans.oldEnd[i]!) - whole, oldLines.count);
    const b2 = Math.min(newLine(spans.newEnd[i]!) - whole, newLines.count);
    const prev = changes[changes.length - 1];
    if (prev && a <= prev.b)
      [prev.b, prev.b2] = [b, b2]; // on the same or the next line: one block
    else changes.push({ a, b, a2, b2 });
  }
  for (const c of changes) {
    while (c.a < c.b && c.a2 < c.b2 && oldLines.line(c.a) === newLines.line(c.a2)) [c.a, c.a2] = [c.a + 1, c.a2 + 1];
    while (c.a < c.b && c.a2 < c.b2 && oldLines.line(c.b - 1) === newLines.line(c.b2 - 1)) [c.b, c.b2] = [c.b - 1, c.b2 - 1];
  }

  const out: string[] = [];
  let total = 0; // lines of the whole diff, shown or not
  let shut = false; // the cap is reached though fewer lines than it are shown
  // `pair`: the lines on the other side of a change, its k-th shown from where the k-th of these first differs from it
  // `room`: at most this many of them shown
  const put = (table: LineTable, from: number, to: number, mark: string, pair?: { table: LineTable; from: number; to: number }, room = Infinity) => {
    for (let l = from; l < to && !shut && out.length < EDIT_DIFF_LINES && l - from < room; l++) {
      const line = table.line(l);
      const other = pair && pair.from + (l - from) < pair.to ? pair.table.line(pair.from + (l - from)) : undefined;
      out.push(mark + (other === undefined ? cut(line) : around(line, other)));
    }
    total += Math.max(0, to - from);
  };
  // A block the cap would cut (replace_all on many neighbouring lines is one block) is shown a line
  // at a time, each old line beside the one it became, when it has as many new lines as old; else
  // what is left of the cap is shared between its old and new lines: either way the model sees
  // what it wrote, not 40 lines of `-`.
  const putChange = (c: Change) => {
    const [olds, news] = [c.b - c.a, c.b2 - c.a2];
    const room = EDIT_DIFF_LINES - out.length;
    if (olds + news <= room) {
      put(oldLines, c.a, c.b, "-", { table: newLines, from: c.a2, to: c.b2 });
      put(newLines, c.a2, c.b2, "+", { table: oldLines, from: c.a, to: c.b });
    } else if (olds === news)
      for (let k = 0; k < olds; k++) {
        if (out.length + 2 > EDIT_DIFF_LINES) {
          shut = true; // a line without the one it became would mislead: nothing more is shown
          total += 2 * (olds - k);
          break;
        }
        put(oldLines, c.a + k, c.a + k + 1, "-", { table: newLines, from: c.a2 + k, to: c.a2 + k + 1 });
        put(newLines, c.a2 + k, c.a2 + k + 1, "+", { table: oldLines, from: c.a + k, to: c.a + k + 1 });
      }
    else {
      const shownOld = Math.min(olds, Math.max(Math.ceil(room / 2), room - news));
      put(oldLines, c.a, c.b, "-", { table: newLines, from: c.a2, to: c.b2 }, shownOld);
      put(newLines, c.a2, c.b2, "+", { table: oldLines, from: c.a, to: c.b });
    }
  };
  for (let i = 0; i < changes.length; ) {
    let j = i;
    while (j + 1 < changes.length && changes[j + 1]!.a - changes[j]!.b <= 2 * DIFF_CONTEXT) j++;
    const first = changes[i]!;
    const last = changes[j]!;
    const start = Math.max(0, first.a - DIFF_CONTEXT);
    const end = Math.min(oldLines.count, last.b + DIFF_CONTEXT);
    const start2 = first.a2 - (first.a - start);
    const end2 = last.b2 + (end - last.b);
    if (!shut && out.length < EDIT_DIFF_LINES) out.push(`@@ -${start + 1},${end - start} +${start2 + 1},${end2 - start2} @@`);
    total++;
    let pos = start;
    for (let k = i; k <= j; k++) {
      const c = changes[k]!;
      put(oldLines, pos, c.a, " ");
      putChange(c);
      pos = c.b;
    }
    put(oldLines, pos, end, " ");
    i = j + 1;
  }
  const more = total - out.length;
  if (more > 0) out.push(`… ${more} more diff line${more === 1 ? "" : "s"}`);
  return out.join("\n");
}

const atLineStart = (text: string, offset: number) => offset === 0 || text[offset - 1] === "\n";

/** A text's lines as read_file shows them (no byte-order mark, no line ends), found in one pass and read on demand. */
interface LineTable {
  count: number;
  /** line `i` (0-based) */
  line(i: number): string;
  /** a function from a character offset to its 1-based line number; offsets must come in ascending order */
  lineOf(): (offset: number) => number;
}

function lineTable(text: string): LineTable {
  let breaks = 0;
  for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", nl + 1)) breaks++;
  const count = breaks + (text.endsWith("\n") ? 0 : 1);
  // starts[i]: where line i starts; starts[count]: one past the line break that ends the last line (virtual when it has none)
  const starts = new Float64Array(breaks + 2);
  starts[0] = text.startsWith("\uFEFF") ? 1 : 0;
  let k = 0;
  for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", nl + 1)) starts[++k] = nl + 1;
  starts[breaks + 1] = text.length + 1;
  return {
    count,
    line: (i) => text.slice(starts[i], starts[i + 1]! - 1).replace(/\r$/, ""),
    lineOf: () => {
      let at = 0;
      return (offset) => {
        while (at < breaks && starts[at + 1]! <= offset) at++;
        return at + 1;
      };
    },
  };
}
