// File names that are not plain text (SPEC §7): on Linux a name is any bytes but `/` and NUL, so it
// may hold bytes that are not UTF-8 (a Latin-1 `caf\xe9.txt` from an old archive) or a control
// character (a newline). Read as UTF-8 such a byte is U+FFFD, a name no file has, and a newline
// splits a result line. hey writes such a name one way everywhere it shows one (grep, the file
// tools' messages, Tab completion): each byte that is not UTF-8 as `\xE9`, a newline, tab or CR as
// `\n` `\t` `\r`, another control character as `\x1B`, and then a backslash as `\\` — what bash's
// $'…' reads — and every file tool reads that form back (fs/dir-names.ts diskPath). A name that needs none of it is
// written as it is, backslashes too, and costs one test. Pure: fs/dir-names.ts reads a directory's names so.
import { sep } from "node:path";

const ODD = /[\x00-\x1f\x7f\uFFFD]/;
/** A control character: written escaped in a name, and refused in one the model would create (tools/missing-file.ts). */
export const CONTROL = /[\x00-\x1f\x7f]/;
const ESCAPED = /[\x00-\x1f\x7f\\]/g;
const NAMED: Record<string, string> = { "\n": "\\n", "\t": "\\t", "\r": "\\r", "\\": "\\\\" };
const strict = new TextDecoder("utf-8", { fatal: true });
const hex = (byte: number) => `\\x${byte.toString(16).toUpperCase().padStart(2, "0")}`;
const escapeText = (text: string) => text.replace(ESCAPED, (c) => NAMED[c] ?? hex(c.charCodeAt(0)));

/** Whether a name read as UTF-8 (readdir's) may be one shownName writes otherwise: it holds U+FFFD or a control character. */
export const mayBeOdd = (name: string): boolean => ODD.test(name);

/** How hey writes the file name (or path) made of `bytes`: as UTF-8 text when it is that and holds no control character, else escaped as above. */
export function shownName(bytes: Uint8Array): string {
  let text: string | undefined;
  try {
    text = strict.decode(bytes);
  } catch {
    // not UTF-8: each byte that starts no valid character is escaped, the characters between kept
  }
  if (text !== undefined) return CONTROL.test(text) ? escapeText(text) : text;
  let out = "";
  for (let i = 0; i < bytes.length; ) {
    const n = charLength(bytes, i);
    if (n === 0) out += hex(bytes[i++]!);
    else {
      out += escapeText(strict.decode(bytes.subarray(i, i + n)));
      i += n;
    }
  }
  return out;
}

/** The length of the valid UTF-8 character at `bytes[i]`, or 0 when none starts there. */
function charLength(bytes: Uint8Array, i: number): number {
  const lead = bytes[i]!;
  const n = lead < 0x80 ? 1 : lead >= 0xc2 && lead < 0xe0 ? 2 : lead >= 0xe0 && lead < 0xf0 ? 3 : lead >= 0xf0 && lead < 0xf5 ? 4 : 0;
  if (n <= 1 || i + n > bytes.length) return n === 1 ? 1 : 0;
  try {
    strict.decode(bytes.subarray(i, i + n));
    return n;
  } catch {
    return 0;
  }
}

/** The bytes a name written with escapes stands for, or undefined when it has a `\` that starts no escape. */
function bytesNamed(name: string): Buffer | undefined {
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = name.indexOf("\\"); at !== -1; at = name.indexOf("\\", from)) {
    parts.push(Buffer.from(name.slice(from, at)));
    const next = name[at + 1];
    const code = next === "x" && /^[0-9A-F]{2}$/.test(name.slice(at + 2, at + 4)) ? Number.parseInt(name.slice(at + 2, at + 4), 16) : undefined;
    const named = next === "n" ? 10 : next === "t" ? 9 : next === "r" ? 13 : next === "\\" ? 92 : undefined;
    if (code === undefined && named === undefined) return undefined;
    parts.push(Buffer.from([code ?? named!]));
    from = at + (code === undefined ? 2 : 4);
  }
  parts.push(Buffer.from(name.slice(from)));
  return Buffer.concat(parts);
}

/**
 * The path `path` names as hey writes names: `path` itself unless a name in it is exactly the escaped
 * form shownName writes for some bytes, then those bytes (a Buffer when they are not UTF-8). A name
 * with a backslash that is not such a form (`a\b.txt`) is taken as written. On Windows, where `\`
 * separates names and names are never bytes, `path` itself. fs/dir-names.ts diskPath is what the
 * file tools open.
 */
export function bytesPath(path: string): string | Buffer {
  if (sep !== "/" || !path.includes("\\")) return path;
  let bytes = false;
  const names = path.split("/").map((name) => {
    const raw = name.includes("\\") ? bytesNamed(name) : undefined;
    if (!raw || shownName(raw) !== name) return name;
    const text = raw.toString("utf8");
    if (Buffer.from(text).equals(raw)) return text;
    bytes = true;
    return raw;
  });
  if (!bytes) return names.join("/");
  return Buffer.concat(names.flatMap((n, i) => (i === 0 ? [Buffer.from(n)] : [Buffer.from("/"), Buffer.from(n)])));
}

/** The name as a program that reads it as UTF-8 shows it (U+FFFD for each byte that is not), and as Windows-1252 text; undefined when it is plain text. */
export function readAsText(shown: string): { lossy: string; latin: string } | undefined {
  const raw = shown.includes("\\") ? bytesNamed(shown) : undefined;
  if (!raw || shownName(raw) !== shown) return undefined;
  return { lossy: new TextDecoder().decode(raw), latin: new TextDecoder("windows-1252").decode(raw) };
}
