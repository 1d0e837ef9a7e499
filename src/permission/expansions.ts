// The values of two expansions dash and bash read without running anything (SPEC §8): bash's
// `$'…'` strings, and which `${…}` forms run or assign code. Pure; shell-words.ts reads the text.
import { arithmeticReads, assignRisk, integerRisk } from "./variables.ts";

const ANSI_C: Record<string, string> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/** The value of bash's $'…' body: its escapes decoded; a NUL ends it, as in bash. */
export function decodeAnsiC(body: string): string {
  const value = body.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c[^]|[^]?)/g, (all, e: string) => {
    if (/^[xuU]./.test(e)) return String.fromCodePoint(Math.min(parseInt(e.slice(1), 16), 0x10ffff));
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8) & 0xff);
    if (e.length === 2 && e[0] === "c") return String.fromCharCode(e.charCodeAt(1) & 0x1f);
    return Object.hasOwn(ANSI_C, e) ? ANSI_C[e]! : all;
  });
  const nul = value.indexOf("\0");
  return nul < 0 ? value : value.slice(0, nul);
}

/**
 * Why a `${…}` runs unknown code, or undefined for the POSIX forms (`${X}`, `${#X}`, `${X:-w}`,
 * `${X#p}` …) and bash's pattern and case forms. bash evaluates an array subscript, a substring
 * offset and an indirect name as arithmetic or as a name (`${!x}`), running `$(…)` found in a
 * variable's value; `${X@P}` expands a value like a prompt. dash stops with an error on them.
 * `${!a[@]}` (an array's keys) and `${!prefix*}` (names) evaluate nothing. A subscript that reads
 * variables (or what the checker cannot know: undefined) is told to `subscript`, with its array:
 * a risk unless the array is associative or the variables only ever hold numbers.
 */
export function parameterRisk(body: string, subscript: (array: string, reads: string[] | undefined) => void): string | undefined {
  const m = /^(#?)([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])(\[[^\]]*\])?([^]*)$/.exec(body);
  // `${!a[@]}` lists an array's keys and `${!prefix*}` the names that start so: nothing is evaluated
  if (/^![A-Za-z_][A-Za-z0-9_]*(\[[@*]\]|[@*])$/.test(body)) return undefined;
  if (body.startsWith("!") && body.length > 1) return "bash expands `${!…}` indirectly, evaluating a name it finds at run time";
  if (!m) return "an expansion outside the forms the checker models";
  const [, , name = "", index, rest = ""] = m;
  if (index && !/^\[[@*]\]$/.test(index)) {
    // arithmetic for an indexed array: numbers only, or variables the script only ever sets to numbers
    const reads = arithmeticReads(index.slice(1, -1));
    if (!reads || reads.length) subscript(name, reads);
  }
  if (/^:?=/.test(rest) && assignRisk(name)) return assignRisk(name); // `${PATH:=.}` assigns
  if (/^:?=/.test(rest) && integerRisk(name, /^:?=([0-9]+)$/.exec(rest)?.[1])) return integerRisk(name); // `${OPTIND:=$x}` evaluates $x in bash
  if (rest === "" || /^(:?[-=?+]|##?|%%?|\/[/#%]?|\^\^?|,,?)/.test(rest)) return undefined;
  if (/^:[\s0-9+-]*(:[\s0-9+-]*)?$/.test(rest)) return undefined; // a substring with literal offsets
  if (rest.startsWith(":")) return "bash evaluates a substring offset as code";
  if (/^@[QEAaUuLKk]$/.test(rest)) return undefined;
  if (rest === "@P") return "bash expands `${…@P}` like a prompt, running `$(…)` found in the value";
  return "an expansion outside the forms the checker models";
}
