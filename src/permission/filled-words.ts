// Arguments a program fills in at run time (x5 #1, #2): find's `{}` (`-exec`, `-execdir`, `-ok`,
// `-okdir`, `{} +`) and what xargs reads (appended, or put for its `-I` placeholder). Under an allow
// list such a word, given to a program that may write what it names (`cp`, `mv`, `sed -i`, `ln`…),
// is as unknown as `"$d"`, which no `*` matches: it is refused as not verifiable — unless every
// value it can take is a path below a folder that holds none of hey's or git's files and nothing a
// write could reach them through (a link, a hard-linked file, `.git`): find's `{}` below its start
// points (`find src -name '*.ts' -exec sed -i … {} +`), xargs' input when a plain `find DIR` prints
// it (`find src -name '*.ts' | xargs sed -i …`). Pure: the tree is looked at by `control.tree`.
import { type ControlFiles, decided, directories, expand, inGit, onWindows, POSIX, WINDOWS } from "./control-files.ts";
import { guards, reads } from "./control-arguments.ts";
import { program } from "./match.ts";
import { findStarts } from "./programs.ts";
import type { Filled, Segment, Word } from "./shell-model.ts";

const SEARCH = "search a folder that holds none of hey's or git's files (`find src …`), or name the files (a glob: `sed -i … *.md`)";
const NAME = "name the files in the command, or pipe a plain `find DIR` of a folder without hey's or git's files into xargs";

/**
 * The first filled argument among `segments` given to a program that may write what it names, and
 * why hey cannot tell it names no file hey guards (a refusal's words after "cannot verify `…`: ");
 * undefined when there is none, or each lies below folders shown to hold none.
 */
export function filledWrite(segments: Segment[], control: ControlFiles): string | undefined {
  for (const seg of segments) {
    if (seg.inert === "builtin" || !seg.words.some((w) => w.filled) || reads(seg) || !guards(seg)) continue;
    for (const w of seg.words.slice(1)) {
      if (!w.filled) continue;
      const why = unconfined(w.filled, seg, segments, control);
      const it = w.filled.by === "find" || w.raw !== "…" ? `\`${w.raw}\`` : "the words xargs appends";
      const name = program(seg.words[0]!.text);
      // `find … -exec rm {} +`: find's own -delete is judged by the folders it starts in (control-arguments.ts)
      const del = name === "rm" && w.filled.by === "find" ? "; or use find's own `-delete`" : "";
      if (why) return `\`${name}\` may ${name === "rm" ? "delete" : "write"} ${it}, which ${why}${del}`;
    }
  }
  return undefined;
}

/** Why the values of a filled word could be any path, or undefined when they all lie below folders without hey's or git's files. */
function unconfined(filled: Filled, seg: Segment, segments: Segment[], control: ControlFiles): string | undefined {
  if (filled.by === "find") {
    const what = "find fills in with each file it finds";
    return filled.moved ? `${what}, in a directory its wrapper names: ${SEARCH}` : below(filled.starts, false, segments, control, what);
  }
  if (filled.file) return `xargs reads from \`${filled.file.raw}\`, a file hey does not read: ${NAME}`;
  const feed = seg.piped ? feeder(segments) : undefined;
  if (feed === undefined) return `xargs reads from its input, known only at run time: ${NAME}`;
  if (typeof feed === "string") return `xargs reads from what \`${feed}\` prints, known only at run time: ${NAME}`;
  const nul = filled.split === "nul";
  if (filled.split === "other" || nul !== feed.nul) return "xargs splits otherwise than find prints them: use `find … -print0 | xargs -0`, or `find … | xargs`";
  return below(feed.starts, !nul, segments, control, "xargs reads from find, each file it finds");
}

/**
 * What feeds xargs when the line is just `find … | xargs …` (or a wrapper of xargs: `nice xargs`):
 * find's start points when it prints one path per file (`-print`, or `-print0`: `nul`) and does
 * nothing else; otherwise the first command's text; undefined when no single command feeds it.
 */
function feeder(segments: Segment[]): { starts: Word[]; nul: boolean } | string | undefined {
  const tops = segments.filter((s) => !s.nested);
  // the xargs segment itself reads the pipe (checked by the caller); its wrapper's own part does not carry `piped`
  if (tops.length !== 2 || tops[0]!.piped) return undefined;
  const find = tops[0]!;
  const first = find.words[0];
  if (!first || !decided(first) || program(first.text) !== "find" || !find.words.every(decided) || find.redirects.length) return find.raw;
  const acts = find.words.filter((w) => /^-(print0?|printf|fprint0?|fprintf|ls|fls|exec|execdir|ok|okdir|delete)$/.test(w.text));
  const prints = new Set(acts.map((w) => w.text));
  if (prints.size > 1 || acts.some((w) => !/^-print0?$/.test(w.text))) return find.raw;
  return { starts: findStarts(find.words), nul: prints.has("-print0") };
}

/**
 * Why some path below `starts` could be, or lead to, a file hey guards — one is, holds one, holds
 * `.git`, a link, a file with other hard links or (`plain`) a name xargs would split — or undefined.
 */
function below(starts: Word[], plain: boolean, segments: Segment[], control: ControlFiles, what: string): string | undefined {
  const f = onWindows(control) ? WINDOWS : POSIX;
  const dirs = directories(segments, control, f);
  const sep = f === WINDOWS ? "\\" : "/";
  const under = (path: string, dir: string) => path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
  const fold = (p: string) => (control.fold ? p.toLowerCase() : p);
  for (const w of starts) {
    const there = `${what} below \`${w.raw}\``;
    const text = decided(w) ? expand(w, control.home) : undefined;
    if (text === undefined) return `${there}, a folder known only at run time: ${SEARCH}`;
    const abs = f.absolute(text);
    if (abs === undefined && !dirs) return `${there}, in a directory known only at run time: ${SEARCH}`;
    for (const p of abs !== undefined ? [abs] : dirs!.map((d) => f.join(d, text))) {
      /** a path below `p`, as the start point is written (`./.hey/config.toml`) */
      const shown = (c: string) => (fold(f.normalize(c)).startsWith(fold(f.normalize(p))) ? w.raw.replace(/[\\/]$/, "") + c.slice(f.normalize(p).length) : c);
      const real = control.realDir?.(f.normalize(p));
      if (real === undefined) return `${there}, which hey cannot look into here`;
      if (typeof real === "object") return `${there}, which did not answer in time: ${real.unknown}`;
      const places = [f.normalize(p), f.normalize(real)].map(fold);
      if (places.some(inGit)) return `${there}, a folder in a git directory (git runs the commands its config and hooks name)`;
      const held = control.paths.find((c) => places.some((d) => under(fold(f.normalize(c)), d)));
      // one not there yet counts too (`cp -rT evil {}` onto a folder find finds above it makes it), said after what is there
      const made = held !== undefined && control.fileState?.(held) === "none";
      if (held && !made) return `${there}, which holds hey's own \`${shown(held)}\`: ${SEARCH}`;
      for (const g of control.guarded ?? [])
        for (const d of [g.dir, ...(g.real !== undefined ? [g.real] : [])].map((x) => fold(f.normalize(x))))
          if (places.some((at) => under(d, at) || under(at, d))) return `${there}, which holds or is in \`${g.dir}\` (${g.why}): ${SEARCH}`;
      const tree = control.tree?.(real, plain);
      if (tree === undefined) return `${there}, which hey cannot search here`;
      if (tree === "maybe") return `${there}, which holds more than hey searches (10,000 entries) or a folder it cannot read: ${SEARCH}`;
      if ("unknown" in tree) return `${there}, which was not searched: ${tree.unknown}`;
      const found = tree.found && `\`${tree.found.startsWith(real) ? w.raw.replace(/\/$/, "") + tree.found.slice(real.length) : tree.found}\``;
      if (tree.what === "name") return `${there}, which holds ${found}, a name xargs splits into other words: use \`find … -print0 | xargs -0\``;
      if (tree.what) return `${there}, which holds ${found}, ${KINDS[tree.what]}: ${SEARCH}`;
      if (held) return `${there}, where hey's own \`${shown(held)}\` would be made: ${SEARCH}`;
    }
  }
  return undefined;
}

const KINDS = {
  link: "a link, which a write follows to wherever it leads",
  git: "a git directory (git runs the commands its config and hooks name)",
  hard: "a file with other hard links, which could be git's or hey's own",
};
