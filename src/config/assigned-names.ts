// Where a text assigns to a name with a credential's word in it (`API_KEY=`, `export DB_PASSWORD="…"`,
// `"spring.datasource.password": `, `my-app.db.token: `, `<password>`), for the secret redaction
// (secret-shapes.ts), which judges the name and reads the value after it. A name may follow anything
// a tool or a format puts before it (a diff's `+`, a YAML list's `- `, `ENV `, `export `, `-e `, grep's
// `path:12:`, `path-12-` and `path:`, `{"`, `(`, `;`) but not a word character, nor a `/` (a URL's
// user, a path); a dotted name is read whole, its parts may hold `-`, and it is judged by its last part.
// A scan, not one regex: a regex for a dotted name whose parts hold `-`, that may also start after any
// `-`, read on from every `-` of a long line to the line's end (80 KB of `a-1-` took 2.5 s, 500 KB
// minutes). Here each name followed by a sign is found once, and the dotted parts before it are read
// back from it once, so the time is linear in the text. Pure.

/**
 * A name with a credential's word in it (code is full of `name: value`), whole (a word no word
 * character precedes), then the closing quote of a quoted name and the sign: `=`, `:`, `=>` or
 * XML's `>`. Each is tried at the start of a word only and reads the word and its blanks, once.
 */
const NAME_THEN_SIGN = /(?<!\w)(?=\w*?(?:key|token|secret|pass|pwd|auth|credential))([A-Za-z_]\w*)\\?(["']?)([ \t]*(?:=>|[=:])[ \t]*|>)/gi;

/** An assignment's name: where the name (with its dotted parts and quote) starts and its sign ends, its quote (or ""), its last part and its sign. */
export interface AssignedName {
  index: number;
  end: number;
  quote: string;
  name: string;
  sign: string;
}

const isWord = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isNameHead = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const DOT = 46;
const DASH = 45;
const SLASH = 47;

/**
 * The first assignment to a credential's name that starts at or after `from`, or undefined. What
 * the regex `(?<![\w./])(["']?)((?:[A-Za-z_][\w-]*\.)*)(?=\w*?(?:key|token|…))([A-Za-z_]\w*)\\?\1([ \t]*(?:=>|[=:])[ \t]*|>)`
 * finds from `from`, case-insensitive, in time linear in what it reads.
 */
export function assignedName(text: string, from: number): AssignedName | undefined {
  NAME_THEN_SIGN.lastIndex = from;
  for (let m = NAME_THEN_SIGN.exec(text); m; m = NAME_THEN_SIGN.exec(text)) {
    const quote = m[2]!;
    const index = firstStart(text, m.index, quote, from);
    if (index !== undefined) return { index, end: m.index + m[0].length, quote, name: m[1]!, sign: m[3]! };
  }
  return undefined;
}

/**
 * Where an assignment to the name at `at` starts: the leftmost place at or after `from` that no word
 * character, `.` or `/` precedes, from which dotted parts (`[A-Za-z_][\w-]*` and a dot each) lead
 * to the name, behind `quote` when the name closes with one; undefined when there is none. The parts
 * are read back from the name once: a start inside a part follows one of its `-`s.
 */
function firstStart(text: string, at: number, quote: string, from: number): number | undefined {
  const code = (i: number) => (i < 0 ? -1 : text.charCodeAt(i));
  const boundary = (i: number) => !isWord(code(i - 1)) && code(i - 1) !== DOT && code(i - 1) !== SLASH;
  let found: number | undefined;
  // each place is tried right to left, so the last taken is the leftmost
  const tryUnquoted = (i: number) => {
    if (quote === "" && i >= from && boundary(i)) found = i;
  };
  const tryQuoted = (i: number) => {
    if (quote !== "" && i >= from && text[i] === quote && boundary(i)) found = i;
  };
  tryUnquoted(at);
  tryQuoted(at - 1);
  for (let left = at; code(left - 1) === DOT; ) {
    // the part before the dot: a run of word characters and `-`s
    let part = left - 1;
    while (isWord(code(part - 1)) || code(part - 1) === DASH) part--;
    for (let i = left - 2; i > part; i--) if (code(i - 1) === DASH && isNameHead(code(i))) tryUnquoted(i);
    if (part === left - 1 || !isNameHead(code(part))) break; // no part, or one that is no name's: the parts before it do not lead here
    tryUnquoted(part);
    tryQuoted(part - 1);
    left = part;
  }
  return found;
}
