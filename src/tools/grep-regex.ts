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
 * The regex the built-in search runs for `pattern`: a leading `(?i)`, `(?s)`, `(?m)` (or several
 * together, `(?is)`) taken as flags; Unicode mode when the pattern allows it (`\p{L}`), with `\w`,
 * `\d`, `\b` as ripgrep reads them (Unicode), else legacy syntax (`\-`). Throws a SyntaxError for
 * a pattern neither mode takes, or one that uses an escape from another dialect (`\K`, `\Q…\E`,
 * `\h`), naming it.
 */
export function compilePattern(pattern: string, ignoreCase: boolean): RegExp {
  const inline = /^\(\?([ims]+)\)/.exec(pattern);
  const body = inline ? pattern.slice(inline[0].length) : pattern;
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
