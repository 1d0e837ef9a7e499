// The files `csplit` and `split` write, whose names neither word names by itself (x2 #6): csplit
// writes PREFIX + printf(SUFFIX, n) (`-f .g -b 'it/config%.0d'` is `.git/config` for piece 0, as
// `%.0d` prints nothing for 0), split PREFIX + its generated suffix + `--additional-suffix` (`.gi`,
// `t` with `-a 1`, `/config`). Each is judged as one name, its generated part a `*` that matches
// any run of characters within a name (control-arguments.ts judges it as the glob it is). Pure.
import { decided } from "./control-files.ts";
import { program } from "./match.ts";
import type { Named } from "./patch-paths.ts";
import type { Segment, Word } from "./shell-model.ts";

/** csplit's and split's options that take a value, short letters and long names (GNU coreutils 9). */
const CSPLIT = { short: "fbn", long: ["prefix", "suffix-format", "digits"] };
const SPLIT = { short: "abClnt", long: ["suffix-length", "additional-suffix", "bytes", "line-bytes", "lines", "number", "separator", "filter"] };

/** A printf format's conversions as `*` (each prints digits, or nothing: `%.0d` of 0), `%%` as `%`. */
const formatGlob = (format: string) => format.replace(/%[-+ #0'.\d]*[a-zA-Z%]/g, (c) => (c === "%%" ? "%" : "*"));

/** The names csplit or split in `seg` writes, each one glob; undefined for another program. */
export function splitNames(seg: Segment): { names: Named[] } | undefined {
  const first = seg.words[0];
  if (!first || !decided(first)) return undefined;
  const name = program(first.text);
  if (name !== "csplit" && name !== "split") return undefined;
  const { values, operands } = readSplit(name, seg.words);
  // csplit FILE PATTERN…, its prefix `xx`, its suffix `%02d`; split [FILE [PREFIX]], its prefix `x`
  const prefix = name === "csplit" ? values.get("prefix") : operands[1];
  const suffix = name === "csplit" ? values.get("suffix-format") : values.get("additional-suffix");
  const head = prefix ?? word(name === "csplit" ? "xx" : "x");
  const tail = suffix ?? word(name === "csplit" ? "%02d" : "");
  const middle = name === "split" ? "*" : "";
  const unknown = !decided(head) || !decided(tail);
  const text = `${decided(head) ? head.text : "*"}${middle}${decided(tail) ? (name === "csplit" ? formatGlob(tail.text) : tail.text) : "*"}`;
  const shown = (w: Word) => (decided(w) ? w.text : w.raw);
  const raw = `${shown(head)}${middle}${name === "csplit" ? formatGlob(shown(tail)) : shown(tail)}`;
  const joined: Word = { text, raw, unknown, glob: true };
  return { names: [{ word: joined, note: `the name ${name} makes of its prefix and suffix` }] };
}

const word = (text: string): Word => ({ text, raw: text, unknown: false, glob: false });

/**
 * The command `split --filter=COMMAND` runs with the shell for each piece (`$FILE` its name), by
 * any beginning of the name getopt takes (`--filt`), its value attached or the next word (r1 #8):
 * shell-commands.ts reads it as `sh -c` text. `$FILE` and `${FILE}` stand for the name of a piece
 * (`xaa`: the joined name of splitNames, itself judged as the glob `x*` on split's own words) where
 * that is plain characters, so `gzip > $FILE.gz` is judged as a write to `xaa.gz`; else they stay, a
 * name known only at run time. Undefined for another program or none given.
 */
export function splitFilter(seg: Segment): Word | undefined {
  const first = seg.words[0];
  if (!first || !decided(first) || program(first.text) !== "split") return undefined;
  const filter = readSplit("split", seg.words).values.get("filter");
  if (!filter || !decided(filter)) return filter;
  const joined = splitNames(seg)?.names[0]?.word;
  if (!joined || joined.unknown || !/^[\w./+~-]*\*[\w./+~-]*$/.test(joined.text)) return filter;
  const text = filter.text.replace(/\$\{FILE\}|\$FILE(?!\w)/g, joined.text.replace("*", "aa"));
  return { ...filter, text, raw: text };
}

/** csplit's or split's words: the values of its options (long names; csplit's `-f`/`-b`, split's `-a`) and its operands. */
function readSplit(name: "csplit" | "split", all: Word[]): { values: Map<string, Word>; operands: Word[] } {
  const table = name === "csplit" ? CSPLIT : SPLIT;
  const values = new Map<string, Word>();
  const operands: Word[] = [];
  const words = all.slice(1);
  for (let k = 0; k < words.length; k++) {
    const w = words[k]!;
    const t = w.text;
    if (!decided(w) || !t.startsWith("-") || t === "-") {
      operands.push(w);
      continue;
    }
    if (t === "--") {
      operands.push(...words.slice(k + 1));
      break;
    }
    if (t.startsWith("--")) {
      const eq = t.indexOf("=");
      const written = t.slice(2, eq < 0 ? undefined : eq);
      const found = table.long.filter((l) => l.startsWith(written));
      const long = table.long.includes(written) ? written : found.length === 1 ? found[0] : undefined;
      if (!long) continue;
      const value = eq < 0 ? words[++k] : { ...w, text: t.slice(eq + 1), raw: w.raw.slice(w.raw.indexOf("=") + 1) };
      if (value) values.set(long, value);
      continue;
    }
    const at = [...t.slice(1)].findIndex((c) => table.short.includes(c));
    if (at < 0) continue;
    const attached = t.slice(at + 2);
    const value = attached ? { ...w, text: attached, raw: attached } : words[++k];
    const letter = t[at + 1]!;
    const long = { f: "prefix", b: "suffix-format", a: "suffix-length" }[letter];
    if (value && (name === "csplit" ? letter === "f" || letter === "b" : letter === "a")) values.set(long!, value);
  }
  return { values, operands };
}
