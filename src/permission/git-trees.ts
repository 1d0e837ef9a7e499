// The trees git lays down whole in a directory it is given (x5 #4): `git clone SRC DEST` (or the
// directory named after SRC), `git worktree add DEST`, `git submodule add SRC [DEST]`, the git
// directory of `--separate-git-dir DIR` and of `git init --bare DIR`. Each fills DEST with files
// of the agent's choosing (a commit it made: `config` at the top of the tree), or with git's own
// (`config`, `hooks/`), as `cp -rT SRC DEST` would: tree-copies.ts judges where they land, from
// the directory git's `-C`s lead to (git-targets.ts gitOperandDirs). Pure.
import { type ControlFiles, decided, type Flavour, inGit } from "./control-files.ts";
import { readGit } from "./git.ts";
import type { Word } from "./shell-model.ts";

/** A tree git lays down: what it comes from (its name is a directory's when DEST is not given) and the directory it fills. */
export type GitTree = { from: Word; into: Word };

/** Per subcommand (`worktree add`, `submodule add`: the action too), the long options taking the next word as their value, the short ones, and the flags (git takes any prefix only one begins). */
const OPTIONS: Record<string, { values: string[]; short: string; flags: string[] }> = {
  clone: {
    values:
      "template,origin,branch,revision,upload-pack,reference,reference-if-able,separate-git-dir,ref-format,config,depth,shallow-since,shallow-exclude,server-option,jobs,filter,bundle-uri".split(
        ",",
      ),
    short: "obucj",
    flags: (
      "local,no-local,no-hardlinks,shared,dissociate,quiet,verbose,progress,no-progress,no-checkout,checkout,bare,mirror,sparse,reject-shallow,no-reject-shallow," +
      "single-branch,no-single-branch,tags,no-tags,recurse-submodules,recursive,shallow-submodules,no-shallow-submodules,remote-submodules,no-remote-submodules," +
      "also-filter-submodules,ipv4,ipv6"
    ).split(","),
  },
  init: { values: ["template", "separate-git-dir", "object-format", "ref-format", "initial-branch"], short: "b", flags: ["quiet", "bare", "shared"] },
  "worktree add": {
    values: ["reason"],
    short: "bB",
    flags: "force,detach,checkout,no-checkout,lock,orphan,quiet,track,no-track,guess-remote,no-guess-remote,relative-paths,no-relative-paths".split(","),
  },
  "submodule add": { values: ["branch", "name", "reference", "ref-format", "depth"], short: "b", flags: ["force", "quiet", "progress", "dissociate"] },
};

/**
 * The trees a git command (`words`, git first) lays down, or undefined for none; `unsure`: an
 * option hey does not know, which may take the next word, so that every operand and the name each
 * would give is a place a tree may land.
 */
export function gitTrees(words: Word[]): GitTree[] | undefined {
  const read = readArguments(words);
  if (!read) return undefined;
  const { name, operands, given, unsure } = read;
  const trees: GitTree[] = [];
  // `--separate-git-dir DIR`: git's own files (config, hooks/) in DIR
  const separate = given.get("separate-git-dir");
  if (typeof separate === "object") trees.push({ from: separate, into: separate });
  const bare = given.has("bare") || given.has("mirror");
  if (name === "init") {
    if (bare && operands[0]) trees.push({ from: operands[0], into: operands[0] });
    return trees.length ? trees : undefined;
  }
  if (name === "worktree add") return operands[0] ? [...trees, { from: operands[0], into: operands[0] }] : undefined;
  // clone and submodule add: SRC, then DEST or a directory named after SRC (git's guess: `https://x/bin.git` clones into `bin`)
  const [from, dest] = operands;
  if (!from) return trees.length ? trees : undefined;
  const places = unsure || operands.length > 2 ? operands : dest ? [dest] : [];
  for (const into of places) trees.push({ from, into });
  if (unsure || !dest) for (const w of unsure ? operands : [from]) trees.push({ from: w, into: guessed(w, bare) });
  return trees;
}

/**
 * The indexes among a git command's `words` (git first) of the words naming a directory it makes or
 * fills: those gitTrees finds (`--separate-git-dir=DIR` as one word), and `git init DIR`'s. They are
 * relative to where git's `-C`s lead (git-targets.ts gitOperandDirs), as after a `cd` there.
 */
export function gitDestinations(words: Word[]): Set<number> {
  const init = readArguments(words);
  const named = [...(init?.name === "init" && init.operands[0] ? [init.operands[0]] : []), ...(gitTrees(words) ?? []).map((t) => t.into)];
  const at = (w: Word) => (words.includes(w) ? words.indexOf(w) : words.findIndex((x) => x.text.startsWith("--") && x.text.endsWith(`=${w.text}`)));
  return new Set(named.map(at).filter((k) => k > 0));
}

/** The word naming the directory `git worktree add` makes, or undefined. */
export function addedWorktree(words: Word[]): Word | undefined {
  const read = readArguments(words);
  return read?.name === "worktree add" ? read.operands[0] : undefined;
}

/** What git reads in a git directory (gitrepository-layout(5)) by name: a worktree added there by one of them would put the agent's files where git reads its own. */
const GIT_DIR_ENTRIES = new Set(
  "config,config.worktree,hooks,info,objects,refs,reftable,logs,worktrees,modules,remotes,branches,packed-refs,head,index,commondir,gitdir,shallow,description,lfs,rr-cache,sequencer,rebase-merge,rebase-apply".split(
    ",",
  ),
);

/**
 * Whether the absolute `abs`, where `git worktree add` makes a worktree, is a new folder right inside a git
 * directory (not below one of its folders) by a name git does not read there: `git -C repo.git worktree
 * add main`, worktrees inside a bare clone. Its files are the checkout's, and its `.git` file then ends
 * the git directory as git sees it (fs/git-places.ts gitDirHolding). `control.gitOwn` tells the git
 * directory: the folder holding `abs` is in one, the folder above that is not.
 */
export function worktreeInGitDir(abs: string, control: ControlFiles, f: Flavour): boolean {
  const up = (p: string) => f.normalize(p).replace(/[\\/][^\\/]*$/, "") || f.normalize(p);
  const name = f.normalize(abs).split(/[\\/]/).pop() ?? "";
  if (inGit(abs) || GIT_DIR_ENTRIES.has(name.toLowerCase()) || control.fileState?.(abs) !== "none") return false;
  const holder = control.gitOwn?.(up(abs));
  return typeof holder === "string" && control.gitOwn?.(up(up(abs))) === undefined;
}

/** A subcommand gitTrees knows, as `OPTIONS` names it, with its operands, the options given (a value's word, or true) and whether an option was one hey does not know. */
function readArguments(words: Word[]): { name: string; operands: Word[]; given: Map<string, Word | true>; unsure: boolean } | undefined {
  const sub = readGit(words)?.sub;
  if (sub === undefined || !decided(words[sub]!)) return undefined;
  let name = words[sub]!.text;
  let at = sub + 1;
  if (name === "init-db") name = "init";
  if (name === "worktree" || name === "submodule") {
    // `git submodule --quiet add`: the action is the first word that is no option
    while (at < words.length && decided(words[at]!) && words[at]!.text.startsWith("-")) at++;
    if (words[at]?.text !== "add") return undefined;
    name = `${name} add`;
    at++;
  }
  const spec = OPTIONS[name];
  if (!spec) return undefined;
  const operands: Word[] = [];
  const given = new Map<string, Word | true>();
  let unsure = false;
  for (let k = at; k < words.length; k++) {
    const w = words[k]!;
    const t = w.text;
    if (!decided(w) || t === "-" || !t.startsWith("-")) operands.push(w);
    else if (t === "--") {
      operands.push(...words.slice(k + 1));
      break;
    } else if (t.startsWith("--")) {
      const eq = t.indexOf("=");
      const written = t.slice(2, eq < 0 ? undefined : eq);
      const all = [...spec.values, ...spec.flags];
      const found = all.filter((l) => l.startsWith(written));
      const long = all.includes(written) ? written : found.length === 1 ? found[0]! : undefined;
      if (long === undefined) unsure = true;
      else if (spec.values.includes(long)) {
        const value = eq >= 0 ? { ...w, text: t.slice(eq + 1), raw: w.raw.slice(w.raw.indexOf("=") + 1) } : words[++k];
        if (value) given.set(long, value);
      } else given.set(long, true);
    } else
      for (let j = 1; j < t.length; j++) {
        // a short option taking a value takes the rest of the word (`-bmain`), else the next one (`-qb main`)
        if (!spec.short.includes(t[j]!)) continue;
        if (j + 1 === t.length) k++;
        break;
      }
  }
  return { name, operands, given, unsure };
}

/** The directory git names after a source when no destination is given: its last name without `.git` (`.git` added back for a bare clone). */
function guessed(w: Word, bare: boolean): Word {
  const last =
    w.text
      .replace(/[\\/]+$/, "")
      .replace(/[\\/]\.git$/, "")
      .split(/[\\/:]/)
      .pop() ?? "";
  const name = last.replace(/\.(git|bundle)$/, "") + (bare ? ".git" : "");
  return { ...w, text: name, raw: name };
}
