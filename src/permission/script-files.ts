// Which file a command runs as a script, and whether two names in one command line can be the same
// file (SPEC §8, deny lists; written-scripts.ts). A script is the operand of a program that runs one
// (`sh s.sh`, `/bin/sh s.sh`, `bash -O extglob s.sh`, `python3 t.py`), a command word naming a file
// (`./s.sh`), or make's makefile (`-f FILE`, else GNUmakefile, makefile and Makefile). Names are
// resolved against every directory the command's `cd`s may lead to (control-files.ts directories),
// so `d/s.sh` written before `cd d && sh s.sh`, and `/abs/project/s.sh` for `s.sh`, are the same
// file; where file names ignore case (`caseless`) `S.sh` is `s.sh`. Pure.
import { type ControlFiles, directories, onWindows, POSIX, WINDOWS } from "./control-files.ts";
import { program } from "./match.ts";
import { pathForm } from "./path-form.ts";
import { known, type Segment, type Word } from "./shell-model.ts";

/** Where the command runs: what resolves its names, and whether file names ignore case there. */
export interface Where {
  control: ControlFiles | undefined;
  caseless: boolean;
}

/** Programs that run a file named as their first operand as code. */
export const RUNNERS = new Set(
  "sh,bash,dash,zsh,ksh,mksh,fish,python,python2,python3,node,nodejs,bun,deno,perl,ruby,php,lua,tclsh,Rscript,awk,gawk,make,env,nohup,timeout,nice".split(","),
);
/** Shells, whose options are read apart: some take a value, `-c` and `-s` give no script file. */
const SHELLS = new Set(["sh", "bash", "rbash", "dash", "zsh", "ksh", "mksh", "fish"]);
/** Shell options that take the next word as their value (bash(1), dash(1)), alone or ending a cluster (`-euo pipefail`). */
const VALUED = /^([-+][A-Za-z]*[oO]|--rcfile|--init-file)$/;
/** make's default makefiles, in the order GNU make looks for them. */
export const MAKEFILES = ["GNUmakefile", "makefile", "Makefile"];

/** A file a segment runs: as named, who runs it ("" for the file itself), and whether it is make's default (no `-f`). */
export interface RunFile {
  file: Word;
  runner: string;
  defaults?: boolean;
}

const word = (text: string): Word => ({ text, raw: text, unknown: false, glob: false });

/** The files `seg` runs as a script: one, make's default makefiles, or none. */
export function runFiles(seg: Segment): RunFile[] {
  const [first, ...args] = seg.words;
  if (!first || !known(first) || seg.inert) return [];
  const name = program(first.text);
  if (name === "make") {
    const named = makefileOperand(args);
    return named ? [{ file: named, runner: "make" }] : MAKEFILES.map((m) => ({ file: word(m), runner: "make", defaults: true }));
  }
  if (!RUNNERS.has(name)) return first.text.includes("/") ? [{ file: first, runner: "" }] : [];
  const operand = SHELLS.has(name) ? shellOperand(args) : args.find((w) => !known(w) || !w.text.startsWith("-"));
  return known(operand) ? [{ file: operand, runner: name }] : [];
}

/** A shell's script operand: after its options (those of VALUED with their values); none with `-c` or `-s`. */
function shellOperand(args: Word[]): Word | undefined {
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    if (!known(w)) return w;
    if (w.text === "--" || w.text === "-") return args[i + 1];
    if (VALUED.test(w.text)) i++;
    else if (/^-[^-]*[cs]/.test(w.text))
      return undefined; // a command string, or stdin
    else if (!/^[-+]/.test(w.text)) return w;
  }
  return undefined;
}

/** The makefile `make` reads: `-f FILE`, `--file=FILE`, `--makefile FILE`…; undefined: its defaults. */
function makefileOperand(args: Word[]): Word | undefined {
  for (let i = 0; i < args.length; i++) {
    const t = args[i]!.text;
    if (/^(-f|--file|--makefile)$/.test(t)) return args[i + 1];
    const joined = /^(?:-f|--file=|--makefile=)(.+)$/.exec(t)?.[1];
    if (joined) return { ...args[i]!, text: joined, raw: joined };
  }
  return undefined;
}

/**
 * The places a name may stand for, as comparable strings: absolute paths under every directory the
 * command may stand in; where those are unknown, the name's last component (so names compare more
 * often, never less).
 */
export function places(name: string, segments: Segment[], where: Where): string[] {
  const fold = (s: string) => (where.caseless ? s.toLowerCase() : s);
  const control = where.control;
  const f = control && onWindows(control) ? WINDOWS : POSIX;
  const dirs = control ? directories(segments, control, f) : undefined;
  const abs = f.absolute(name);
  if (abs !== undefined) return dirs ? [fold(f.normalize(abs))] : [fold(base(name))];
  if (!dirs) return [fold(base(pathForm(name, { caseless: false, backslash: false })))];
  return dirs.map((d) => fold(f.normalize(f.join(d, name))));
}

const base = (name: string) => name.slice(Math.max(name.lastIndexOf("/"), name.lastIndexOf("\\")) + 1);

/** Could the names `a` and `b` be the same file? */
export function samePlace(a: string, b: string, segments: Segment[], where: Where): boolean {
  const pa = places(a, segments, where);
  const pb = new Set(places(b, segments, where));
  return pa.some((p) => pb.has(p));
}

/** Programs that surely leave the files they name as they are (their redirections are read apart): naming a script, they write nothing to it. */
const LEAVES = new Set(
  "chmod,chown,chgrp,ls,stat,file,test,[,wc,head,tail,cat,less,grep,egrep,fgrep,rg,diff,cmp,md5sum,sha1sum,sha256sum,shasum,realpath,readlink,basename,dirname,which,echo,printf,git".split(
    ",",
  ),
);

/**
 * The other segments of the command that could write a file: not `seg` nor one holding it, not a
 * builtin that runs no program, not one of LEAVES, not another run of `file`.
 */
function writers(file: string, seg: Segment, segments: Segment[], where: Where): Segment[] {
  return segments.filter((s) => {
    if (s === seg || s.raw.includes(seg.raw) || s.inert === "builtin") return false;
    const first = s.words[0];
    if (first && known(first) && LEAVES.has(program(first.text))) return false;
    return !runFiles(s).some((r) => samePlace(r.file.text, file, segments, where));
  });
}

/**
 * Another segment of the command that names `file` in any of its words, redirections or heredocs —
 * `w s.sh` to sed, `print > "a.sh"` to awk, `open("s.sh","w")` to python — and so could write it
 * (writers, those `counts` keeps): its text, or undefined.
 */
export function namedElsewhere(
  file: string,
  seg: Segment,
  segments: Segment[],
  where: Where,
  counts: (s: Segment) => boolean = () => true,
): string | undefined {
  const fold = (s: string) => (where.caseless ? s.toLowerCase() : s);
  const name = fold(base(file));
  if (!name) return undefined;
  for (const s of writers(file, seg, segments, where).filter(counts)) {
    const text = [...s.assigns.map((w) => w.raw), ...s.words.map((w) => w.raw), ...s.redirects.map((r) => `${r.target.raw}\n${r.body ?? ""}`)].join("\n");
    if (fold(text).includes(name)) return s.raw;
  }
  return undefined;
}

/**
 * Whether no file is at any place `file` may stand for, as the caller's file system answers, while
 * another segment could write it (writers, those `counts` keeps): a command alone, or beside
 * builtins, writes nothing first.
 */
export function absent(file: string, seg: Segment, segments: Segment[], where: Where, counts: (s: Segment) => boolean = () => true): boolean {
  const control = where.control;
  if (!control?.fileState || !control.cwd || !writers(file, seg, segments, where).filter(counts).length) return false;
  const f = onWindows(control) ? WINDOWS : POSIX;
  const dirs = directories(segments, control, f);
  const abs = f.absolute(file);
  const paths = abs !== undefined ? [f.normalize(abs)] : dirs?.map((d) => f.normalize(f.join(d, file)));
  if (!paths) return false;
  return paths.every((p) => control.fileState!(p) === "none");
}
