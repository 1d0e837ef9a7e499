// Private keys that reach a tool's output without their `-----BEGIN … PRIVATE KEY-----` line (x78
// #3): the end of a key (`tail server.key`, also with a prefix on its lines: `# `, `12:`, x83 #1),
// its first lines (`sed -n 2,6p server.key`, also behind any prefix: `grep -n`, `# `, a log's time,
// x90 #3), and a whole key encoded in base64 (`base64 -w0 server.key`, a kubeconfig's
// `client-key-data:`, a Kubernetes Secret's `tls.key:`). Certificates and public keys stay as they
// are: they are no secret, and people debug them. Lines from the middle of a key, with neither end
// nor its first line, are told by their shape alone (config/key-runs.ts). Pure.
const NAME = "private-key";
/** A private key's armour lines; the label names the key type (RSA, EC, OPENSSH, ENCRYPTED, PGP…). The one definition: redaction and read_file's windows agree on what a key is. */
export const BEGIN_PRIVATE = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/;
export const END_PRIVATE = /-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/;
const END = new RegExp(END_PRIVATE.source, "g");
/** The shortest line of a key's body taken above its last one: PEM writes 64 characters a line, OpenSSH 70. */
export const MIN_BODY_LINE = 16;
/** What a tool puts before a line of a file: read_file's or `cat -n`'s number, grep's `path:12:`/`path-12-`, a diff's `+`. */
export const LINE_PREFIX = String.raw`(?:[ \t]*\d+\t|[^\s:]*?[-:]\d+[-:] ?|[+ -])`;

/**
 * The shape of `before` (the text before a key's base64 or armour on its line), to find it on the
 * key's other lines: numbers change (`1:`, then grep's `2-`; a log's time), so do the widths of
 * blanks and grep's `:`/`-`. Its parts: "0" a number, " " blanks, "-" a `-` or `:`, any other its
 * own text (which then holds none of those characters).
 */
export type PrefixShape = readonly string[];
export function prefixShape(before: string): PrefixShape | undefined {
  if (before.trim() === "") return undefined; // blanks are OPEN's already
  return before
    .split(/(\d+|[ \t]+|[-:])/)
    .filter((part) => part !== "")
    .map((part) => (/^\d/.test(part) ? "0" : /^[ \t]/.test(part) ? " " : part === ":" ? "-" : part));
}

/**
 * How many characters at the start of `line` have `shape`, or undefined when it does not start so.
 * Plain code, not a regex built from the text: each part takes all it can and never gives back, so
 * the time is linear in the line (a pattern of `\d+` and `[ \t]*` in a row tried every split of
 * `111…1` between them: seconds for a few hundred characters, x94 #2).
 */
export function prefixLength(shape: PrefixShape, line: string): number | undefined {
  let at = 0;
  for (const part of shape) {
    if (part === "0") {
      const from = at;
      while (at < line.length && line.charCodeAt(at) >= 48 && line.charCodeAt(at) <= 57) at++;
      if (at === from) return undefined;
    } else if (part === " ") {
      while (line[at] === " " || line[at] === "\t") at++;
    } else if (part === "-") {
      if (line[at] !== "-" && line[at] !== ":") return undefined;
      at++;
    } else {
      if (!line.startsWith(part, at)) return undefined;
      at += part.length;
    }
  }
  return at;
}

/**
 * The base64 of a line of a key's body, and where it starts: the whole line, after what a tool puts
 * before it (read_file's or `cat -n`'s number, grep's `path:12:`/`path-12-`, a diff's `+`, an indent).
 */
const PREFIXED_BODY = new RegExp(String.raw`^(${LINE_PREFIX}?[ \t]*)(=?[A-Za-z0-9+/]+={0,2})[ \t\r]*$`);
function bodyOf(line: string): { at: number; body: string } | undefined {
  const m = PREFIXED_BODY.exec(line);
  const plain = /^([ \t]*)(=?[A-Za-z0-9+/]+={0,2})[ \t\r]*$/.exec(line); // a body line that starts with `+` is base64, not a diff's
  const found = plain ?? m;
  return found ? { at: found[1]!.length, body: found[2]! } : undefined;
}

/** `text` with the spans of `ranges` (in order, apart) replaced by what `mask` makes of them. */
function masked(text: string, ranges: [number, number][], mask: (name: string, value: string) => string): string {
  let out = "";
  let from = 0;
  for (const [start, end] of ranges) {
    out += text.slice(from, start) + mask(NAME, text.slice(start, end));
    from = end;
  }
  return out + text.slice(from);
}

/** Where the base64 and `\n`s that end `line` start (a key's body in a JSON string), or -1 when they hold fewer than MIN_BODY_LINE characters; scanned back from the end. */
function escapedTail(line: string): number {
  let at = line.length;
  let chars = 0;
  for (;;) {
    if (at >= 2 && line[at - 2] === "\\" && (line[at - 1] === "n" || line[at - 1] === "r")) at -= 2;
    else if (at >= 1 && /[A-Za-z0-9+/=]/.test(line[at - 1]!)) [at, chars] = [at - 1, chars + 1];
    else break;
  }
  return chars >= MIN_BODY_LINE ? at : -1;
}

const PREFIX_ONLY = new RegExp(String.raw`^${LINE_PREFIX}?[ \t]*$`);

/** Each `-----END … PRIVATE KEY-----` with the key's lines above it (no BEGIN line: a whole key was hidden before). */
function tails(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  let lineStart = 0;
  let last = -1; // where the last END armour starts: its line's start was searched for back to there
  for (const m of text.matchAll(END)) {
    let sameLine = last >= 0; // an END armour came before on this line: no newline since it
    for (let i = m.index - 1; i >= Math.max(last, 0); i--)
      if (text.charCodeAt(i) === 10) {
        [lineStart, sameLine] = [i + 1, false];
        break;
      }
    last = m.index;
    const before = text.slice(lineStart, m.index);
    let start: number | undefined;
    const inline = escapedTail(before); // JSON's one line: `…AbC==\n-----END PRIVATE KEY-----\n"`
    if (inline >= 0) start = lineStart + inline;
    // text that holds another END armour is no tool's line prefix; read as one for every END of a line of many, it made the line's time quadratic
    else if (!sameLine) {
      // what goes before the END armour goes before the key's other lines too (`# `, `12:`, a log's time)
      const prefix = PREFIX_ONLY.test(before) ? undefined : prefixShape(before);
      for (let end = lineStart - 1; end > 0; ) {
        const from = text.lastIndexOf("\n", end - 1) + 1;
        const line = text.slice(from, end);
        const skip = prefix ? prefixLength(prefix, line) : 0;
        const body = skip === undefined ? undefined : bodyOf(line.slice(skip));
        // the line above the END line is the key's last, often short; those above it are whole
        if (!body || (start !== undefined && body.body.length < MIN_BODY_LINE)) break;
        start = from + skip! + body.at;
        end = from - 1;
      }
    }
    if (start !== undefined && (ranges.length === 0 || start >= ranges.at(-1)![1])) ranges.push([start, m.index + m[0].length]);
  }
  return ranges;
}

/** Whether base64 `body` starts a private key's DER (PKCS#1, SEC1, PKCS#8, encrypted PKCS#8) or an OpenSSH key; not a certificate's or a public key's. */
export function startsPrivateKey(body: string): boolean {
  if (body.startsWith("b3BlbnNzaC1rZXktdjE")) return true; // "openssh-key-v1": OpenSSH writes only private keys so
  if (body.length < 32) return false;
  let b: string;
  try {
    b = atob(body.slice(0, 32));
  } catch {
    return false;
  }
  const at = (i: number) => b.charCodeAt(i);
  const after = (i: number) => (at(i + 1) < 0x80 ? i + 2 : i + 2 + (at(i + 1) & 0x7f)); // past a tag and its length
  if (at(0) !== 0x30) return false;
  const inner = after(0);
  // a SEQUENCE whose first member is the version 0 or 1: RSA, DSA, EC and PKCS#8 keys (a certificate, a CSR and a public key open with another SEQUENCE or a big INTEGER)
  if (at(inner) === 0x02 && at(inner + 1) === 0x01 && at(inner + 2) <= 1) return true;
  // encrypted PKCS#8: SEQUENCE { SEQUENCE { OID pkcs5 (PBES2…) or pkcs12 PBE … } … }
  if (at(inner) !== 0x30) return false;
  const oid = after(inner);
  return at(oid) === 0x06 && /^\x2a\x86\x48\x86\xf7\x0d\x01(?:\x05|\x0c\x01)/.test(b.slice(oid + 2));
}

/** Whether character code `c` is base64's (`+`, `/`, digits, letters). */
export const base64Code = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 47 && c <= 57) || c === 43;

/** A key's first body line, also after any other prefix (`# `, a log's time and host, `2:`): where its base64 starts, and the prefix's shape. */
function firstOf(line: string): { at: number; body: string; prefix?: PrefixShape } | undefined {
  const plain = bodyOf(line);
  if (plain) return plain;
  // the base64 that ends the line (a key's first line may be padded: an Ed25519 key is one line), scanned back from its end
  let end = line.length;
  while (end > 0 && (line.charCodeAt(end - 1) === 32 || line.charCodeAt(end - 1) === 9 || line.charCodeAt(end - 1) === 13)) end--;
  let at = end;
  while (at > 0 && line.charCodeAt(at - 1) === 61) at--; // `=`
  while (at > 0 && base64Code(line.charCodeAt(at - 1))) at--;
  if (at === 0 || end - at < 19) return undefined;
  const body = line.slice(at, end);
  return /^(?:M[A-Za-z0-9+/]{39}|b3BlbnNzaC1rZXktdjE)/.test(body) ? { at, body, prefix: prefixShape(line.slice(0, at)) } : undefined;
}

/** The first lines of a key's body (its BEGIN line not in the text), to the end of its run of base64 lines; each after the first line's prefix, if it has one. */
function heads(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  let lineStart = 0;
  while (lineStart < text.length) {
    const lineEnd = text.indexOf("\n", lineStart) === -1 ? text.length : text.indexOf("\n", lineStart);
    const first = firstOf(text.slice(lineStart, lineEnd));
    if (first && first.body.length >= 40 && startsPrivateKey(first.body)) {
      let end = lineEnd;
      let width = first.body.length;
      // the lines that follow, while they are as wide; a shorter one is the key's last
      while (end < text.length) {
        const next = text.indexOf("\n", end + 1) === -1 ? text.length : text.indexOf("\n", end + 1);
        const line = text.slice(end + 1, next);
        const skip = first.prefix ? prefixLength(first.prefix, line) : 0;
        const body = skip === undefined ? undefined : bodyOf(line.slice(skip));
        if (!body || body.body.length > width) break;
        end = next;
        if (body.body.length < width) break;
        width = body.body.length;
      }
      ranges.push([lineStart + first.at, lineStart + first.at + text.slice(lineStart + first.at, end).trimEnd().length]);
      lineStart = end + 1;
    } else lineStart = lineEnd + 1;
  }
  return ranges;
}

/** `-----BEGIN` in base64, at each of the three byte offsets it can start at: the characters that carry its bytes alone. */
const ENCODED_BEGIN = [
  ["LS0tLS1CRUdJT", 0],
  ["0tLS0tQkVHSU", 2],
  ["tLS0tLUJFR0lO", 3],
] as const;

/** A base64 body as `base64` wraps it: a whole line of it, maybe indented. */
const WRAPPED_LINE = /^[ \t]*([A-Za-z0-9+/]+={0,2})\r?$/;
/** The line that ends such a body, no wider: its base64 and `=` padding, also with text after it on the line (a closing quote, a blank, a comment). */
const LAST_LINE = /^[ \t]*([A-Za-z0-9+/]+={0,2})/;

/**
 * A private key PEM written in base64 (whole lines of it, as `base64` wraps them, or one token): the token, and its lines.
 * Linear in the text, though `base64` of a bundle of certificates holds the core on line after line: each line's
 * token runs on over the same lines below, which are read once (`below`), and a token that ends where one decoded
 * before ends, its groups of four placed alike, decodes to a part of that one's text and is not decoded again
 * (reading and decoding each made 400 KB of it take 3 s).
 */
function encoded(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  const below = new Map<string, WholeLines>(); // see wholeLinesBelow
  let placed: Int32Array | undefined; // base64 characters before each place
  for (const [core, skip] of ENCODED_BEGIN) {
    const decodedEnds = new Set<string>(); // `${end}:${where its groups start, mod 4, in the text's base64}`: a core's tokens come in order, each later one no longer
    // the token of the last place, on one line: where its part after the last `=` before that place starts
    // (`crt==key`, two blobs glued: the key's groups of four start after the `=`), how far `=` was looked
    // for, and the places of that part's groups of four read: a token of the core many times over
    // (`LS0tLS1CRUdJT…`) is read at most four times a part, not once for each place
    let token = { start: -1, tokenEnd: -1, looked: -1, read: new Set<number>() };
    for (let i = text.indexOf(core); i !== -1; i = text.indexOf(core, i + 1)) {
      if (i >= token.start && i < token.tokenEnd) {
        for (; token.looked < i; token.looked++) if (text.charCodeAt(token.looked) === 61) [token.start, token.read] = [token.looked + 1, new Set()];
      } else {
        let start = i;
        let end = i;
        while (start > 0 && base64Code(text.charCodeAt(start - 1))) start--;
        while (end < text.length && (base64Code(text.charCodeAt(end)) || text.charCodeAt(end) === 61)) end++;
        token = { start, tokenEnd: end, looked: i, read: new Set() };
      }
      const start = token.start;
      let end = token.tokenEnd;
      const from = (((i - start - skip) % 4) + 4) % 4; // the core starts `skip` characters into a group of four
      if (token.read.has(from)) continue;
      token.read.add(from);
      // `base64`'s wrapped lines: a token that is its whole line, followed by lines as wide (the last may be shorter)
      let blanks = start;
      while (blanks > 0 && (text[blanks - 1] === " " || text[blanks - 1] === "\t")) blanks--;
      const width = end - start;
      if ((blanks === 0 || text[blanks - 1] === "\n") && (text[end] === "\n" || text[end] === "\r") && width >= 60) {
        const next = text.indexOf("\n", end);
        if (next !== -1) {
          const whole = wholeLinesBelow(text, next, width, below);
          if (whole.lines > 0) end = whole.end;
          // the last line, no wider, makes the whole a multiple of four characters (`after` below it is a word)
          const lastLine = whole.last === -1 ? undefined : LAST_LINE.exec(text.slice(whole.last + 1, lineEnd(text, whole.last + 1)));
          const firstChars = text.slice(start, next).replace(/\s/g, "").length;
          if (lastLine && lastLine[1]!.length <= width && (firstChars + whole.lines * width + lastLine[1]!.length) % 4 === 0)
            end = whole.last + 1 + lastLine[0].length;
        }
      }
      placed ??= base64Before(text);
      const key = `${end}:${(placed[start]! + from) % 4}`;
      if (decodedEnds.has(key)) continue;
      decodedEnds.add(key);
      const joined = text.slice(start, end).replace(/[^A-Za-z0-9+/]/g, "");
      const groups = joined.slice(from, from + Math.floor((joined.length - from) / 4) * 4);
      let decoded = "";
      try {
        decoded = atob(groups);
      } catch {
        continue;
      }
      if (BEGIN_PRIVATE.test(decoded)) ranges.push([start, end]);
    }
  }
  // a token found by two cores, or a wrapped line's below one found, is kept once: ranges that overlap
  // become one, so what any of them covers stays hidden (keeping the first showed the rest of the
  // second: a one-line key's base64 took the next line, the first of another key's, as its last)
  const kept: [number, number][] = [];
  for (const [start, end] of ranges.sort((a, b) => a[0] - b[0])) {
    const last = kept.at(-1);
    if (last && start < last[1]) last[1] = Math.max(last[1], end);
    else kept.push([start, end]);
  }
  return kept;
}

/** Where the line that starts at `from` ends (its `\n`, or the text's end). */
const lineEnd = (text: string, from: number) => {
  const stop = text.indexOf("\n", from);
  return stop === -1 ? text.length : stop;
};

/** How many base64 characters (`[A-Za-z0-9+/]`) stand before each place of `text`. */
function base64Before(text: string): Int32Array {
  const counts = new Int32Array(text.length + 1);
  for (let i = 0; i < text.length; i++) counts[i + 1] = counts[i]! + (base64Code(text.charCodeAt(i)) ? 1 : 0);
  return counts;
}

interface WholeLines {
  end: number;
  lines: number;
  last: number;
}

/**
 * The whole lines of base64 `width` characters wide below the `\n` at `next`: how many, where the last
 * one's base64 ends, and the `\n` before the first line that is not one (-1 at the text's end). Kept in
 * `known` for each of their lines, so the lines under a token are read once for all the tokens above them.
 */
function wholeLinesBelow(text: string, next: number, width: number, known: Map<string, WholeLines>): WholeLines {
  const seen: number[] = [];
  let found: WholeLines | undefined;
  let end = -1;
  let at = next;
  while (at !== -1) {
    const hit = known.get(`${at}:${width}`);
    if (hit) {
      found = { end: hit.end, lines: seen.length + hit.lines, last: hit.last };
      break;
    }
    const stop = lineEnd(text, at + 1);
    const body = WRAPPED_LINE.exec(text.slice(at + 1, stop));
    if (!body || body[1]!.length !== width) break;
    seen.push(at);
    end = at + 1 + body.index + body[0].replace(/\r$/, "").length;
    at = stop === text.length ? -1 : stop;
  }
  found ??= { end, lines: seen.length, last: at };
  const { end: lastEnd, lines, last } = found;
  seen.forEach((line, n) => {
    known.set(`${line}:${width}`, { end: lastEnd, lines: lines - n, last });
  });
  return found;
}

/**
 * `text` with the parts of private keys that hold no BEGIN line of their own replaced by what
 * `mask` makes of them: a key's last lines with its END line, its first lines, and a key PEM in
 * base64. Run after the whole keys (BEGIN to END) are hidden.
 */
export function hideKeyParts(text: string, mask: (name: string, value: string) => string): string {
  let out = text;
  if (out.includes("PRIVATE KEY")) out = masked(out, tails(out), mask);
  if (/(?:^|[^A-Za-z0-9+/=])(?:M[A-Za-z0-9+/]{39}|b3BlbnNzaC1rZXktdjE)/m.test(out)) out = masked(out, heads(out), mask);
  if (ENCODED_BEGIN.some(([core]) => out.includes(core))) out = masked(out, encoded(out), mask);
  return out;
}
