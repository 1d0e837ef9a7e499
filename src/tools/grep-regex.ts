// The grep tool's pattern (SPEC §7) as the built-in search runs it: JavaScript regex syntax, read so
// that it finds what ripgrep finds with the same pattern wherever the two syntaxes share a meaning,
// and refused where they do not (a PCRE escape legacy JavaScript would take as a plain letter). Pure.

/** ripgrep's `\w`: Unicode word characters (JavaScript's `\w` is ASCII only, even with the u flag). */
const WORD = String.raw`\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}`;

/**
 * Escapes legacy JavaScript reads as the bare letter (`\K` is `K`) that mean something in PCRE or
 * ripgrep, with what to write instead. Any other such letter is refused too, with no advice.
 */
const FOREIGN: Record<string, string> = {
  K: "use a lookbehind: (?<=foo)bar",
  Q: "escape each special character with \\ instead of \\Q…\\E",
  E: "escape each special character with \\ instead of \\Q…\\E",
  h: "use [ \\t]",
  H: "use [^ \\t]",
  A: "use ^",
  z: "use $",
  Z: "use $",
  p: "JavaScript's \\p takes a property it knows: \\p{L}, \\p{Script=Greek}",
  P: "JavaScript's \\P takes a property it knows: \\P{L}, \\P{Script=Greek}",
};
/** Letters legacy JavaScript gives a meaning after `\`. */
const LEGACY_ESCAPES = new Set("bBdDwWsSfnrtvcxuk");

/**
 * POSIX bracket classes as ripgrep reads them, inside a bracket expression (`[[:alpha:]_]`,
 * `[^[:space:]]`, `[[:^digit:]]`): ASCII sets. JavaScript has none, and read `[[:digit:]]` as a
 * class of `[`, `:`, `d`, `i`, `g`, `t` followed by a `]`, so a search found the wrong lines, unsaid.
 */
const POSIX: Record<string, string> = {
  alnum: String.raw`\x30-\x39\x41-\x5A\x61-\x7A`,
  alpha: String.raw`\x41-\x5A\x61-\x7A`,
  ascii: String.raw`\x00-\x7F`,
  blank: String.raw`\x09\x20`,
  cntrl: String.raw`\x00-\x1F\x7F`,
  digit: String.raw`\x30-\x39`,
  graph: String.raw`\x21-\x7E`,
  lower: String.raw`\x61-\x7A`,
  print: String.raw`\x20-\x7E`,
  punct: String.raw`\x21-\x2F\x3A-\x40\x5B-\x60\x7B-\x7E`,
  space: String.raw`\x09-\x0D\x20`,
  upper: String.raw`\x41-\x5A`,
  word: String.raw`\x30-\x39\x41-\x5A\x5F\x61-\x7A`,
  xdigit: String.raw`\x30-\x39\x41-\x46\x61-\x66`,
};
/** `[:name:]` or `[:^name:]` at the start of the text; ripgrep takes any other name as a nested class of its characters. */
const POSIX_ITEM = /^\[:(\^?)([A-Za-z]+):\]/;

/**
 * `pattern` with each bracket expression that holds a POSIX class (POSIX) spelled in JavaScript:
 * `[^[:digit:]]` → `[^\x30-\x39]`; a negated one beside other items becomes an alternation
 * (`[a[:^digit:]]` → `(?:[a]|[^\x30-\x39])`). Other brackets are left as written; a bare `[:alpha:]`
 * outside brackets is, as ripgrep reads it too, the set of its characters (bareClassNote says so).
 */
export function posixClasses(pattern: string): string {
  if (!pattern.includes("[:")) return pattern;
  let out = "";
  for (let i = 0; i < pattern.length; ) {
    const c = pattern[i]!;
    const bracket = c === "[" ? readBracket(pattern, i) : undefined;
    if (bracket) {
      out += bracket.text;
      i = bracket.end;
    } else {
      const step = c === "\\" ? 2 : 1;
      out += pattern.slice(i, i + step);
      i += step;
    }
  }
  return out;
}

/** The bracket expression opening at `start` as JavaScript reads it and where it ends; undefined when it is not closed. */
function readBracket(pattern: string, start: number): { text: string; end: number } | undefined {
  let j = start + 1;
  const negated = pattern[j] === "^";
  if (negated) j++;
  let plain = ""; // the items JavaScript reads as they are, and the POSIX sets spelled out
  const against: string[] = []; // the sets of `[:^name:]` items
  let posix = false;
  for (let first = true; ; first = false) {
    const c = pattern[j];
    if (c === undefined) return undefined;
    if (c === "]" && !first) break;
    const item = c === "[" ? POSIX_ITEM.exec(pattern.slice(j)) : null;
    if (item) {
      posix = true;
      const set = POSIX[item[2]!];
      if (!set) plain += [...item[0].slice(1, -1)].map((ch) => `\\x${ch.charCodeAt(0).toString(16).padStart(2, "0")}`).join("");
      else if (item[1]) against.push(set);
      else plain += set;
      j += item[0].length;
      continue;
    }
    const step = c === "\\" ? 2 : 1;
    plain += c === "]" ? "\\]" : pattern.slice(j, j + step); // a `]` first is one of the items, as in POSIX
    j += step;
  }
  const end = j + 1;
  if (!posix) return { text: pattern.slice(start, end), end };
  if (against.length === 0) return { text: `[${negated ? "^" : ""}${plain}]`, end };
  if (!negated) return { text: `(?:${[...(plain ? [`[${plain}]`] : []), ...against.map((set) => `[^${set}]`)].join("|")})`, end };
  // none of the items: not `plain`, and inside every negated set
  const ahead = against.slice(0, -1).map((set) => `(?=[${set}])`);
  return { text: `(?:${plain ? `(?![${plain}])` : ""}${ahead.join("")}[${against.at(-1)}])`, end };
}

/**
 * What to tell the model of a POSIX class written outside brackets (`[:alpha:]`): ripgrep, as the
 * built-in search, reads it as the set of its characters (`:`, `a`, `l`, `p`, `h`), silently; GNU
 * grep refuses it. Undefined when the pattern has none.
 */
export function bareClassNote(pattern: string): string | undefined {
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === "\\") i++;
    else if (pattern[i] === "[") {
      const item = POSIX_ITEM.exec(pattern.slice(i));
      if (item && POSIX[item[2]!])
        return `note: ${item[0]} outside brackets matches one of the characters ${JSON.stringify(item[0].slice(1, -1))}; the class is written [${item[0]}]`;
      const bracket = readBracket(pattern, i);
      if (!bracket) return undefined;
      i = bracket.end - 1;
    }
  }
  return undefined;
}

/**
 * The regex the built-in search runs for `pattern`: a leading `(?i)`, `(?s)`, `(?m)` (or several
 * together, `(?is)`) taken as flags; Unicode mode when the pattern allows it (`\p{L}`), with `\w`,
 * `\d`, `\b` as ripgrep reads them (Unicode), else legacy syntax (`\-`). Throws a SyntaxError for
 * a pattern neither mode takes, or one that uses an escape from another dialect (`\K`, `\Q…\E`,
 * `\h`), naming it.
 */
export function compilePattern(pattern: string, ignoreCase: boolean): RegExp {
  const inline = /^\(\?([ims]+)\)/.exec(pattern);
  const body = posixClasses(inline ? pattern.slice(inline[0].length) : pattern);
  const flags = [...new Set(`${ignoreCase ? "i" : ""}${inline?.[1] ?? ""}`)].join("");
  try {
    new RegExp(body, flags + "u");
  } catch {
    const foreign = foreignEscape(body);
    if (foreign) {
      const hint = FOREIGN[foreign];
      throw new SyntaxError(`\\${foreign} is not supported (grep takes JavaScript regex syntax)${hint ? `; ${hint}` : ""}`);
    }
    return new RegExp(body, flags);
  }
  try {
    return new RegExp(asRipgrep(body), flags + "u");
  } catch {
    return new RegExp(body, flags + "u"); // a spelling this reading did not foresee: JavaScript's own classes
  }
}

/** The first letter escaped in `pattern` that legacy JavaScript would read as the letter itself, or undefined. */
function foreignEscape(pattern: string): string | undefined {
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] !== "\\") continue;
    const c = pattern[++i] ?? "";
    if (/[A-Za-z]/.test(c) && !LEGACY_ESCAPES.has(c)) return c;
  }
  return undefined;
}

/** A Unicode-mode pattern with `\w \W \d \D \b \B` spelled out as ripgrep means them. */
function asRipgrep(pattern: string): string {
  const word = `[${WORD}]`;
  let out = "";
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "\\") {
      const e = pattern[++i] ?? "";
      out += escapeAsRipgrep(e, inClass, word);
      continue;
    }
    if (c === "[" && !inClass) inClass = true;
    else if (c === "]" && inClass) inClass = false;
    out += c;
  }
  return out;
}

function escapeAsRipgrep(e: string, inClass: boolean, word: string): string {
  if (e === "w") return inClass ? WORD : word;
  if (e === "d") return String.raw`\p{Nd}`;
  if (e === "D") return String.raw`\P{Nd}`;
  if (inClass) return `\\${e}`; // [\W] and [\b] (a backspace) stay as JavaScript reads them
  if (e === "W") return `[^${WORD}]`;
  if (e === "b") return `(?:(?<=${word})(?!${word})|(?<!${word})(?=${word}))`;
  if (e === "B") return `(?:(?<=${word})(?=${word})|(?<!${word})(?!${word}))`;
  return `\\${e}`;
}
