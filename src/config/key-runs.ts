// Pieces of a private key that hold neither of its armour lines nor its first bytes (x90 #1, #2):
// lines from its middle (`sed -n 10,12p ~/.ssh/id_rsa`, `head -c 600 key | tail -c 300`, also with
// a prefix on each line: `grep -n`'s `12:`, `# `, a log's time and host), and the rest of a key PEM
// written in base64 on one line past read_file's cut (`sed -n 3p kubeconfig | cut -c 2001-6000`).
// They are told by shape: lines of a key's width (PEM's 64, OpenSSH's 70), base64 of all three
// kinds (upper and lower case, digits: a hex digest has two) to the end of the line, behind the same
// prefix, two or more in a row; and base64 whose text is such lines. A certificate's or public
// key's lines inside their own armour, or above its END line, stay; lines from a certificate's
// middle with neither armour line look the same as a key's and are hidden too. Pure.
import { base64Code, type PrefixShape, prefixLength, prefixShape, startsPrivateKey } from "./key-shapes.ts";

/** The widths of a key's body lines: PEM (and PGP, PuTTY) wrap at 64 characters, OpenSSH at 70. */
const KEY_WIDTHS = [64, 70] as const;
/** Whole lines of a key's width in a row: one such line alone is too common in other text (a hash, an id) to take. */
const MIN_RUN_LINES = 2;
/** More lines of a key's width in a row than any key has (an RSA key of 16,384 bits: 195 lines of 64) are other base64: `openssl base64` of a file. */
const MAX_RUN_LINES = 200;
/** The armour of what is no secret, inside which lines of a key's width are shown: a certificate, a public key, a signature, and RFC 4716's public key (`ssh-keygen -e`, four dashes). */
const PUBLIC_BEGIN = /-----BEGIN (?![A-Z0-9 ]*PRIVATE KEY)[A-Z0-9 ]+-----|---- BEGIN SSH2 PUBLIC KEY ----/;
const PUBLIC_END = /-----END (?![A-Z0-9 ]*PRIVATE KEY)[A-Z0-9 ]+-----|---- END SSH2 PUBLIC KEY ----/;
const ARMOUR_END = /-----END [A-Z0-9 ]+-----|---- END SSH2 [A-Z0-9 ]+ ----/;
const BASE64 = /^[A-Za-z0-9+/]+$/;

const threeKinds = (body: string) => /[A-Z]/.test(body) && /[a-z]/.test(body) && /\d/.test(body);

/** Whether base64 `body` starts a DER structure (a SEQUENCE holding a SEQUENCE or an INTEGER): a certificate's or public key's first line, when it starts no private key. */
function startsDer(body: string): boolean {
  const b = atob(body.slice(0, 12));
  const inner = b.charCodeAt(1) < 0x80 ? 2 : 2 + (b.charCodeAt(1) & 0x7f);
  return b.charCodeAt(0) === 0x30 && (b.charCodeAt(inner) === 0x30 || b.charCodeAt(inner) === 0x02);
}

/** Whether `prefix` (what a line holds before its base64) has the shape `first`'s prefix has: digits and blanks may differ. */
function samePrefix(shape: PrefixShape | undefined, prefix: string): boolean {
  return shape ? prefixLength(shape, prefix) === prefix.length : prefix.trim() === "";
}

/** A line of `text`: from `start` to its end, without a `\r`; `next` is where the line after it starts (past the text's end for the last). */
function lineAt(text: string, start: number): { start: number; end: number; next: number } {
  const newline = text.indexOf("\n", start);
  const stop = newline === -1 ? text.length : newline;
  return { start, end: text.charCodeAt(stop - 1) === 13 ? stop - 1 : stop, next: stop + 1 };
}

/**
 * The line split into what goes before a body of `width` base64 characters ending it and that body, when it ends so;
 * `kinds`: the body holds all three kinds of base64, as a run's first line must (a later line of a key, or of any
 * base64, lacks a digit about once in 50,000: it goes on the run, never ends it there).
 */
function wholeLine(text: string, line: { start: number; end: number }, width: number, kinds = true): { prefix: string; body: string } | undefined {
  const at = line.end - width;
  if (at < line.start) return undefined;
  // the base64 is as wide as a key's line, but for a diff's `+` before it: a wider line is other base64 (`base64` wraps at 76)
  if (at > line.start && base64Code(text.charCodeAt(at - 1)) && !(text.charCodeAt(at - 1) === 43 && text.slice(line.start, at - 1).trim() === ""))
    return undefined;
  for (let i = line.end - 1; i >= at; i--) if (!base64Code(text.charCodeAt(i))) return undefined;
  const body = text.slice(line.end - width, line.end);
  return !kinds || threeKinds(body) ? { prefix: text.slice(line.start, line.end - width), body } : undefined;
}

/** Where a line's part of a key's line starts, when it holds one after the key's prefix: the first (`tail -c` starts inside one) or the last (shorter, maybe padded). */
function partLine(text: string, line: { start: number; end: number }, shape: PrefixShape | undefined, width: number, last: boolean): number | undefined {
  const whole = text.slice(line.start, line.end);
  const skip = shape ? prefixLength(shape, whole) : (/^[ \t]*/.exec(whole)?.[0].length ?? 0);
  if (skip === undefined) return undefined;
  const rest = whole.slice(skip);
  const body = last ? rest.replace(/={1,2}$/, "") : rest;
  return body.length > 0 && body.length < width && BASE64.test(body) ? line.start + skip : undefined;
}

/**
 * The spans (start, end offsets) of the pieces of keys in `text`, in order: runs of a key's body
 * lines, each from its first base64 character to its last, and base64 tokens that hold such lines.
 * One walk over the lines, as this runs on every tool result.
 */
export function keyPieces(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  let inPublic = false;
  let dash = text.indexOf("----");
  let taken = -1; // where the last run ended: the line above a run is its part only if no run took it
  for (let start = 0; start <= text.length; ) {
    const line = lineAt(text, start);
    if (dash !== -1 && dash < start) dash = text.indexOf("----", start);
    if (dash !== -1 && dash < line.end) {
      const armour = text.slice(start, line.end);
      if (PUBLIC_BEGIN.test(armour)) inPublic = true;
      else if (ARMOUR_END.test(armour)) inPublic = false;
    }
    start = line.next;
    if (inPublic) continue;
    if (line.end - line.start >= MIN_ENCODED) ranges.push(...encodedOn(text, line));
    // most lines are shorter than a key's, or end in no base64: nothing more to do for them
    if (line.end - line.start < KEY_WIDTHS[0] || !base64Code(text.charCodeAt(line.end - 1))) continue;
    const run = runFrom(text, line, line.start > 0 && taken < line.start - 1);
    if (!run) continue;
    if (run.hidden && (ranges.length === 0 || run.hidden[0] >= ranges.at(-1)![1])) ranges.push(run.hidden);
    [start, taken] = [run.next, run.next - 1];
  }
  return ranges;
}

/** The run of a key's body lines that starts at `line` (or at a part of the line above it, when `withAbove`): its span unless it is a certificate's or public key's, and where the line after it starts. */
function runFrom(text: string, line: { start: number; end: number; next: number }, withAbove: boolean) {
  for (const width of KEY_WIDTHS) {
    const first = wholeLine(text, line, width);
    if (!first) continue;
    const shape = prefixShape(first.prefix);
    const bodies = [first.body];
    let last = line;
    for (let next = lineAt(text, line.next); next.start < text.length; next = lineAt(text, next.next)) {
      const whole = wholeLine(text, next, width, false);
      if (!whole || !samePrefix(shape, whole.prefix)) break;
      bodies.push(whole.body);
      last = next;
    }
    if (bodies.length < MIN_RUN_LINES) continue;
    // a line cut short on either side belongs to the run: `tail -c` starts inside a line, a key's last line is shorter
    const above = withAbove ? lineAt(text, text.lastIndexOf("\n", line.start - 2) + 1) : undefined;
    const from = above && partLine(text, above, shape, width, false);
    const after = lineAt(text, last.next);
    const end = after.start < text.length ? partLine(text, after, shape, width, true) : undefined;
    if (end !== undefined) [last, bodies[bodies.length]] = [after, text.slice(end, after.end)];
    const below = lineAt(text, last.next);
    // a certificate's or public key's last lines, or its first: shown, all of the run; its first line may end the line above, after a tag (SAML's `<ds:X509Certificate>MIIC…`, x94 #4)
    const opening = from === undefined ? (above && tokenEnding(text, above)) || first.body : undefined;
    const shown =
      (below.start < text.length && PUBLIC_END.test(text.slice(below.start, below.end))) ||
      (opening !== undefined && startsDer(opening) && !startsPrivateKey(opening)) ||
      bodies.length > MAX_RUN_LINES ||
      // base64 that ends where its data ends, in lines from its own start (`openssl base64` of a signature): a key's last lines end as a key does
      (from === undefined && end !== undefined && endsAsNoKey(bodies.join("")));
    return { hidden: shown ? undefined : ([from ?? line.start + first.prefix.length, last.end] as [number, number]), next: last.next };
  }
  return undefined;
}

/** Decoded bytes past which any key's last lines reach the header of its last number: an RSA key of 4,096 bits ends with a coefficient of 257 bytes and its 4-byte header. */
const MIN_DATA_BYTES = 264;
/** A 2,048-bit RSA signature's bytes (`openssl dgst -sign | openssl base64`): shorter, but judged too. */
const RSA_2048_SIGNATURE = 256;

/**
 * Whether base64 `body`, whole groups of four from a line's start, decodes to bytes that end as no
 * private key's do: not with DER's last INTEGER (an RSA key's coefficient, a DSA key's x), the BIT
 * STRING of an EC key's public point, OpenSSH's comment (a length, its text) and padding `1 2 3…`, or
 * OpenPGP's closing signature packet.
 * Random bytes end so by chance in about 1 of 500. An encrypted key's last lines are random bytes
 * too, and so are shown; so are the last 264 to 516 bytes of an RSA key of 8,192 bits.
 */
export function endsAsNoKey(body: string): boolean {
  if (body.length % 4 !== 0) return false;
  let b: string;
  try {
    b = atob(body);
  } catch {
    return false;
  }
  if (b.length < MIN_DATA_BYTES && b.length !== RSA_2048_SIGNATURE) return false;
  return !endsLikeKey(b);
}

function endsLikeKey(b: string): boolean {
  const n = b.length;
  const at = (i: number) => b.charCodeAt(i);
  for (let i = n - 2; i >= Math.max(0, n - 1100); i--) {
    if (at(i) !== 0x02 && at(i) !== 0x03) continue;
    const [length, header] =
      at(i + 1) < 0x80 ? [at(i + 1), 2] : at(i + 1) === 0x81 ? [at(i + 2), 3] : at(i + 1) === 0x82 ? [at(i + 2) * 256 + at(i + 3), 4] : [-1, 0];
    if (i + header + length !== n) continue;
    if (at(i) === 0x02 ? length >= 20 : at(i + header) === 0 && at(i + header + 1) >= 2 && at(i + header + 1) <= 4) return true;
  }
  // OpenPGP's last packet, a signature of version 4 to 6 (old format 0x88/0x89, new 0xC2): a `PGP PRIVATE KEY BLOCK`
  for (let i = n - 3; i >= Math.max(0, n - 1100); i--) {
    const tag = at(i);
    const [length, header] =
      tag === 0x88
        ? [at(i + 1), 2]
        : tag === 0x89
          ? [at(i + 1) * 256 + at(i + 2), 3]
          : tag === 0xc2 && at(i + 1) < 192
            ? [at(i + 1), 2]
            : tag === 0xc2 && at(i + 1) < 224
              ? [(at(i + 1) - 192) * 256 + at(i + 2) + 192, 3]
              : [-1, 0];
    if (i + header + length === n && at(i + header) >= 4 && at(i + header) <= 6) return true;
  }
  const padding =
    at(n - 1) >= 1 && at(n - 1) <= 7 && Array.from({ length: at(n - 1) }, (_, k) => at(n - 1 - k) === at(n - 1) - k).every(Boolean) ? at(n - 1) : 0;
  for (const end of new Set([n - padding, n])) {
    for (let length = 0; length <= Math.min(end - 4, 1024); length++) {
      const i = end - 4 - length;
      if (((at(i) << 24) | (at(i + 1) << 16) | (at(i + 2) << 8) | at(i + 3)) === length) return true;
    }
  }
  return false;
}

/** The base64 that ends `line`, when it is at least a DER header's 12 characters long after other text (a tag, a key's name). */
function tokenEnding(text: string, line: { start: number; end: number }): string | undefined {
  let at = line.end;
  while (at > line.start && base64Code(text.charCodeAt(at - 1))) at--;
  return line.end - at >= 12 && at > line.start ? text.slice(at, line.end) : undefined;
}

/** Base64 on one line long enough to hold whole lines of a key PEM: shorter tokens are ids, hashes and keys' own lines. */
const MIN_ENCODED = 256;
const ENCODED_RUN = new RegExp(`[A-Za-z0-9+/]{${MIN_ENCODED},}={0,2}`, "g");
/** How much of a token is decoded to judge it: some 3,000 characters of PEM, whole lines and any armour near. */
const DECODE_CHARS = 4096;
const PEM_LINES = /(?:^|\n)[A-Za-z0-9+/]*\n(?:[A-Za-z0-9+/]{64}\n){2}|(?:^|\n)[A-Za-z0-9+/]*\n(?:[A-Za-z0-9+/]{70}\n){2}/;

/** Whether the 6-bit values `a`..`d` of a group of four base64 characters decode to three bytes of text (below 0x80): a PEM's bytes all are. */
const asciiGroup = (a: number, b: number, c: number) => a < 32 && (b & 15) < 8 && (c & 3) < 2;
/** Each base64 character's 6-bit value, or 64 for any other. */
const SIXTETS = Array.from({ length: 128 }, (_, c) => "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".indexOf(String.fromCharCode(c))).map(
  (v) => (v < 0 ? 64 : v),
);

/**
 * The text of base64 `token` at each of the four places its groups of four may start, where it is
 * text at all. Random base64 (an image, a minified asset's data) fails the check of its first groups
 * at every place, so it is decoded at none (x94 #8: decoding all four made 300-wide base64 lines 40 % slower).
 */
function decodings(token: string): string[] {
  const length = Math.min(token.length, DECODE_CHARS);
  const texts: string[] = [];
  places: for (let skip = 0; skip < 4; skip++) {
    const end = skip + Math.floor((length - skip) / 4) * 4;
    for (let i = skip; i < end; i += 4) {
      if (!asciiGroup(SIXTETS[token.charCodeAt(i)]!, SIXTETS[token.charCodeAt(i + 1)]!, SIXTETS[token.charCodeAt(i + 2)]!)) continue places;
    }
    texts.push(atob(token.slice(skip, end)));
  }
  return texts;
}

const ARMOUR_LINE = /-----(BEGIN|END) ([A-Z0-9 ]+)-----/g;
/** `decoded` without what lies inside a certificate's or public key's armour (before its END line, after its BEGIN line): a key and its certificate in one PEM, cut past the key's BEGIN (x94 #3). */
function outsidePublic(decoded: string): string {
  const parts: string[] = [];
  let from = 0;
  let afterPublic = false; // the part starts after a public BEGIN line
  for (const m of decoded.matchAll(ARMOUR_LINE)) {
    const isPublic = !m[2]!.includes("PRIVATE KEY");
    if (!afterPublic && !(m[1] === "END" && isPublic)) parts.push(decoded.slice(from, m.index));
    afterPublic = m[1] === "BEGIN" && isPublic;
    from = m.index + m[0].length;
  }
  if (!afterPublic) parts.push(decoded.slice(from));
  return parts.join("\n");
}

/** The base64 tokens of a long line whose text holds a key PEM's body lines outside a certificate's or public key's armour (a piece from its middle, its BEGIN line not in the piece). */
function encodedOn(text: string, line: { start: number; end: number }): [number, number][] {
  const ranges: [number, number][] = [];
  for (const m of text.slice(line.start, line.end).matchAll(ENCODED_RUN)) {
    if (decodings(m[0]).some((decoded) => PEM_LINES.test(outsidePublic(decoded)))) ranges.push([line.start + m.index, line.start + m.index + m[0].length]);
  }
  return ranges;
}
