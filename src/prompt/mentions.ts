// `@path` mentions and stdin merged into a prompt (SPEC §2). Pure: the caller reads the files.
import { decodeOutput } from "../tools/output-text.ts";

/** Binary data is told by a NUL byte in its first this many bytes; nothing further is looked at. */
const BINARY_SNIFF_BYTES = 8192;

const TRAILING_PUNCTUATION = /[.,;:!?)\]}'"]+$/;

/**
 * The `@path` tokens of a message, in order of first appearance, trailing punctuation removed.
 * `looksLikePath` tells a file reference (`@src/a.ts`, `@README.md`) from a word (`@john`); either
 * is expanded only when it names a file, else it stays literal text.
 */
export function findMentions(text: string): { path: string; looksLikePath: boolean }[] {
  const seen = new Set<string>();
  const out: { path: string; looksLikePath: boolean }[] = [];
  for (const m of text.matchAll(/(?:^|\s)@(\S+)/g)) {
    const path = m[1]!.replace(TRAILING_PUNCTUATION, "");
    if (path === "" || seen.has(path)) continue;
    seen.add(path);
    out.push({ path, looksLikePath: /[/\\.~]/.test(path) });
  }
  return out;
}

/** A fenced block labelled with `label`, fenced longer than any backtick run inside `body`. */
export function fence(label: string, body: string): string {
  const longest = Math.max(2, ...Array.from(body.matchAll(/`+/g), (m) => m[0].length));
  const bar = "`".repeat(longest + 1);
  return `${bar}${label}\n${body}${body.endsWith("\n") ? "" : "\n"}${bar}`;
}

/** What a read cut: `shown` bytes kept, of `of` (a file's size; unknown for stdin, whose rest is not read). */
export interface Cut {
  shown: number;
  of?: number;
}

export interface MentionedFile {
  path: string;
  text: string;
  cut?: Cut;
  /** bytes that are not UTF-8, shown as their Windows-1252 characters */
  foreign?: number;
}

/** The note after a fenced input some of whose bytes are not UTF-8 (a Latin-1 log), as the bash tool says it of output. */
const foreignNote = (n: number | undefined) => (n ? `\n(${n} byte${n === 1 ? " is" : "s are"} not UTF-8, shown as Windows-1252 (Latin-1) characters)` : "");

/** message, then each mentioned file, then stdin, separated by blank lines (SPEC §2); a cut says so. */
export function buildPrompt(message: string, files: MentionedFile[], stdin?: { text: string; cut?: Cut; foreign?: number }): string {
  const parts: string[] = [];
  if (message.trim() !== "") parts.push(message.trim());
  for (const f of files) {
    const note = f.cut ? `\n(truncated: showing the first ${f.cut.shown} of ${f.cut.of} bytes; read_file can read the rest)` : "";
    parts.push(fence(f.path, f.text) + note + foreignNote(f.foreign));
  }
  if (stdin !== undefined && stdin.text.trim() !== "") {
    const note = stdin.cut ? `\n(truncated: showing the first ${stdin.cut.shown} bytes of stdin; the rest was not read)` : "";
    parts.push(fence("stdin", stdin.text) + note + foreignNote(stdin.foreign));
  }
  return parts.join("\n\n");
}

/** The stderr line for a cut input: `@big.log` or `stdin`, what was kept, the key that sets it. */
export function cutNotice(what: string, cut: Cut): string {
  if (cut.of === undefined) return `${what}: only the first ${size(cut.shown)} went into the prompt ([input] max_bytes); the rest was not read`;
  return `${what}: only the first ${size(cut.shown)} of ${size(cut.of)} went into the prompt ([input] max_bytes)`;
}

const size = (bytes: number) =>
  bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MB` : bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} bytes`;

/**
 * Decodes input for a prompt, or says why it cannot be shown as text. `bytes` is what was read:
 * up to `maxBytes` + 1 (one more than fits says there is more); `size`, when known, is the whole.
 * Binary is told from the first BINARY_SNIFF_BYTES only. Bytes that are not UTF-8 (a Latin-1 log)
 * read as their Windows-1252 characters, counted in `foreign`, as read_file and the bash tool read
 * them, not as U+FFFD.
 */
export function decodeForPrompt(bytes: Uint8Array, maxBytes: number, size?: number): { text: string; cut?: Cut; foreign?: number } | { binary: true } {
  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return { binary: true };
  const decoded = (b: Uint8Array) => {
    const { text, foreign } = decodeOutput(b);
    return foreign ? { text, foreign } : { text };
  };
  if (bytes.length <= maxBytes && (size === undefined || size <= maxBytes)) return decoded(bytes);
  // cut on a line boundary near the cap so the model never sees half a line
  const head = bytes.subarray(0, maxBytes);
  const lastNewline = head.lastIndexOf(10);
  const end = lastNewline > maxBytes / 2 ? lastNewline + 1 : maxBytes;
  return { ...decoded(bytes.subarray(0, end)), cut: { shown: end, ...(size !== undefined ? { of: size } : {}) } };
}
