// The options of the readers plan mode lets run (read-only.ts) that would make them run a program
// or write a file: ripgrep's `--pre`/`--pre-glob` (a program for each file) and `--hostname-bin`
// (a program for hyperlinks, run even without --hyperlink-format), file's `-C` (writes NAME.mgc).
// file's options are few, so it runs only with those known to read (an allow shape); ripgrep has
// over a hundred, so its three are refused. ripgrep's `-z` and file's `-z` stay: they pipe a
// compressed file through gzip, xz… found on PATH, which only read it. Pure.
import type { Word } from "./shell-model.ts";

/** ripgrep's options that run a program, in every form it reads (`--pre=X`, `--pre X`); ripgrep takes no abbreviations. */
const RG_RUNS = /^--(pre|pre-glob|hostname-bin)(=|$)/;

/** file's short options that only read; and those that take a value (`-m LIST`, `-mLIST`). Not -C (writes), not -p (sets the file's times back). */
const FILE_FLAGS = new Set("vzZbchikLlnN0rsSd".split(""));
const FILE_VALUED = new Set("meFfP".split(""));
/** file's long options that only read, with `=` where they take a value. */
const FILE_LONG =
  /^--(help|version|uncompress|uncompress-noreport|brief|checking-printout|mime|apple|extension|mime-type|mime-encoding|keep-going|list|dereference|no-dereference|no-buffer|no-pad|print0|raw|special-files|no-sandbox|debug|(magic-file|exclude|exclude-quiet|files-from|separator|parameter)(=.*)?)$/s;
const FILE_LONG_VALUED = /^--(magic-file|exclude|exclude-quiet|files-from|separator|parameter)$/;

/** Whether `name` (rg or file) with `words` (its words after the name, all known) runs no program and writes no file; other programs: true. */
export function optionsRead(name: string, words: readonly Word[]): boolean {
  const texts = words.map((w) => w.text);
  const options = texts.indexOf("--") < 0 ? texts : texts.slice(0, texts.indexOf("--"));
  if (name === "rg") return !options.some((t) => RG_RUNS.test(t));
  if (name === "file") return fileOptionsRead(options);
  return true;
}

function fileOptionsRead(texts: readonly string[]): boolean {
  for (let i = 0; i < texts.length; i++) {
    const t = texts[i]!;
    if (t === "-" || !t.startsWith("-")) continue;
    if (t.startsWith("--")) {
      if (!FILE_LONG.test(t)) return false;
      if (FILE_LONG_VALUED.test(t)) i++; // its value is the next word
      continue;
    }
    for (let j = 1; j < t.length; j++) {
      const c = t[j]!;
      if (FILE_VALUED.has(c)) {
        if (j === t.length - 1) i++; // `-m LIST`: the value is the next word
        break;
      }
      if (!FILE_FLAGS.has(c)) return false;
    }
  }
  return true;
}
