// Text a model cannot copy exactly: characters that look like the ASCII ones it writes instead
// (curly quotes, dashes, a no-break space), accents stored decomposed (NFD), line breaks it sent
// escaped twice (`\\n`). edit finds old_string through them when only they differ, keeps the
// file's characters in the text new_string leaves unchanged, and says what it matched; when they
// still do not match, edit's error names the character. Pure.
import { anyLineEnds, type Matches } from "./edit-matches.ts";

/** Each look-alike and the ASCII character a model writes for it: one UTF-16 unit each, so offsets stay. */
const PLAIN: Record<string, string> = {
  "\u2018": "'",
  "\u2019": "'",
  "\u201a": "'",
  "\u201b": "'",
  "\u2032": "'",
  "\u201c": '"',
  "\u201d": '"',
  "\u201e": '"',
  "\u201f": '"',
  "\u2033": '"',
  "\u2010": "-",
  "\u2011": "-",
  "\u2012": "-",
  "\u2013": "-",
  "\u2014": "-",
  "\u2015": "-",
  "\u2212": "-",
  "\u00a0": " ",
  "\u2002": " ",
  "\u2003": " ",
  "\u2007": " ",
  "\u2008": " ",
  "\u2009": " ",
  "\u200a": " ",
  "\u202f": " ",
  "\u3000": " ",
};
const LOOK_ALIKE = new RegExp(`[${Object.keys(PLAIN).join("")}]`, "g");

/** Names of the characters the messages mention; others are named by code point only. */
const NAMES: Record<string, string> = {
  " ": "SPACE",
  "'": "APOSTROPHE",
  '"': "QUOTATION MARK",
  "-": "HYPHEN-MINUS",
  "\u2018": "LEFT SINGLE QUOTATION MARK",
  "\u2019": "RIGHT SINGLE QUOTATION MARK",
  "\u201a": "SINGLE LOW-9 QUOTATION MARK",
  "\u201b": "SINGLE HIGH-REVERSED-9 QUOTATION MARK",
  "\u2032": "PRIME",
  "\u201c": "LEFT DOUBLE QUOTATION MARK",
  "\u201d": "RIGHT DOUBLE QUOTATION MARK",
  "\u201e": "DOUBLE LOW-9 QUOTATION MARK",
  "\u201f": "DOUBLE HIGH-REVERSED-9 QUOTATION MARK",
  "\u2033": "DOUBLE PRIME",
  "\u2010": "HYPHEN",
  "\u2011": "NON-BREAKING HYPHEN",
  "\u2012": "FIGURE DASH",
  "\u2013": "EN DASH",
  "\u2014": "EM DASH",
  "\u2015": "HORIZONTAL BAR",
  "\u2212": "MINUS SIGN",
  "\u00a0": "NO-BREAK SPACE",
  "\u2002": "EN SPACE",
  "\u2003": "EM SPACE",
  "\u2007": "FIGURE SPACE",
  "\u2008": "PUNCTUATION SPACE",
  "\u2009": "THIN SPACE",
  "\u200a": "HAIR SPACE",
  "\u202f": "NARROW NO-BREAK SPACE",
  "\u3000": "IDEOGRAPHIC SPACE",
  "\u200b": "ZERO WIDTH SPACE",
  "\u200c": "ZERO WIDTH NON-JOINER",
  "\u200d": "ZERO WIDTH JOINER",
  "\u2060": "WORD JOINER",
  "\u00ad": "SOFT HYPHEN",
  "\ufeff": "ZERO WIDTH NO-BREAK SPACE",
  "\u0301": "COMBINING ACUTE ACCENT",
  "\u0300": "COMBINING GRAVE ACCENT",
  "\u0308": "COMBINING DIAERESIS",
};

/** Characters a model does not see to copy: the loose search of edit's error skips them as it skips whitespace. */
export const INVISIBLE = "\u200b\u200c\u200d\u2060\u00ad\ufeff";

/** `U+00A0 NO-BREAK SPACE`. */
export function charName(c: string): string {
  const code = `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
  return NAMES[c] ? `${code} ${NAMES[c]}` : code;
}

const plain = (text: string) => text.replace(LOOK_ALIKE, (c) => PLAIN[c]!);

/** Where `oldString` is in `text` when look-alikes are read as the plain characters; its line breaks match CRLF or LF. */
export const plainMatches = (text: string, oldString: string): Matches => matchesOf(plain(text), plain(oldString));

/** Each occurrence of `needle` in `text`, its line breaks matching CRLF or LF, as edit's exact match does. */
function matchesOf(text: string, needle: string): Matches {
  const found: Matches = { at: [], end: [] };
  const pattern = anyLineEnds(needle);
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    found.at.push(m.index);
    found.end.push(m.index + m[0].length);
  }
  return found;
}

/** What edit replaces instead of old_string and new_string as given, where, and the line its result says it with. */
export interface LookAlikeMatch extends Matches {
  /** the file's text where old_string matched, and new_string to replace it with: line breaks as "\n" (edit gives each place its own line ends) */
  oldString: string;
  newString: string;
  note: string;
}

const lf = (s: string) => s.replace(/\r\n/g, "\n");

/**
 * old_string found in `text` when only look-alikes differ: the file's own text and new_string
 * carrying the file's characters where it keeps old_string's text (before and after what it
 * changes). Undefined when there is no such match, or the places it matches are written
 * differently (no one text to replace).
 */
export function lookAlike(text: string, oldArg: string, newArg: string): LookAlikeMatch | undefined {
  const [oldString, newString] = [lf(oldArg), lf(newArg)];
  const where = plainMatches(text, oldString);
  const found = new Set(where.at.map((a, i) => lf(text.slice(a, where.end[i]))));
  if (where.at.length > 0 && found.size === 1) {
    const file = [...found][0]!;
    if (file === oldString) return undefined;
    return {
      ...where,
      oldString: file,
      newString: keepFile(file, oldString, newString),
      note: `[${differences(file, oldString)}; new_string keeps the file's characters where it keeps old_string's text]`,
    };
  }
  for (const form of ["NFD", "NFC"] as const) {
    const normal = oldString.normalize(form);
    const at = normal === oldString ? undefined : matchesOf(text, normal);
    if (at && at.at.length > 0)
      return {
        ...at,
        oldString: normal,
        newString: newString.normalize(form),
        note: `[matched the file's accented letters, which it writes ${form === "NFD" ? "decomposed (NFD: a letter, then a combining accent)" : "composed (NFC)"}; new_string is written so too]`,
      };
  }
  // a weak model's line breaks escaped twice: `\\n` in the JSON, a backslash and an n in old_string
  if (/\\[nt]/.test(oldArg) && !oldArg.includes("\n")) {
    const unescaped = (s: string) => s.replace(/\\(["'\\nt])/g, (_, c: string) => (c === "n" ? "\n" : c === "t" ? "\t" : c));
    const at = matchesOf(text, unescaped(oldArg));
    if (at.at.length > 0)
      return {
        ...at,
        oldString: unescaped(oldArg),
        newString: newArg.includes("\n") ? newString : unescaped(newArg),
        note: "[old_string had \\n (a backslash and an n) where the file has line breaks, as text escaped twice; read as line breaks and tabs, in new_string too]",
      };
  }
  return undefined;
}

/**
 * new_string with the file's characters (`file`, old_string as the file writes it) in the text it
 * keeps of old_string, before and after its change; in the changed text, straight quotes become
 * curly ones where the file's match has only curly quotes of that kind (opening after a space or
 * a bracket, else closing, as typographic quotes go).
 */
function keepFile(file: string, oldString: string, newString: string): string {
  let head = 0;
  while (head < oldString.length && head < newString.length && oldString[head] === newString[head]) head++;
  let tail = 0;
  while (tail < oldString.length - head && tail < newString.length - head && oldString.at(-1 - tail) === newString.at(-1 - tail)) tail++;
  let middle = newString.slice(head, newString.length - tail);
  for (const [straight, open, close] of [
    ['"', "\u201c", "\u201d"],
    ["'", "\u2018", "\u2019"],
  ] as const)
    if (!file.includes(straight) && (file.includes(open) || file.includes(close)))
      middle = middle.replace(new RegExp(straight, "g"), (_, at: number) => {
        const before = at > 0 ? middle[at - 1]! : file[head - 1];
        return before === undefined || /[\s([{\u2014]/.test(before) ? open : close;
      });
  return file.slice(0, head) + middle + file.slice(file.length - tail);
}

/** `matched where the file has U+201C LEFT DOUBLE QUOTATION MARK and U+201D RIGHT DOUBLE QUOTATION MARK for your U+0022 QUOTATION MARK` (at most 3 of yours). */
function differences(file: string, oldString: string): string {
  const theirs = new Map<string, Set<string>>();
  for (let i = 0; i < file.length; i++) if (file[i] !== oldString[i]) theirs.set(oldString[i]!, (theirs.get(oldString[i]!) ?? new Set()).add(file[i]!));
  const said = [...theirs].slice(0, 3).map(([yours, file]) => `${[...file].map(charName).join(" and ")} for your ${charName(yours)}`);
  return `matched where the file has ${said.join("; ")}`;
}

/**
 * What the file's text `found` (where old_string matched loosely) holds that old_string lacks and
 * a model would not see it copy: look-alikes and invisible characters, named, at most 3; "" when none.
 */
export function oddCharacters(found: string, oldString: string): string {
  const odd = [...new Set(found)].filter((c) => (PLAIN[c] !== undefined || INVISIBLE.includes(c)) && !oldString.includes(c));
  return odd
    .slice(0, 3)
    .map((c) => `the file has ${charName(c)} there, which old_string does not`)
    .join("; ");
}
