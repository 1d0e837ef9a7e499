// Pieces of a private key that hold neither of its armour lines nor its first bytes (x90 #1, #2):
// lines from its middle (`sed -n 10,12p ~/.ssh/id_rsa`, `head -c 600 key | tail -c 300`, also with
// a prefix on each line: `grep -n`'s `12:`, `# `, a log's time and host), and the rest of a key PEM
// written in base64 on one line past read_file's cut (`sed -n 3p kubeconfig | cut -c 2001-6000`).
// They are told by shape: lines of a key's width (PEM's 64, OpenSSH's 70), base64 of all three
// kinds (upper and lower case, digits: a hex digest has two) to the end of the line, behind the same
// prefix, two or more in a row; and base64 whose text is such lines. A certificate's or public
// key's lines inside their own armour, or above its END line, stay; lines from a certificate's
// middle with neither armour line look the same as a key's and are hidden too. Pure.
import { prefixShape, startsPrivateKey } from "./key-shapes.ts";

/** The widths of a key's body lines: PEM (and PGP, PuTTY) wrap at 64 characters, OpenSSH at 70. */
const KEY_WIDTHS = [64, 70] as const;
/** Whole lines of a key's width in a row: one such line alone is too common in other text (a hash, an id) to take. */
const MIN_RUN_LINES = 2;
/** The armour of what is no secret, inside which lines of a key's width are shown: a certificate, a public key, a signature. */
const PUBLIC_BEGIN = /-----BEGIN (?![A-Z0-9 ]*PRIVATE KEY)[A-Z0-9 ]+-----/;
const PUBLIC_END = /-----END (?![A-Z0-9 ]*PRIVATE KEY)[A-Z0-9 ]+-----/;
const ARMOUR_END = /-----END [A-Z0-9 ]+-----/;
const BASE64 = /^[A-Za-z0-9+/]+$/;
/** Quick test for a line that ends in a key's width of base64: the text has none, most texts. */
const ANY_WIDE = /[A-Za-z0-9+/]{64}\r?$/m;

const threeKinds = (body: string) => /[A-Z]/.test(body) && /[a-z]/.test(body) && /\d/.test(body);

/** Whether base64 `body` starts a DER structure (a SEQUENCE holding a SEQUENCE or an INTEGER): a certificate's or public key's first line, when it starts no private key. */
function startsDer(body: string): boolean {
  const b = atob(body.slice(0, 12));
  const inner = b.charCodeAt(1) < 0x80 ? 2 : 2 + (b.charCodeAt(1) & 0x7f);
  return b.charCodeAt(0) === 0x30 && (b.charCodeAt(inner) === 0x30 || b.charCodeAt(inner) === 0x02);
}

/** Whether `prefix` (what a line holds before its base64) has the shape `first`'s prefix has: digits and blanks may differ. */
function samePrefix(shape: RegExp | undefined, prefix: string): boolean {
  if (!shape) return prefix.trim() === "";
  const m = shape.exec(prefix);
  return m !== null && m[0].length === prefix.length;
}

/** The line without its `\r`, split into what goes before a body of `width` base64 characters and that body, when it ends so. */
function wholeLine(line: string, width: number): { prefix: string; body: string } | undefined {
  const text = line.endsWith("\r") ? line.slice(0, -1) : line;
  const body = text.slice(text.length - width);
  if (body.length < width || !BASE64.test(body) || !threeKinds(body)) return undefined;
  return { prefix: text.slice(0, text.length - width), body };
}

/** A line after the key's prefix that holds a part of its line: the first (`tail -c` starts in one) or the last (shorter, maybe padded). */
function partLine(line: string, shape: RegExp | undefined, width: number, last: boolean): number | undefined {
  const text = line.endsWith("\r") ? line.slice(0, -1) : line;
  const skip = shape ? shape.exec(text)?.[0].length : (/^[ \t]*/.exec(text)?.[0].length ?? 0);
  if (skip === undefined) return undefined;
  const rest = text.slice(skip);
  const body = last ? rest.replace(/={1,2}$/, "") : rest;
  return body.length > 0 && body.length < width && BASE64.test(body) ? skip : undefined;
}

/** The spans (start, end offsets) of runs of a key's body lines in `text`, each from its first base64 character to its last. */
export function keyBodyRuns(text: string): [number, number][] {
  if (!ANY_WIDE.test(text)) return [];
  const lines = text.split("\n");
  const starts: number[] = [];
  let at = 0;
  for (const line of lines) {
    starts.push(at);
    at += line.length + 1;
  }
  const ranges: [number, number][] = [];
  let inPublic = false;
  for (let i = 0; i < lines.length; i++) {
    if (PUBLIC_BEGIN.test(lines[i]!)) inPublic = true;
    else if (ARMOUR_END.test(lines[i]!)) inPublic = false;
    if (inPublic) continue;
    for (const width of KEY_WIDTHS) {
      const first = wholeLine(lines[i]!, width);
      if (!first) continue;
      const shape = prefixShape(first.prefix);
      let end = i + 1;
      for (; end < lines.length; end++) {
        const next = wholeLine(lines[end]!, width);
        if (!next || !samePrefix(shape, next.prefix)) break;
      }
      if (end - i < MIN_RUN_LINES) continue;
      // a line cut short on either side belongs to the run: `tail -c` starts inside a line, a key's last line is shorter
      const before = i > 0 && (ranges.length === 0 || ranges.at(-1)![1] < starts[i - 1]!) ? partLine(lines[i - 1]!, shape, width, false) : undefined;
      const after = end < lines.length ? partLine(lines[end]!, shape, width, true) : undefined;
      const last = after === undefined ? end - 1 : end;
      // a certificate's or public key's last lines, or its first: shown, all of the run
      const shown = (last + 1 < lines.length && PUBLIC_END.test(lines[last + 1]!)) || (before === undefined && startsDer(first.body) && !startsPrivateKey(first.body));
      const from = before === undefined ? starts[i]! + first.prefix.length : starts[i - 1]! + before;
      if (!shown) ranges.push([from, starts[last]! + lines[last]!.replace(/\r$/, "").length]);
      i = last;
      break;
    }
  }
  return ranges;
}

/** Base64 on one line long enough to hold whole lines of a key PEM: shorter tokens are ids, hashes and keys' own lines. */
const ENCODED_RUN = /[A-Za-z0-9+/]{256,}={0,2}/g;
/** How much of a token is decoded to judge it: some 3,000 characters of PEM, whole lines and any armour near. */
const DECODE_CHARS = 4096;
const PEM_LINES = /(?:^|\n)[A-Za-z0-9+/]*\n(?:[A-Za-z0-9+/]{64}\n){2}|(?:^|\n)[A-Za-z0-9+/]*\n(?:[A-Za-z0-9+/]{70}\n){2}/;

/** The text of base64 `token` at each of the four places its groups of four may start. */
function decodings(token: string): string[] {
  return [0, 1, 2, 3].flatMap((skip) => {
    const groups = token.slice(skip, skip + Math.floor((Math.min(token.length, DECODE_CHARS) - skip) / 4) * 4);
    try {
      return [atob(groups)];
    } catch {
      return [];
    }
  });
}

/** The spans of base64 tokens whose text is a key PEM's body lines without a certificate's or public key's armour (a piece from its middle, its BEGIN line not in the piece). */
export function encodedKeyBodies(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  for (const m of text.matchAll(ENCODED_RUN)) {
    const pem = decodings(m[0]).find((decoded) => PEM_LINES.test(decoded));
    if (pem && !PUBLIC_BEGIN.test(pem) && !PUBLIC_END.test(pem)) ranges.push([m.index, m.index + m[0].length]);
  }
  return ranges;
}
