// Programs that change the directory tree they run in, not (only) the files they name (x135): `git
// clean` deletes what git does not track below the directory it stands in, `git stash -u` moves it
// into a stash, `git reset --hard` and `git checkout` rewrite it, `git init` makes it a repository
// those can then act on, `tar -x` and `unzip` write an archive's files there. Run in a directory
// holding hey's control files, or above one, each takes them away or replaces them as `rm` or `cp`
// naming them would (control-cwd.ts judges where). Pure.
import { decided } from "./control-files.ts";
import { GIT_COMMANDS, readGit } from "./git.ts";
import { optionTable } from "./deny-options.ts";
import { program } from "./match.ts";
import { couldBegin } from "./programs.ts";
import type { Segment, Word } from "./shell-model.ts";

/**
 * How a program changes the tree it runs in: "deletes" files no repository keeps (`git clean`,
 * `git stash -u`: nothing brings them back), "writes" any other way (rewrites, moves, extracts,
 * makes a repository); undefined: it changes none.
 */
export type TreeChange = "deletes" | "writes";

/** git subcommands that rewrite, move or delete files of the work tree (not only the index or `.git`). */
const GIT_WRITERS = new Set(
  (
    "am,apply,bisect,checkout,checkout-index,cherry-pick,filter-branch,init,init-db,merge,merge-index,mergetool,mv,pull,read-tree,rebase,restore,revert,rm," +
    "sparse-checkout,submodule,switch,worktree"
  ).split(","),
);
/** The actions of those (and of `git stash`) that touch no file of the work tree: `git worktree list`, `git stash show`. */
const ACTIONS_READING: Record<string, string[]> = {
  stash: ["list", "show", "create", "store", "drop", "clear"],
  worktree: ["list", "lock", "unlock", "repair"],
  submodule: ["status", "summary"],
  bisect: ["log", "visualize", "view", "terms"],
  "sparse-checkout": ["list"],
};
/** Options (long names) after which `git apply` and `git restore` write nothing in the work tree (`--stat`, `--staged` alone), and those that write it again (`--apply`, `--worktree`). */
const INDEX_ONLY: Record<string, { only: string[]; again: string[] }> = {
  apply: { only: ["check", "stat", "numstat", "summary", "cached"], again: ["apply", "index"] },
  restore: { only: ["staged"], again: ["worktree"] },
};

/** git's long options that have no short letter (so the generated tables do not list them), by subcommand: those that take a value and those that do not. */
const GIT_LONG_ONLY: Record<string, { values?: string[]; flags?: string[] }> = {
  apply: {
    values: ["exclude", "include", "directory", "whitespace", "build-fake-ancestor"],
    flags: [
      "stat",
      "numstat",
      "summary",
      "check",
      "index",
      "cached",
      "apply",
      "recount",
      "allow-empty",
      "unidiff-zero",
      "no-add",
      "inaccurate-eof",
      "unsafe-paths",
      "ignore-space-change",
      "ignore-whitespace",
      "allow-overlap",
    ],
  },
  restore: {
    values: ["conflict"],
    flags: ["ignore-unmerged", "overlay", "no-overlay", "recurse-submodules", "no-recurse-submodules", "progress", "no-progress", "ignore-skip-worktree-bits"],
  },
  checkout: {
    values: ["conflict", "orphan"],
    flags: [
      "ignore-skip-worktree-bits",
      "ignore-other-worktrees",
      "overwrite-ignore",
      "no-overwrite-ignore",
      "recurse-submodules",
      "no-recurse-submodules",
      "overlay",
      "no-overlay",
      "progress",
      "no-progress",
      "guess",
      "no-guess",
      "no-track",
    ],
  },
  reset: { flags: ["soft", "mixed", "hard", "merge", "keep", "recurse-submodules", "no-recurse-submodules", "no-refresh", "refresh"] },
  stash: { flags: ["no-keep-index", "include-untracked", "all", "keep-index", "staged", "patch", "quiet", "index"] },
  "checkout-index": { values: ["prefix", "stage"], flags: ["stdin", "temp", "ignore-skip-worktree-bits"] },
};

// GNU tar's `--extract` and `--get` by any abbreviation it takes (`--extr`); cpio's `--extract` likewise
const TAR_EXTRACT = /^--(ext(r(a(c(t)?)?)?)?|get?)$/;
const CPIO_EXTRACT = /^--ext(r(a(c(t)?)?)?)?$/;

/** How the segment's program changes the directory it runs in (TreeChange); a word known only at run time where git's subcommand could be: "deletes". */
export function treeChange(seg: Segment): TreeChange | undefined {
  const first = seg.words[0];
  if (!first || !decided(first)) return undefined;
  const name = program(first.text);
  const texts = seg.words.slice(1).map((w) => (decided(w) ? w.text : "*"));
  if (name === "git") return gitChange(seg.words);
  // the old style's first word is a cluster of letters in any case (`xf`, `Jxf`, `xJf`)
  if (name === "tar" || name === "bsdtar")
    return texts.some((t) => TAR_EXTRACT.test(t) || /^-[a-zA-Z]*x/.test(t)) || /^[a-zA-Z]*x/.test(texts[0] ?? "") ? "writes" : undefined;
  if (name === "unzip") return unzipReads(seg.words.slice(1)) ? undefined : "writes";
  if (name === "cpio") return texts.some((t) => CPIO_EXTRACT.test(t) || /^-[a-zA-Z]*i/.test(t)) ? "writes" : undefined;
  // every 7-Zip program; its commands in any case (`7z X`), the first word that is no switch
  if (/^7z[arz]?$/.test(name)) return ["x", "e", "*"].includes(texts.find((t) => !t.startsWith("-"))?.toLowerCase() ?? "") ? "writes" : undefined;
  if (name === "patch") return patchDryRun(texts) ? undefined : "writes";
  return otherExtractor(name, texts);
}

/**
 * Other programs that write an archive's files in the directory they run in (or one they name, x144
 * #5): `jar x` (`xf`, `-xf`, `--extract`), binutils' `ar x` (the operation letter among the key's
 * modifiers, `xv`, `-x`), `python3 -m zipfile -e` / `-m tarfile -e` (`--extract`), `unrar x`/`e`
 * and `unar`. A word known only at run time where the mode could be: "writes".
 */
function otherExtractor(name: string, texts: string[]): TreeChange | undefined {
  const first = texts[0] ?? "";
  if (name === "jar") return /^-?[a-zA-Z0-9]*x/.test(first) || texts.some((t) => t === "--extract" || t === "*") ? "writes" : undefined;
  if (name === "ar") return /^-?[a-zA-Z]*x/.test(first) || first === "*" ? "writes" : undefined;
  if (name === "unrar") return ["x", "e", "*"].includes(texts.find((t) => !t.startsWith("-"))?.toLowerCase() ?? "") ? "writes" : undefined;
  if (name === "unar") return "writes";
  if (!/^python(\d+(\.\d+)?)?$/.test(name)) return undefined;
  const module = texts.findIndex((t) => t === "-m" || /^-m(zipfile|tarfile|\*)$/.test(t));
  if (module < 0) return undefined;
  const which = texts[module] === "-m" ? texts[module + 1] : texts[module]!.slice(2);
  if (which !== "zipfile" && which !== "tarfile" && which !== "*") return undefined;
  return texts.slice(module + 1).some((t) => t === "-e" || t === "--extract" || t === "*") ? "writes" : undefined;
}

/**
 * Whether unzip only lists, tests or pipes (`-l`, `-v`, `-t`, `-z`, `-Z`, `-p`, `-c`): read from the
 * options before the archive alone, the values of `-d` and `-P` skipped; after the archive come the
 * names to extract, `-x` exclusions and `-d` (`unzip -o e.zip -d ~/.config -x -l` extracts, x144 #4).
 * A `-` inside a cluster is UnZip's "not" for the letters after it, even in the next cluster (`--l`,
 * `-o-l`, `-o- -l` extract, x151 #1): no such cluster is read as listing.
 */
function unzipReads(words: Word[]): boolean {
  let reads = false;
  for (let k = 0; k < words.length; k++) {
    const w = words[k]!;
    // the archive; a word only the run knows is one only when it cannot begin with `-` (`"$f"` of `for f in *.zip`)
    if (!decided(w)) return reads && !couldBegin(w, ["-"]);
    const t = w.text;
    if (!t.startsWith("-")) return reads;
    if (t === "-") return false;
    for (let j = 1; j < t.length; j++) {
      if (t[j] === "-") return false;
      if ("lvtzZpc".includes(t[j]!)) reads = true;
      if ("dP".includes(t[j]!)) {
        if (j + 1 === t.length) k++;
        break;
      }
    }
  }
  return reads;
}

// GNU patch's options that take a value (`-B --dry-run` is the backup prefix `--dry-run`), short and long
const PATCH_SHORT_VALUES = "BDVYzordipFg";
const PATCH_LONG_VALUES = [
  "prefix",
  "basename-prefix",
  "suffix",
  "version-control",
  "output",
  "reject-file",
  "input",
  "directory",
  "strip",
  "fuzz",
  "define",
  "get",
  "quoting-style",
  "reject-format",
  "read-only",
];

/** Whether patch is given `--dry-run` (by any prefix getopt takes, `--dr`) as an option, not as another option's value; an unknown long option may take the next word. */
export function patchDryRun(texts: string[]): boolean {
  for (let k = 0; k < texts.length; k++) {
    const t = texts[k]!;
    if (t === "--") return false;
    if (/^--dr(y(-(r(u(n)?)?)?)?)?$/.test(t)) return true;
    if (t.startsWith("--")) {
      if (t.includes("=")) continue;
      const name = t.slice(2);
      const known = name.length > 0 && PATCH_LONG_VALUES.some((v) => v.startsWith(name));
      if (known) k++;
      else if (
        !/^(forward|reverse|batch|force|silent|quiet|backup|binary|posix|verbose|ed|normal|context|unified|merge|remove-empty-files|ignore-whitespace|follow-symlinks|set-utc|set-time|no-backup-if-mismatch|backup-if-mismatch|help|version)$/.test(
          name,
        )
      )
        return false;
    } else if (t.startsWith("-") && t.length > 1) {
      const at = [...t.slice(1)].findIndex((c) => PATCH_SHORT_VALUES.includes(c));
      if (at === t.length - 2) k++;
    }
  }
  return false;
}

/** The arguments of git's subcommand from `at`, read by its option table (program-tables.ts): the options given (long names, or letters without one; their values skipped), the operands, and whether a word only the run knows stands among them. */
export function gitArguments(words: Word[], at: number, path: string[]): { given: Set<string>; operands: Word[]; unsure: boolean } {
  const table = optionTable("git", path);
  const own = GIT_LONG_ONLY[path[0]!] ?? {};
  const longs = [
    ...[...(table?.short.values() ?? [])].filter((s) => s.long),
    ...(own.values ?? []).map((long) => ({ long, value: true })),
    ...(own.flags ?? []).map((long) => ({ long, value: false })),
    { long: "pathspec-from-file", value: true },
    { long: "pathspec-file-nul", value: false },
  ];
  // git takes a long option by any prefix only it begins (`--dry` is `--dry-run`)
  const longNamed = (written: string) => {
    const found = longs.filter((s) => s.long.startsWith(written));
    return longs.find((s) => s.long === written) ?? (found.length === 1 ? found[0] : undefined);
  };
  const given = new Set<string>();
  const operands: Word[] = [];
  let unsure = false;
  for (let k = at; k < words.length; k++) {
    const w = words[k]!;
    const t = w.text;
    if (!decided(w)) {
      unsure = true;
      operands.push(w);
    } else if (t === "--") {
      operands.push(...words.slice(k + 1));
      unsure ||= words.slice(k + 1).some((x) => !decided(x));
      break;
    } else if (t.startsWith("--")) {
      const eq = t.indexOf("=");
      const written = t.slice(2, eq < 0 ? undefined : eq);
      const long = longNamed(written);
      // `--no-X` undoes an earlier `-X` or `--X`, by any prefix too (`-n --no-dry` deletes): the last word wins (x151 #2)
      const negated = long || !written.startsWith("no-") ? undefined : longNamed(written.slice(3));
      if (negated) given.delete(negated.long);
      else given.add(long?.long ?? written);
      if (eq < 0 && long?.value) k++;
      // an option the checker does not know may take the next word as its value (`--exclude --cached`), or undo one it does
      else if (!long && !negated) unsure = true;
    } else if (t.length > 1 && t.startsWith("-")) {
      for (let j = 1; j < t.length; j++) {
        const short = table?.short.get(t[j]!);
        given.add(short?.long || t[j]!);
        // a value attached (`-ek`) or the next word (`-e -n`: `-n` is the pattern)
        if (short?.value) {
          if (j + 1 === t.length) k++;
          break;
        }
      }
    } else operands.push(w);
  }
  return { given, operands, unsure };
}

function gitChange(words: Word[]): TreeChange | undefined {
  const read = readGit(words);
  if (!read) return "deletes";
  if (read.sub === undefined) return undefined;
  const sub = words[read.sub]!;
  if (!decided(sub)) return "deletes";
  const has = (given: Set<string>, ...names: string[]) => names.some((n) => given.has(n));
  switch (sub.text) {
    case "clean": {
      // a word only the run knows could be `--no-dry-run` (`git clean -fdxn "$1"`)
      const args = gitArguments(words, read.sub + 1, ["clean"]);
      return args.given.has("dry-run") && !args.unsure ? undefined : "deletes";
    }
    case "stash": {
      // the action is the word right after `stash` (`git stash -u -m list` pushes, with the message `list`)
      const next = words[read.sub + 1];
      if (next && !decided(next)) return "deletes";
      const action = next && !next.text.startsWith("-") ? next.text : "push";
      if (ACTIONS_READING.stash!.includes(action)) return undefined;
      const args = gitArguments(words, read.sub + (action === next?.text ? 2 : 1), ["stash", action]);
      return args.unsure || has(args.given, "include-untracked", "all") ? "deletes" : "writes";
    }
    case "reset": {
      const args = gitArguments(words, read.sub + 1, ["reset"]);
      return args.unsure || has(args.given, "hard", "merge", "keep") ? "writes" : undefined;
    }
  }
  if (GIT_WRITERS.has(sub.text)) {
    const args = gitArguments(words, read.sub + 1, [sub.text]);
    const action = args.operands[0];
    if (action && decided(action) && ACTIONS_READING[sub.text]?.includes(action.text)) return undefined;
    const index = INDEX_ONLY[sub.text];
    return index && has(args.given, ...index.only) && !has(args.given, ...index.again) && !args.unsure ? undefined : "writes";
  }
  // an alias set on the command line (`-c alias.c='clean -fdx' c`) is any subcommand; one from a config file is judged by its name, a git-NAME program as any program
  if (!GIT_COMMANDS.has(sub.text)) return read.unsure ? "deletes" : "writes";
  return undefined;
}

/**
 * What git's words stage (`git add`, `git stage`): their pathspecs, or "all" (none given, or one only the run knows);
 * undefined for no staging. A file no commit holds is then in the index, which `git stash` and `git reset --hard` act on.
 */
export function stages(words: Word[]): Word[] | "all" | undefined {
  const first = words[0];
  if (!first || !decided(first) || program(first.text) !== "git") return undefined;
  const sub = readGit(words)?.sub;
  if (sub === undefined || !decided(words[sub]!)) return "all";
  if (!["add", "stage"].includes(words[sub]!.text)) return undefined;
  const { given, operands, unsure } = gitArguments(words, sub + 1, ["add"]);
  return unsure || given.has("pathspec-from-file") || !operands.length || operands.some((w) => !decided(w) || reachesOut(w.text)) ? "all" : operands;
}

/**
 * What git's words may take out of the work tree of the files staged but in no commit (x157 #3):
 * "all" for `git stash` (push or save, without pathspecs limiting it), `reset --hard`/`--merge`/
 * `--keep`, `switch -f`, `checkout -f BRANCH` and `read-tree -u`; the pathspecs of a `checkout`
 * with `-f`/`--discard-changes`/`--no-overlay` that checks out paths (`-f -- a.c`, `-f HEAD
 * a.c`, a first operand `isPath` says is a file there), or of a `restore` of the index too or
 * from a commit (x165 #4); undefined where none. A plain `checkout BRANCH` carries a staged file over.
 */
export function dropsStaged(words: Word[], isPath: (text: string) => boolean): Word[] | "all" | undefined {
  const read = readGit(words);
  if (read?.sub === undefined) return undefined;
  const sub = words[read.sub]!.text;
  if (sub === "reset") return "all"; // treeChange says "writes" only for --hard, --merge, --keep (or an option it cannot read)
  const next = words[read.sub + 1];
  if (sub === "stash") return !next || next.text === "push" || next.text === "save" || next.text.startsWith("-") ? "all" : undefined;
  if (!["checkout", "switch", "restore", "read-tree"].includes(sub)) return undefined;
  const { given, operands, unsure } = gitArguments(words, read.sub + 1, [sub]);
  const has = (...names: string[]) => names.some((n) => given.has(n));
  if (sub === "read-tree") return has("u") ? "all" : undefined;
  if (sub === "restore") return unsure || has("staged", "S", "source", "s") ? pathspecs(operands, has) : undefined;
  if (!unsure && !has("force", "f", "discard-changes", "no-overlay")) return undefined;
  if (sub === "switch" || unsure || !operands.length) return "all";
  // `checkout [REV] -- PATHS`, `checkout REV PATHS`, `checkout PATHS`: with no paths, REV is a branch it switches to
  const first = operands[0]!;
  const paths = afterDashes(words, first) || (decided(first) && isPath(first.text)) ? operands : operands.slice(1);
  return paths.length ? pathspecs(paths, has) : "all";
}

/** `operands` as the pathspecs they are, or "all" where they come from a file or are known only at run time. */
const pathspecs = (operands: Word[], has: (...names: string[]) => boolean): Word[] | "all" =>
  has("pathspec-from-file") || !operands.length || operands.some((w) => !decided(w)) ? "all" : operands;

/** Subcommands that write only the paths their pathspecs name, below the directory git runs in when none reaches out (`..`, absolute, `:/`). */
const PATHSPEC_WRITERS = new Set(["clean", "restore", "rm", "mv", "checkout-index", "apply", "init", "init-db", "worktree"]);

/**
 * Whether git's subcommand in `words` acts on its repository's whole work tree from any folder in it
 * (x144 #2): `git stash`, `checkout BRANCH`, `reset --hard`, `pull`, `merge`… from `web/` rewrite or
 * take files at the root too, as does a pathspec that reaches out of the folder (`git clean -fdx
 * ..`, `:/`, `:/.hey`, an absolute one). `isPath` says whether a `git checkout` operand names a
 * file or folder there (then it checks out those paths, not a branch). `init`, `apply` (git leaves
 * out the paths outside the folder) and the plain pathspecs of `clean`, `restore`, `rm` stay where
 * git runs. A subcommand known only at run time, or an alias: the whole tree.
 */
export function wholeTree(words: Word[], isPath: (text: string) => boolean): boolean {
  const read = readGit(words);
  if (read?.sub === undefined) return true;
  const sub = words[read.sub]!;
  if (!decided(sub) || !GIT_COMMANDS.has(sub.text)) return true;
  const name = sub.text;
  const next = words[read.sub + 1];
  const stashPush = name === "stash" && (next?.text === "push" || !next || (decided(next) && next.text.startsWith("-")));
  if (!PATHSPEC_WRITERS.has(name) && name !== "checkout" && !stashPush) return true;
  const pushed = next?.text === "push";
  const { given, operands, unsure } = gitArguments(words, read.sub + (pushed ? 2 : 1), stashPush ? ["stash", "push"] : [name]);
  // `checkout-index --stdin` reads its paths from its input (`../x` among them), unseen
  if (unsure || given.has("stdin") || operands.some((w) => !decided(w) || reachesOut(w.text))) return true;
  // `git stash` and `git checkout` without pathspecs act on the whole tree, and so does `checkout BRANCH`: a first operand that
  // is no path there, with no `--` before pathspecs (`git checkout main -- a.txt` writes only a.txt)
  if (!operands.length) return stashPush || name === "checkout";
  return name === "checkout" && !afterDashes(words, operands.at(-1)!) && !isPath(operands[0]!.text);
}

/** Whether a pathspec can take files outside the directory git runs in: pathspec magic (`:/`, `:(top)`), an absolute path, a `..` in it. */
const reachesOut = (text: string) => /^(:|\/|\\|[A-Za-z]:)/.test(text) || text.split(/[\\/]/).includes("..");

/** Whether `w` stands after a `--` among `words`: a pathspec, whatever it names. */
const afterDashes = (words: Word[], w: Word) => {
  const dashes = words.findIndex((x) => decided(x) && x.text === "--");
  return dashes >= 0 && words.indexOf(w) > dashes;
};
