// A file with other hard links (a red-team report: `find /tmp/copy -name config -exec ln {} /tmp/hl \;`
// then `cat evil > /tmp/hl` rewrote `.git/config`, and `git status` ran its fsmonitor). A hard link
// keeps no trace of its other names, and no search finds them all, so while a list is set a command
// may not write an existing regular file that has more than one: not by a redirection, nor as the
// file a program writes (the last word, or every word for a program that writes each file it names:
// `sed -i`, `tee`; sed's `w FILE` too). Judged after the deny list, so a deny entry still names itself. Pure: `links`
// does the file system's part.
import { reads } from "./named-readers.ts";
import { type ControlFiles, decided, directories, expand, onWindows, POSIX, WINDOWS, writes } from "./control-files.ts";
import { harmless, program } from "./match.ts";
import { sedWrites } from "./sed-scripts.ts";
import type { Segment, Word } from "./shell-model.ts";

/** Programs that write every file they name, not only their last. */
const IN_PLACE = new Set(["sed", "tee", "truncate", "shred", "perl"]);

/**
 * The first redirection target or argument among `segments` that writes an existing file with
 * other hard links (`word`), or why that cannot be told (`unknown`: a path that did not answer in time).
 */
export function linkedWrite(segments: Segment[], control: ControlFiles): { word: string; unknown?: string } | undefined {
  if (!control.links) return undefined;
  const f = onWindows(control) ? WINDOWS : POSIX;
  const dirs = directories(segments, control, f) ?? [];
  const linked = (w: Word, text = w.text): { word: string; unknown?: string } | undefined => {
    if (!decided(w)) return undefined; // a word known only at run time is the control guard's to judge
    const path = w.raw.startsWith("~") ? expand(w, control.home) : text;
    if (path === undefined) return undefined;
    const abs = f.absolute(path);
    for (const p of abs !== undefined ? [abs] : dirs.map((d) => f.join(d, path))) {
      const n = control.links!(p);
      if (typeof n === "object") return { word: w.raw, unknown: n.unknown };
      if (n !== undefined && n > 1) return { word: w.raw };
    }
    return undefined;
  };
  for (const seg of segments) {
    for (const r of seg.redirects) {
      const hit = writes(r) && !harmless(r) ? linked(r.target) : undefined;
      if (hit) return hit;
    }
    if (seg.inert === "builtin" || reads(seg) || seg.words.length < 2) continue;
    const first = seg.words[0]!;
    const every = decided(first) && IN_PLACE.has(program(first.text));
    // and the files sed's `w` writes (`sed -n 'w hard' f`)
    const named = sedWrites(seg)?.names.map((n) => n.word) ?? [];
    for (const w of [...(every ? seg.words.slice(1) : seg.words.slice(-1)), ...named]) {
      if (decided(w) && w.text.startsWith("-") && !/^[^=/]+=./.test(w.text)) continue;
      const hit = linked(w, decided(w) && /^[^=/]+=./.test(w.text) ? w.text.slice(w.text.indexOf("=") + 1) : w.text);
      if (hit) return hit;
    }
  }
  return undefined;
}
