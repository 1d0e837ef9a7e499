// `@path` mentions and stdin merged into a prompt (SPEC §2). Pure: the caller reads the files.

/** Files over this size are cut; a prompt is paid for on every later request of the session. */
export const MENTION_MAX_BYTES = 100 * 1024;

const TRAILING_PUNCTUATION = /[.,;:!?)\]}'"]+$/;

/**
 * The `@path` tokens of a message, in order of first appearance, trailing punctuation removed.
 * `looksLikePath` tells a file reference (`@src/a.ts`, `@README.md`) from a word (`@john`):
 * a missing path is an error, a missing word stays literal.
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

export interface MentionedFile {
  path: string;
  text: string;
  /** original size in bytes when the text was cut at MENTION_MAX_BYTES */
  truncatedFrom?: number;
}

/** message, then each mentioned file, then stdin, separated by blank lines (SPEC §2). */
export function buildPrompt(message: string, files: MentionedFile[], stdin?: string): string {
  const parts: string[] = [];
  if (message.trim() !== "") parts.push(message.trim());
  for (const f of files) {
    const note = f.truncatedFrom === undefined ? "" : `\n(truncated: showing the first ${MENTION_MAX_BYTES} of ${f.truncatedFrom} bytes; read_file can read the rest)`;
    parts.push(fence(f.path, f.text) + note);
  }
  if (stdin !== undefined && stdin.trim() !== "") parts.push(fence("stdin", stdin));
  return parts.join("\n\n");
}

/** Decodes a file for a prompt, or says why it cannot be shown as text. */
export function decodeForPrompt(bytes: Uint8Array): { text: string; truncatedFrom?: number } | { binary: true } {
  const head = bytes.subarray(0, 8192);
  if (head.includes(0)) return { binary: true };
  if (bytes.length <= MENTION_MAX_BYTES) return { text: new TextDecoder().decode(bytes) };
  // cut on a line boundary near the cap so the model never sees half a line
  const cut = bytes.subarray(0, MENTION_MAX_BYTES);
  const lastNewline = cut.lastIndexOf(10);
  const end = lastNewline > MENTION_MAX_BYTES / 2 ? lastNewline + 1 : MENTION_MAX_BYTES;
  return { text: new TextDecoder().decode(bytes.subarray(0, end)), truncatedFrom: bytes.length };
}
