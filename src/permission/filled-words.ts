// Arguments a program fills in at run time (x5 #1, #2): find's `{}` (`-exec`, `-execdir`, `-ok`,
// `-okdir`, `{} +`) and what xargs reads (appended, or put for its `-I` placeholder). Under an allow
// list such a word, given to a program that may write what it names (`cp`, `mv`, `sed -i`, `ln`…),
// is as unknown as `"$d"`, which no `*` matches: it is refused as not verifiable — unless every
// value it can take is a path below a folder that holds none of hey's or git's files and nothing a
// write could reach them through (a link, a hard-linked file, `.git`): find's `{}` below its start
// points (`find src -name '*.ts' -exec sed -i … {} +`), xargs' input when a plain `find DIR` prints
// it (`find src -name '*.ts' | xargs sed -i …`). Pure: the tree is looked at by `control.tree`.
import { type ControlFiles, decided, directories, expand, inGit, onWindows, POSIX, WINDOWS } from "./control-files.ts";
import { guards, reads } from "./named-readers.ts";
import { program } from "./match.ts";
import { expressionStart, findReach, printer, type Reach } from "./find-filters.ts";
import { findStarts } from "./programs.ts";
import type { Filled, Segment, Word } from "./shell-model.ts";

const SEARCH =
  "search a folder that holds none of hey's or git's files (`find src …`) or filter them out (`-name '*.md'`), or name the files (a glob: `sed -i … *.md`)";
const NAME = "name the files in the command, or pipe a plain `find DIR` of a folder without hey's or git's files into xargs";

/**
 * The first filled argument among `segments` given to a program that may write what it names, and
 * why hey cannot tell it names no file hey guards (a refusal's words after "cannot verify `…`: ");
 * undefined when there is none, or each value it can take lies below folders shown to hold none.
 */
export function filledWrite(segments: Segment[], control: ControlFiles): string | undefined {
  for (const seg of segments) {
    if (seg.inert === "builtin" || !seg.words.some((w) => w.filled) || reads(seg) || !guards(seg)) continue;
    for (const w of seg.words.slice(1)) {
      if (!w.filled) continue;
      const why = unconfined(w.filled, seg, segments, control);
      const it = w.filled.by === "find" || w.raw !== "…" ? `\`${w.raw}\`` : "the words xargs appends";
      const name = program(seg.words[0]!.text);
      if (why) return `\`${name}\` may ${name === "rm" ? "delete" : "write"} ${it}, which ${why}`;
    }
  }
  return undefined;
}

/**
 * Why find's own `-delete` among `segments` could delete a file hey guards or one in a git
 * directory: what it finds is judged as `-exec rm {} +`'s `{}` is, under every list (`rm
 * .hey/config.toml` is refused under every list); undefined when none does, or hey has no view of the disk.
 */
export function findDeletes(segments: Segment[], control: ControlFiles): string | undefined {
  // no view of the disk (a checker given the paths alone): judged by the names it is given, as before
  if (!control.tree || !control.realDir) return undefined;
  for (const seg of segments) {
    const first = seg.words[0];
    if (seg.inert === "builtin" || !first || !decided(first) || program(first.text) !== "find") continue;
    const at = seg.words.map((w, i) => (decided(w) && w.text === "-delete" ? i : -1)).filter((i) => i >= 0);
    if (!at.length) continue;
    const reach = findReach(seg.words, expressionStart(seg.words), new Set(at)) ?? ALL;
    const why = below(findStarts(seg.words), false, segments, control, "each file it finds", reach, true);
    if (why) return `\`-delete\` deletes ${why}`;
  }
  return undefined;
}

/** Why the values of a filled word could be any path, or undefined when they all lie below folders without hey's or git's files. */
function unconfined(filled: Filled, seg: Segment, segments: Segment[], control: ControlFiles): string | undefined {
  if (filled.by === "find") {
    const what = "find fills in with each file it finds";
    if (filled.moved) return `${what}, in a directory its wrapper names: ${SEARCH}`;
    const reach = findReach(filled.find, expressionStart(filled.find), new Set([filled.at])) ?? ALL;
    return below(filled.starts, false, segments, control, what, reach);
  }
  if (filled.file) return `xargs reads from \`${filled.file.raw}\`, a file hey does not read: ${NAME}`;
  const feed = seg.piped ? feeder(segments) : undefined;
  if (feed === undefined) return `xargs reads from its input, known only at run time: ${NAME}`;
  if (typeof feed === "string") return `xargs reads from what \`${feed}\` prints, known only at run time: ${NAME}`;
  const nul = filled.split === "nul";
  if (filled.split === "other" || nul !== feed.nul)
    return `xargs splits otherwise than \`${feed.name}\` prints them: use \`find … -print0 | xargs -0\` (\`grep -rlZ\`, \`git ls-files -z\`), or \`find … | xargs\``;
  return below(feed.starts, !nul, segments, control, `xargs reads from ${feed.name}, each file it lists`, feed.reach);
}

/**
 * What feeds xargs when the line is just `find … | xargs …` (or a wrapper of xargs: `nice xargs`):
 * find's start points when it prints one path per file (`-print`, or `-print0`: `nul`) and does
 * nothing else, or what `grep -rl`, `rg -l` or `git ls-files` lists (find-filters.ts); otherwise
 * the first command's text; undefined when no single command feeds it.
 */
function feeder(segments: Segment[]): { name: string; starts: Word[]; nul: boolean; reach: Reach } | string | undefined {
  const tops = segments.filter((s) => !s.nested);
  // the xargs segment itself reads the pipe (checked by the caller); its wrapper's own part does not carry `piped`
  if (tops.length !== 2 || tops[0]!.piped) return undefined;
  const find = tops[0]!;
  const first = find.words[0];
  if (!first || !decided(first) || !find.words.every(decided) || find.redirects.length) return find.raw;
  const name = program(first.text);
  if (name !== "find") {
    const listed = printer(find.words);
    return listed ? { name: name === "git" ? "git ls-files" : name, ...listed } : find.raw;
  }
  const acts = find.words.filter((w) => /^-(print0?|printf|fprint0?|fprintf|ls|fls|exec|execdir|ok|okdir|delete|quit)$/.test(w.text));
  const prints = new Set(acts.map((w) => w.text));
  if (prints.size > 1 || acts.some((w) => !/^-print0?$/.test(w.text))) return find.raw;
  const reach = findReach(find.words, expressionStart(find.words), "print") ?? ALL;
  return { name: "find", starts: findStarts(find.words), nul: prints.has("-print0"), reach };
}

/** A reach that counts every entry: an expression hey cannot read. */
const ALL: Reach = () => ({ acts: true, prunes: false });

/**
 * Why some path below `starts` that `reach` lets the command act on could be, or lead to, a file
 * hey guards — is one or a folder above one, is in or above a guarded place, is in a git directory
 * or is one (`.git`), is a link, a file with other hard links, or (`plain`) a name xargs would
 * split, or is a folder holding any of those — or undefined.
 */
function below(
  starts: Word[],
  plain: boolean,
  segments: Segment[],
  control: ControlFiles,
  what: string,
  reach: Reach = ALL,
  deleting = false,
): string | undefined {
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
      const real = control.realDir?.(f.normalize(p));
      if (real === undefined) return `${there}, which hey cannot look into here`;
      if (typeof real === "object") return `${there}, which did not answer in time: ${real.unknown}`;
      const places = [f.normalize(p), f.normalize(real)].map(fold);
      if (places.some(inGit)) return `${there}, a folder in a git directory (git runs the commands its config and hooks name)`;
      for (const g of control.guarded ?? [])
        for (const d of [g.dir, ...(g.real !== undefined ? [g.real] : [])].map((x) => fold(f.normalize(x))))
          if (places.some((at) => under(at, d))) return `${there}, which holds or is in \`${g.dir}\` (${g.why}): ${SEARCH}`;
      const tree = control.tree?.(real);
      if (tree === undefined) return `${there}, which hey cannot search here`;
      if (tree === "maybe") return `${there}, which holds a folder hey cannot read: ${SEARCH}`;
      if ("unknown" in tree) return `${there}, which was not searched: ${tree.unknown}`;
      const why = reached(w, real, tree.top ?? "d", tree.entries, plain, control, reach, f, fold);
      if (why) return `${there}, which ${why}: ${SEARCH}`;
      // a delete follows no link and takes only a hard link's name: past the search, hey's files and `.git` are what it could harm
      const known = tree.more && deleting ? deletedKnown(w, real, control, reach, f, fold) : false;
      if (typeof known === "string") return `${there}, which ${known}: ${SEARCH}`;
      if (tree.more && known === false) return `${there}, which holds more than hey searches (10,000 entries): ${SEARCH}`;
    }
  }
  return undefined;
}

/**
 * Why `-delete` below `real`, a tree larger than the search, reaches a file it could harm there:
 * hey's own below it, or what is in its `.git` (a delete follows no link and takes only a hard
 * link's name, so the rest of the tree is no way to them); undefined: none; false: `.git` too is
 * larger than the search, or unread.
 */
function deletedKnown(w: Word, real: string, control: ControlFiles, reach: Reach, f: typeof POSIX, fold: (p: string) => string): string | undefined | false {
  const root = fold(f.normalize(real));
  const known = control.paths
    .filter((c) => fold(f.normalize(c)).startsWith(`${root}/`) && control.fileState?.(c) !== "none")
    .map((c) => [f.normalize(c), "f"] as [string, string]);
  const gitDir = f.join(real, ".git");
  const git = control.fileState?.(gitDir) === "none" ? { entries: [] } : control.tree?.(gitDir);
  if (!git || git === "maybe" || "unknown" in git || git.more) return false;
  const entries: [string, string][] = [
    ...known,
    ...(control.fileState?.(gitDir) === "none" ? [] : [[gitDir, git.top ?? "d"] as [string, string]]),
    ...git.entries,
  ];
  return reached(w, real, "d", entries, false, control, reach, f, fold);
}

/** Why an entry below `real` (the start point `w`, as found on disk) that the command acts on could lead to a file hey guards: the entry named as find prints it, and what it is; or undefined. */
function reached(
  w: Word,
  real: string,
  top: string,
  entries: [string, string][],
  plain: boolean,
  control: ControlFiles,
  reach: Reach,
  f: typeof POSIX,
  fold: (p: string) => string,
): string | undefined {
  const root = f.normalize(real);
  const start = w.raw.replace(/(.)[\\/]+$/, "$1");
  const shown = (abs: string) =>
    abs === root
      ? start
      : `${start === "/" ? "" : start}/${abs
          .slice(root.length + 1)
          .split("\\")
          .join("/")}`;
  const guarded = (control.guarded ?? []).flatMap((g) => [g.dir, ...(g.real !== undefined ? [g.real] : [])].map((d) => ({ d: fold(f.normalize(d)), g })));
  const controls = control.paths.map((c) => ({ c, at: fold(f.normalize(c)) }));
  const inside = (path: string, dir: string) => path === dir || path.startsWith(`${dir}/`) || path.startsWith(`${dir}\\`);
  /** what the entry itself is that a write through it reaches beyond it */
  const own = (abs: string, kind: string): string | undefined => {
    const rel = abs.slice(root.length);
    if (/(^|[\\/])\.git([\\/]|$)/.test(rel)) return "one of git's own files (git runs the commands its config and hooks name)";
    if (kind === "l") return "a link, which a write follows to wherever it leads";
    if (kind === "h") return "a file with other hard links, which could be git's or hey's own";
    if (kind === "o") return "no regular file";
    if (plain && /[\s'"\\]/.test(rel)) return "a name xargs splits into other words: use `find … -print0 | xargs -0`";
    const at = fold(abs);
    const c = controls.find((x) => inside(x.at, at));
    const made = c && control.fileState?.(c.c) === "none" ? " (not there yet: a copy onto the folder would make it)" : "";
    if (c) return c.at === at ? "hey's own configuration or trust file" : `a folder above hey's own \`${shown(f.normalize(c.c))}\`${made}`;
    const g = guarded.find((x) => inside(at, x.d) || inside(x.d, at));
    if (g) return `in or above \`${g.g.dir}\` (${g.g.why})`;
    return undefined;
  };
  // the walk lists a folder before what is in it: what a folder holds is found walking back
  const all: [string, string][] = [[root, top], ...entries.map(([p, k]) => [f.normalize(p), k] as [string, string])];
  const held = new Map<string, string>();
  for (let i = all.length - 1; i > 0; i--) {
    const [p, k] = all[i]!;
    const why = own(p, k) !== undefined ? p : held.get(p);
    const up = p.replace(/[\\/][^\\/]*$/, "");
    if (why && !held.has(up)) held.set(up, why);
  }
  const skipped = new Set<string>();
  let folder: string | undefined;
  for (const [p, k] of all) {
    const up = p.replace(/[\\/][^\\/]*$/, "");
    if (p !== root && skipped.has(up)) {
      if (k === "d") skipped.add(p);
      continue;
    }
    const depth = p === root ? 0 : p.slice(root.length + 1).split(/[\\/]/).length;
    const r = reach({ path: shown(p), kind: k, depth });
    if (r.prunes && k === "d") skipped.add(p);
    if (!r.acts) continue;
    const what = p === root ? "is" : `holds \`${shown(p)}\`,`;
    const why = own(p, k);
    if (why) return `${what} ${why}`;
    const deep = k === "d" ? held.get(p) : undefined;
    // an entry acted on that is itself the reason is named before a folder above one
    if (deep && !folder) folder = `${what} a folder holding \`${shown(deep)}\`, ${own(deep, all.find(([q]) => q === deep)![1])}`;
  }
  return folder;
}
