// Links a command line makes for its own later parts (r5 #1, #6). `ln -s ~/.config cfglink && git
// clone -q . cfglink/git` lays a clone on git's global config folder; the guard looks up links on
// disk (`control.realDir`), where cfglink is not yet when the line is checked. Each link `ln`,
// `link` or `cp -s`/`-l` makes is read from the command as written, and the control guard's view of
// the disk is given with those links in it (`withLineLinks`): a path through one is judged where
// the link leads, or is "cannot tell" when the link's target is known only at run time. And a link
// made at a place the guard keeps, or at a directory above one (`ln -s /x ~/.config/git`), replaces
// it with what it points to (`linkOverGuarded`). Pure: the caller's `control` reads the disk.
import { type ControlFiles, decided, directories, expand, type Flavour, onWindows, POSIX, WINDOWS } from "./control-files.ts";
import { program } from "./match.ts";
import type { Segment, Word } from "./shell-model.ts";

/** A link one segment makes: where it may be (absolute), where it leads (undefined: known only at run time), and (`below`) whether only the paths below it lead there (a tree `cp -rs` makes of links). */
interface Made {
  at: string[];
  to: string | undefined;
  below: boolean;
  seg: Segment;
  word: Word;
}

// ln's (GNU coreutils) options that take the next word; cp's
const LN_VALUES = { short: "St", long: ["suffix", "target-directory"] };
const CP_VALUES = { short: "St", long: ["no-preserve", "sparse", "suffix", "target-directory"] };

/**
 * The links segment `seg` makes, from the directories `dirs` the script may stand in (undefined: known only at run time, none
 * then for a relative link): `ln [-s] TARGET… [LINK|DIR]`, `ln -t DIR TARGET…`, `link FILE LINK`, `cp -s|-l SRC… DEST`. A
 * destination that is a directory now takes each source's name below it, unless `-T`/`-n` says the name itself is replaced.
 */
function linksOf(seg: Segment, control: ControlFiles, f: Flavour, dirs: string[] | undefined, made: Made[]): Made[] | undefined {
  const first = seg.words[0];
  if (!first || !decided(first) || seg.elsewhere) return undefined;
  const name = program(first.text);
  if (name !== "ln" && name !== "link" && name !== "cp") return undefined;
  const values = name === "cp" ? CP_VALUES : LN_VALUES;
  const operands: Word[] = [];
  let target: Word | undefined;
  let symbolic = false;
  let links = name !== "cp";
  let recursive = false;
  let replace = false; // -T, --no-target-directory, -n: the destination's own name, never a name below it
  let relative = false; // ln -r: the target as written is relative to where ln runs
  const words = seg.words;
  for (let k = 1; k < words.length; k++) {
    const w = words[k]!;
    const t = w.text;
    if (!decided(w) || t === "-" || !t.startsWith("-") || name === "link") operands.push(w);
    else if (t === "--") {
      operands.push(...words.slice(k + 1));
      break;
    } else if (t.startsWith("--")) {
      const eq = t.indexOf("=");
      const long = t.slice(2, eq < 0 ? undefined : eq);
      // getopt_long reads any unique abbreviation (`--sym`, `--target=`)
      const is = (full: string) => long.length > 0 && full.startsWith(long);
      if (is("symbolic") || (name === "cp" && is("symbolic-link"))) [symbolic, links] = [true, true];
      if (name === "cp" && is("link")) links = true;
      if (is("recursive") || is("archive")) recursive = true;
      if (is("no-target-directory") || (name === "ln" && is("no-dereference"))) replace = true;
      if (name === "ln" && is("relative")) relative = true;
      const value = eq >= 0 ? { ...w, text: t.slice(eq + 1), raw: t.slice(eq + 1) } : values.long.some(is) ? words[++k] : undefined;
      if (is("target-directory") && value) target = value;
    } else {
      for (let j = 1; j < t.length; j++) {
        const c = t[j]!;
        if (c === "s") [symbolic, links] = [true, true];
        if (name === "cp" && c === "l") links = true;
        if (name === "cp" && "rRa".includes(c)) recursive = true;
        if (c === "T" || (name === "ln" && c === "n")) replace = true;
        if (name === "ln" && c === "r") relative = true;
        if (values.short.includes(c)) {
          const value = j + 1 < t.length ? { ...w, text: t.slice(j + 1), raw: t.slice(j + 1) } : words[++k];
          if (c === "t" && value) target = value;
          break;
        }
      }
    }
  }
  if (!links) return undefined;
  // `ln TARGET` links in the directory it runs in, by the target's name
  const into = target ?? (operands.length > 1 || name !== "ln" ? operands.pop() : { text: ".", raw: ".", unknown: false, glob: false });
  if (!into || !operands.length) return undefined;
  const fold = (p: string) => (control.fold || f === WINDOWS ? p.toLowerCase() : p);
  const place = (w: Word): string[] | undefined => {
    const text = decided(w) ? expand(w, control.home) : undefined;
    if (text === undefined) return undefined;
    const abs = f.absolute(text);
    return abs !== undefined ? [f.normalize(abs)] : dirs?.map((d) => f.normalize(f.join(d, text)));
  };
  const dests = place(into);
  if (!dests) return undefined; // a link whose own place only the run knows: paths through it are as any run-time word
  const others = made.filter((m) => m.seg !== seg);
  const out: Made[] = [];
  for (const source of operands) {
    const text = decided(source) ? expand(source, control.home) : undefined;
    const own =
      text
        ?.split(/[\\/]+/)
        .filter(Boolean)
        .pop() ?? "";
    const at = dests.flatMap((d) => {
      if (target) return [f.join(d, own)];
      if (!own) return [d];
      // a link the line makes there (`ln -s ~/.config a && ln -s x/git a`) may be to a directory: the link may land below it
      const through = follow(others, d, f, control.fold);
      if (typeof through === "object" || fold(through) !== fold(d)) return [d, f.join(d, own)];
      // a directory there now takes the link below it by the source's name (`ln -s ~/dotfiles/git ~/.config`); a look that does not answer: both
      const there = control.names?.(d);
      if (!Array.isArray(there)) return there === undefined ? [d] : [d, f.join(d, own)];
      // -n, -T: a link to a directory there is itself replaced; a real directory still takes it below (or ln fails)
      const real = control.realDir?.(d);
      return replace && !(typeof real === "string" && fold(f.normalize(real)) === fold(d)) ? [d, f.join(d, own)] : [f.join(d, own)];
    });
    // a symbolic link's relative target is read from the link's own folder (but for `ln -r`), a hard link's from where it runs
    const to = (a: string) => {
      if (text === undefined) return undefined;
      const abs = f.absolute(text);
      if (abs !== undefined) return f.normalize(abs);
      const from = symbolic && !relative ? a.replace(/[\\/][^\\/]*$/, "") || a : dirs?.[0];
      return from === undefined ? undefined : f.normalize(f.join(from, text));
    };
    for (const a of at.map(f.normalize)) out.push({ at: [a], to: to(a), below: name === "cp" && recursive, seg, word: source });
  }
  return out;
}

/** The links every segment of the line makes (where each lands read a second time, with the others in place). */
function lineLinks(segments: Segment[], control: ControlFiles, f: Flavour): Made[] {
  const linking = segments.filter((s) => s.words[0] && decided(s.words[0]) && ["ln", "link", "cp"].includes(program(s.words[0].text)));
  if (!linking.length) return [];
  const dirs = directories(segments, control, f);
  const first = linking.flatMap((s) => linksOf(s, control, f, dirs, []) ?? []);
  return first.length ? linking.flatMap((s) => linksOf(s, control, f, dirs, first) ?? []) : [];
}

const MAX_HOPS = 8; // links followed one through another before the path counts as unknown

/** The path `given` with the links `made` followed (but `skip`, the link being judged), or why it cannot be told. */
function follow(made: Made[], given: string, f: Flavour, folds: boolean | undefined, skip?: Made): string | { unknown: string } {
  const fold = (p: string) => (folds || f === WINDOWS ? p.toLowerCase() : p);
  const sep = f === WINDOWS ? "\\" : "/";
  const on = (p: string, a: string) => fold(p) === fold(a) || fold(p).startsWith(fold(a.endsWith(sep) ? a : a + sep));
  let p = f.normalize(given);
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const m = made.find((l) => l !== skip && l.at.some((a) => (!l.below || fold(p) !== fold(a)) && on(p, a)));
    if (!m) return p;
    const a = m.at.find((a) => on(p, a))!;
    // the link itself stands for its run-time target as the word `"$X"` does (`ln -sf "$X" out` runs); a path below it cannot be told
    if (m.to === undefined && fold(p) === fold(a)) return p;
    if (m.to === undefined) return { unknown: `\`${m.seg.raw}\` makes a link on its way whose target \`${m.word.raw}\` is known only at run time` };
    p = f.normalize(m.to + p.slice(a.length));
  }
  return { unknown: `\`${given}\` leads through more than ${MAX_HOPS} links the command makes` };
}

/**
 * `control` as the guard sees the disk, with the links the line makes in place: each look at a path through one of
 * them (`cfglink/git/config` after `ln -s ~/.config cfglink`) is made at where it leads, so a write there is judged as
 * the link's target is; one through a link whose target only the run knows cannot be told.
 */
export function withLineLinks(segments: Segment[], control: ControlFiles): ControlFiles {
  const f = onWindows(control) ? WINDOWS : POSIX;
  const made = lineLinks(segments, control, f);
  if (!made.length) return control;
  const fold = (p: string) => (control.fold || f === WINDOWS ? p.toLowerCase() : p);
  const at = <T>(abs: string, look: (p: string) => T, unknown: (why: string) => T): T => {
    const p = follow(made, abs, f, control.fold);
    return typeof p === "object" ? unknown(p.unknown) : look(p);
  };
  const { realDir, named, gitOwn, fileState, names, tree } = control;
  const lost = (unknown: string) => ({ unknown });
  // copied with its getters as getters (`guarded` reads the disk when it is asked for, not here)
  const copy: ControlFiles = Object.defineProperties({ paths: control.paths }, Object.getOwnPropertyDescriptors(control));
  const links: Partial<ControlFiles> = {
    realDir: (p) => at(p, (q) => realDir?.(q) ?? q, lost),
    // (through a link to a run-time target: told by realDir, which every writer's judge asks too; `ln -sf "$X" out` is not asked whether `out/config.toml` is hey's)
    named: (p) =>
      at(
        p,
        (q) => named?.(q) ?? control.paths.some((c) => fold(f.normalize(c)) === fold(q)),
        () => false,
      ),
    gitOwn: gitOwn && ((p, from) => at(p, (q) => gitOwn(q, from), lost)),
    fileState: fileState && ((p) => at(p, fileState, () => undefined)),
    names: names && ((p) => at(p, names, lost)),
    tree: tree && ((p) => at(p, tree, lost)),
  };
  return Object.assign(copy, links);
}

/**
 * The first link the line makes at a place the guard keeps (control.guarded, a control file) or at a directory above one
 * (`ln -s /x ~/.config/git`, `ln -sfn /x ~/.local/bin`): the link replaces it, and what it points to is read in its stead.
 * The command, the link's path and the file it replaces, and why that file is guarded (none: hey's own).
 */
export function linkOverGuarded(segments: Segment[], control: ControlFiles): { command: string; at: string; file: string; why?: string } | undefined {
  const f = onWindows(control) ? WINDOWS : POSIX;
  const fold = (p: string) => (control.fold || f === WINDOWS ? p.toLowerCase() : p);
  const sep = f === WINDOWS ? "\\" : "/";
  const onOrBelow = (p: string, a: string) => fold(p) === fold(a) || fold(p).startsWith(fold(a.endsWith(sep) ? a : a + sep));
  const made = lineLinks(segments, control, f).filter((m) => !m.below);
  if (!made.length) return undefined;
  const places = [
    ...control.paths.map((p) => ({ file: f.normalize(p), why: undefined })),
    ...(control.guarded ?? []).flatMap((g) => [g.dir, ...(g.real !== undefined ? [g.real] : [])].map((p) => ({ file: f.normalize(p), why: g.why }))),
  ];
  for (const m of made)
    for (const a of m.at) {
      // as written, and with its folder through the line's other links (`ln -s ~/.config a && ln -s /x a/git`; a link made at `a` itself replaces that link)
      const cut = Math.max(a.lastIndexOf("/"), a.lastIndexOf("\\"));
      const folder = follow(made, a.slice(0, cut) || a.slice(0, 1), f, control.fold, m);
      const through = typeof folder === "string" ? [f.join(folder, a.slice(cut + 1))] : [];
      for (const at of new Set([a, ...through])) {
        const hit = places.find((p) => onOrBelow(p.file, at));
        if (hit) return { command: m.seg.raw, at, ...hit };
      }
    }
  return undefined;
}
