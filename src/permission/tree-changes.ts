// Programs that change the directory tree they run in, not (only) the files they name (x135): `git
// clean` deletes what git does not track below the directory it stands in, `git stash -u` moves it
// into a stash, `git reset --hard` and `git checkout` rewrite it, `git init` makes it a repository
// those can then act on, `tar -x` and `unzip` write an archive's files there. Run in a directory
// holding hey's control files, or above one, each takes them away or replaces them as `rm` or `cp`
// naming them would (control-cwd.ts judges where). Pure.
import { decided } from "./control-files.ts";
import { GIT_COMMANDS, readGit } from "./git.ts";
import { program } from "./match.ts";
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
    "am,apply,bisect,checkout,checkout-index,cherry-pick,filter-branch,init,init-db,merge,mv,pull,read-tree,rebase,restore,revert,rm,sparse-checkout," +
    "submodule,switch,worktree"
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
/** Options after which `git apply` and `git restore` write nothing in the work tree (`--stat`, `--staged` alone). */
const INDEX_ONLY: Record<string, RegExp> = { apply: /^--(check|stat|numstat|summary|cached)$/, restore: /^(--staged|-S)$/ };

/** Whether a word is the option `long`, or a cluster of short options holding `short` (`-fdx` holds `x`). */
const option = (w: string, short: string, long: string) => w === long || (new RegExp(`^-[a-zA-Z]*${short}`).test(w) && !w.startsWith("--"));

/** How the segment's program changes the directory it runs in (TreeChange); a word known only at run time where git's subcommand could be: "deletes". */
export function treeChange(seg: Segment): TreeChange | undefined {
  const first = seg.words[0];
  if (!first || !decided(first)) return undefined;
  const name = program(first.text);
  const texts = seg.words.slice(1).map((w) => (decided(w) ? w.text : "*"));
  if (name === "git") return gitChange(seg.words);
  if (name === "tar" || name === "bsdtar")
    return texts.some((t) => t === "--extract" || t === "--get" || /^-[a-zA-Z]*x/.test(t)) || /^[a-wyz]*x/.test(texts[0] ?? "") ? "writes" : undefined;
  // unzip's listing, testing and piping modes write nothing
  if (name === "unzip") return texts.some((t) => /^-[lvtzZpc]/.test(t)) ? undefined : "writes";
  if (name === "cpio") return texts.some((t) => t === "--extract" || /^-[a-zA-Z]*i/.test(t)) ? "writes" : undefined;
  if (name === "7z" || name === "7za") return ["x", "e"].includes(texts[0] ?? "") ? "writes" : undefined;
  if (name === "patch") return texts.some((t) => t === "--dry-run") ? undefined : "writes";
  return undefined;
}

function gitChange(words: Word[]): TreeChange | undefined {
  const read = readGit(words);
  if (!read) return "deletes";
  if (read.sub === undefined) return undefined;
  const sub = words[read.sub]!;
  if (!decided(sub)) return "deletes";
  const rest = words.slice(read.sub + 1).map((w) => (decided(w) ? w.text : "*"));
  switch (sub.text) {
    case "clean":
      return rest.some((t) => option(t, "n", "--dry-run")) ? undefined : "deletes";
    case "stash":
      if (ACTIONS_READING.stash!.includes(rest.find((t) => !t.startsWith("-")) ?? "push")) return undefined;
      return rest.some((t) => option(t, "u", "--include-untracked") || option(t, "a", "--all") || t === "*") ? "deletes" : "writes";
    case "reset":
      return rest.some((t) => ["--hard", "--merge", "--keep", "*"].includes(t)) ? "writes" : undefined;
  }
  if (GIT_WRITERS.has(sub.text)) {
    const action = rest.find((t) => !t.startsWith("-"));
    if (action !== undefined && ACTIONS_READING[sub.text]?.includes(action)) return undefined;
    const only = INDEX_ONLY[sub.text];
    return only && rest.some((t) => only.test(t)) && !rest.some((t) => /^(--worktree|-W|--index|\*)$/.test(t)) ? undefined : "writes";
  }
  // an alias set on the command line (`-c alias.c='clean -fdx' c`) is any subcommand; one from a config file is judged by its name, a git-NAME program as any program
  if (!GIT_COMMANDS.has(sub.text)) return read.unsure ? "deletes" : "writes";
  return undefined;
}

/** The directories git's options before its subcommand move it to (`-C DIR`, repeated ones joined; `--work-tree DIR`), as written; `unknown`: one is known only at run time. */
export function gitDirectories(words: Word[]): { chdir: Word[]; workTree?: Word } {
  const chdir: Word[] = [];
  let workTree: Word | undefined;
  const sub = readGit(words)?.sub ?? words.length;
  for (let k = 1; k < sub; k++) {
    const t = words[k]!.text;
    if (t === "-C" && words[k + 1]) chdir.push(words[++k]!);
    else if (t === "--work-tree" && words[k + 1]) workTree = words[++k];
    else if (t.startsWith("--work-tree=")) workTree = { ...words[k]!, text: t.slice(12), raw: words[k]!.raw.replace(/^--work-tree=/, "") };
    else if (["-c", "--git-dir", "--namespace", "--super-prefix", "--config-env", "--shallow-file", "--attr-source"].includes(t)) k++;
  }
  return workTree ? { chdir, workTree } : { chdir };
}
