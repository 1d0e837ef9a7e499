// Input read for a prompt (an @file, stdin, a skill, an MCP resource) as the text the model is
// given: cut at a line end near the cap, text that is not UTF-8 read as read_file reads it, binary
// told from its first bytes. Pure.
import { decodeOutput } from "./output-text.ts";
import { ENCODING_NAME, utf16Of } from "./text-encoding.ts";

/** Binary data is told by a NUL byte in its first this many bytes; nothing further is looked at. */
const BINARY_SNIFF_BYTES = 8192;

/** What a read cut: `shown` bytes kept, of `of` (a file's size; unknown for stdin, whose rest is not read). */
export interface Cut {
  shown: number;
  of?: number;
}

/**
 * Decodes input for a prompt, or says why it cannot be shown as text. `bytes` is what was read:
 * up to `maxBytes` + 1 (one more than fits says there is more); `size`, when known, is the whole.
 * Binary is told from the first BINARY_SNIFF_BYTES only. Text that is not UTF-8 is read as
 * read_file and the bash tool read it, and `encoding` says how: a UTF-16 byte-order mark (Windows
 * PowerShell 5.1's `>`) as UTF-16, other bytes that are not UTF-8 (a Latin-1 log) as their
 * Windows-1252 characters, not as U+FFFD.
 */
export function decodeForPrompt(bytes: Uint8Array, maxBytes: number, size?: number): { text: string; cut?: Cut; encoding?: string } | { binary: true } {
  const whole = bytes.length <= maxBytes && (size === undefined || size <= maxBytes);
  const cut = (shown: number) => (whole ? {} : { cut: { shown, ...(size !== undefined ? { of: size } : {}) } });
  const utf16 = utf16Of(bytes);
  if (utf16) {
    const end = whole ? bytes.length : maxBytes - (maxBytes % 2); // whole code units
    return { text: new TextDecoder(utf16).decode(bytes.subarray(0, end)), encoding: `read as ${ENCODING_NAME[utf16]}`, ...cut(end) };
  }
  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return { binary: true };
  // a cut falls on a line boundary near the cap so the model never sees half a line
  const lastNewline = whole ? -1 : bytes.subarray(0, maxBytes).lastIndexOf(10);
  const end = whole ? bytes.length : lastNewline > maxBytes / 2 ? lastNewline + 1 : maxBytes;
  const { text, foreign } = decodeOutput(bytes.subarray(0, end));
  const encoding = foreign ? `${foreign} byte${foreign === 1 ? " is" : "s are"} not UTF-8, shown as Windows-1252 (Latin-1) characters` : undefined;
  return { text, ...(encoding ? { encoding } : {}), ...cut(end) };
}
