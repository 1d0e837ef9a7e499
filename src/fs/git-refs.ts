// Whether a word names one of a repository's refs (x157 #4): `git checkout other` switches to the
// branch `other` — rewriting the whole work tree — even where a file `other` is in the folder it runs
// in, since a branch or tag of that name wins; only where none is does git check out the file. Read
// from the git directory's `refs/` and `packed-refs` within the disk-read deadline.
import { dirname, join } from "node:path";
import { boundedList, Hung } from "./bounded-reads.ts";
import { bounded, gitDirs, statOrNone } from "./git-config-files.ts";

type Env = Record<string, string | undefined>;

/** Whether `name` could be a revision git's checkout takes in the repository of the absolute `dir`: a branch, a tag, a remote's branch (git guesses one), or a name git reads as a revision (`HEAD~2`, a hash); throws Hung. */
export function namesRevision(dir: string, name: string, env: Env): boolean {
  if (/[~^@:{}\\]|^[0-9a-f]{4,64}$|HEAD$/.test(name) || name === "-") return true;
  // no ref is named so (git-check-ref-format(1)): `.`, `src/`, `../x`, `a/.b`
  if (/(^|\/)\.|\.\.|\/$|\.lock$|[\s*?[]/.test(name)) return false;
  const common = gitDirs(dir, env).at(-1);
  if (common === undefined) return false;
  const own = gitDirs(dir, env)[0]!;
  const refs = ["refs/heads", "refs/tags"].map((r) => `${r}/${name}`);
  const remotes = listed(join(common, "refs", "remotes")).map((r) => `refs/remotes/${r}/${name}`);
  for (const ref of [...refs, ...remotes]) if ([common, own].some((d) => statOrNone(join(d, ref))?.kind === "file")) return true;
  const packed = bounded(join(common, "packed-refs"));
  if (typeof packed !== "string") return packed !== undefined; // one too large to read: it may be there
  return packed.split("\n").some((line) => {
    const ref = line.slice(line.indexOf(" ") + 1).trim();
    return refs.includes(ref) || (ref.startsWith("refs/remotes/") && ref.endsWith(`/${name}`) && dirname(ref) !== "refs/remotes");
  });
}

function listed(dir: string): string[] {
  try {
    return boundedList(dir, true);
  } catch (e) {
    if (e instanceof Hung) throw e;
    return [];
  }
}
