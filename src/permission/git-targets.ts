// Where git writes the paths its index holds (x2 #1, #5): in the work tree its options name
// (`--work-tree`, `-C`; control-cwd.ts refuses one in a git directory), and
// for `git checkout-index --prefix=P` each path of the index with P put before it
// as plain text, not as a directory (`--prefix=.g` and the index path `it/hooks/pre-commit` write
// `.git/hooks/pre-commit`), from the top of the work tree, not the folder git runs in. The index is
// whatever an earlier command put there (`git update-index --index-info` from a heredoc, `read-tree`
// of a `mktree`), so only a prefix ending in `/` bounds the files written: the directory it names
// (control-cwd.ts judges it as a directory the command writes in). Pure.
import { decided, expand, type Flavour, leadFrom, operandValues } from "./control-files.ts";
import { readGit } from "./git.ts";
import type { Word } from "./shell-model.ts";

/** checkout-index's long options (git 2.17 to 2.50); git takes any prefix only one of them begins (`--p` is `--prefix`). */
const LONGS = ["all", "force", "quiet", "no-create", "index", "stdin", "temp", "prefix", "stage", "ignore-skip-worktree-bits"];
/** Of those, the ones taking a value (`--stage=all`, `--stage all`). */
const VALUES = new Set(["prefix", "stage"]);

/**
 * The `--prefix` a `git checkout-index` in `words` (git first) writes below: undefined for another
 * command or none given (an empty one is none); the directory it names (ending in `/`, a `~` word put as the home);
 * `unknown`: why the files it writes cannot be told (a prefix not ending in `/`, one known only at
 * run time, or a word only the run knows where an option could stand).
 */
export function checkoutPrefix(words: Word[], home: string | undefined): { dir: string } | { unknown: string } | undefined {
  const sub = readGit(words)?.sub;
  if (sub === undefined || !decided(words[sub]!) || words[sub]!.text !== "checkout-index") return undefined;
  let prefix: Word | undefined;
  let separate: Word | undefined;
  for (let k = sub + 1; k < words.length; k++) {
    const w = words[k]!;
    if (!decided(w)) return { unknown: `\`${w.raw}\` is known only at run time where git checkout-index reads its \`--prefix\`` };
    const t = w.text;
    if (t === "--") break;
    if (!t.startsWith("--")) continue; // paths, and clusters of flags (`-fa`, `-z`): none takes a value
    const eq = t.indexOf("=");
    const written = t.slice(2, eq < 0 ? undefined : eq);
    const found = LONGS.filter((l) => l.startsWith(written));
    const long = LONGS.includes(written) ? written : found.length === 1 ? found[0] : undefined;
    if (!long || !VALUES.has(long)) continue;
    const value = eq < 0 ? words[++k] : { ...w, text: t.slice(eq + 1), raw: w.raw.slice(w.raw.indexOf("=") + 1) };
    if (long !== "prefix" || !value) continue;
    if (!decided(value)) return { unknown: `\`${w.raw}\` gives git checkout-index a prefix known only at run time` };
    prefix = value;
    separate = eq < 0 ? value : undefined;
  }
  if (!prefix || prefix.text === "") return undefined;
  if (!prefix.text.endsWith("/"))
    return {
      unknown:
        `\`--prefix=${prefix.raw}\` does not end in \`/\`: git checkout-index writes it and each path of the index as one text ` +
        "(`.g` and `it/hooks/pre-commit` make `.git/hooks/pre-commit`), and the index is whatever earlier commands put there; " +
        "end the prefix with `/` to name the directory it writes in",
    };
  // the shell puts the home for a `~` that begins a word of its own (`--prefix ~/x/`), not one after `--prefix=`
  const text = prefix === separate ? expand(prefix, home) : prefix.text;
  return text === undefined ? { unknown: `\`${prefix.raw}\` names a home the checker does not know` } : { dir: text };
}

/** The directories git's options before its subcommand move it to (`-C DIR`, repeated ones joined; `--work-tree DIR`), as written; `unknown`: one is known only at run time. A `-c core.worktree=…` moves it nowhere: git reads that key from the repository's own config only. */
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

/**
 * The directories git's operands after its subcommand are relative to, from each of `dirs` (where a
 * script may stand: control-files.ts directories): those its `-C`s lead to, one after another, each
 * a loop variable's words where it is one. `git -C ~/.local clone . bin` writes ~/.local/bin as `cd
 * ~/.local && git clone . bin` does (x5 #5): every relative path git is given after its subcommand
 * (clone's and worktree add's destination, init's directory, `--separate-git-dir`, a pathspec) is
 * taken from there. Undefined where `dirs` is, or a `-C` names a directory only the run knows (or
 * another user's home).
 */
export function gitOperandDirs(words: Word[], dirs: string[] | undefined, home: string | undefined, f: Flavour): string[] | undefined {
  let out = dirs;
  for (const w of gitDirectories(words).chdir) {
    if (out === undefined) return undefined;
    const next: string[] = [];
    for (const v of operandValues(w)) {
      const to = decided(v) ? expand(v, home) : undefined;
      if (to === undefined) return undefined;
      next.push(...leadFrom(to, out, f));
    }
    out = [...new Set(next.map(f.normalize))];
  }
  return out;
}
