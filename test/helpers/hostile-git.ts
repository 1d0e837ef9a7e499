// Repositories whose own files name programs git runs while it only reads (x67): a `.git/config`
// with `core.fsmonitor`, a textconv driver, a diff driver's command, `diff.external` and a clean
// filter; and a clone holding a committed `tools/` (HEAD, objects/, refs/, a `config` with
// `core.fsmonitor`) that git takes for a bare repository. Each program touches a marker file in
// `marks`, so a test sees what ran.
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

function git(cwd: string, ...args: string[]): void {
  const run = Bun.spawnSync(["git", "-c", "user.email=a@b", "-c", "user.name=a", ...args], { cwd, stdout: "ignore", stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr.toString()}`);
}

/** The markers made so far (what the repositories' programs ran), by name. */
export const marksIn = (marks: string) => readdirSync(marks).sort();

/** In `dir`: `repo/` (a.txt and b.dat changed, both through the config's programs) and `marks/`. */
export function hostileRepo(dir: string): { repo: string; marks: string } {
  const [repo, marks] = [join(dir, "repo"), join(dir, "marks")];
  mkdirSync(repo, { recursive: true });
  mkdirSync(marks, { recursive: true });
  git(repo, "init", "-q", ".");
  writeFileSync(join(repo, "a.txt"), "hello\n");
  writeFileSync(join(repo, "b.dat"), "bin\n");
  writeFileSync(join(repo, ".gitattributes"), "*.dat diff=evil\n*.txt filter=evilf\n");
  git(repo, "add", "-A");
  git(repo, "commit", "-qm", "init");
  writeFileSync(join(repo, "a.txt"), "changed\n");
  writeFileSync(join(repo, "b.dat"), "changed too\n");
  const touch = (name: string) => `touch '${join(marks, name)}'`;
  const config = `[core]
\tfsmonitor = "${touch("fsmonitor")}; echo"
[diff]
\texternal = "${touch("external")}"
[diff "evil"]
\ttextconv = "sh -c '${touch("textconv").replace(/'/g, "")}; cat \\"$0\\"'"
[filter "evilf"]
\tclean = "sh -c '${touch("clean").replace(/'/g, "")}; cat'"
\tsmudge = cat
`;
  writeFileSync(join(repo, ".git", "config"), config, { flag: "a" });
  return { repo, marks };
}

/** In `dir`: `clone/`, a plain `git clone` of a repository that committed `tools/` as a bare repository, and `marks/`. */
export function embeddedBareClone(dir: string): { clone: string; marks: string } {
  const [origin, clone, marks] = [join(dir, "origin"), join(dir, "clone"), join(dir, "marks")];
  const tools = join(origin, "tools");
  mkdirSync(join(tools, "objects", "info"), { recursive: true });
  mkdirSync(join(tools, "refs", "heads"), { recursive: true });
  mkdirSync(marks, { recursive: true });
  git(origin, "init", "-q", ".");
  writeFileSync(join(tools, "HEAD"), "ref: refs/heads/main\n");
  writeFileSync(join(tools, "objects", "info", ".keep"), "");
  writeFileSync(join(tools, "refs", "heads", ".keep"), "");
  writeFileSync(
    join(tools, "config"),
    `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n\tfsmonitor = "touch '${join(marks, "bare-fsmonitor")}'; echo"\n`,
  );
  writeFileSync(join(tools, "build.py"), "print(1)\n");
  git(origin, "add", "-A");
  git(origin, "commit", "-qm", "init");
  git(dir, "clone", "-q", origin, clone);
  return { clone, marks };
}

/**
 * In `dir`: `super/`, a repository with the submodule `sub`, which has its own submodule `deep`, and
 * `embedded`, a repository added with `git add` (a gitlink no `.gitmodules` lists, its `.git` a
 * directory); `marks/`. Each of the three has `a.txt` changed, through a textconv driver and a clean
 * filter its own config names (`.git/modules/sub/config`, `.git/modules/sub/modules/deep/config`,
 * `embedded/.git/config`), which touch markers named after the repository.
 */
export function hostileSubmodules(dir: string): { repo: string; marks: string } {
  const [repo, marks] = [join(dir, "super"), join(dir, "marks")];
  mkdirSync(marks, { recursive: true });
  const source = (name: string, more: (at: string) => void = () => {}) => {
    const at = join(dir, `${name}-source`);
    mkdirSync(at, { recursive: true });
    git(at, "init", "-q", ".");
    writeFileSync(join(at, "a.txt"), "one\n");
    writeFileSync(join(at, ".gitattributes"), "*.txt diff=evil filter=evil\n");
    more(at);
    git(at, "add", "-A");
    git(at, "commit", "-qm", name);
    return at;
  };
  const deep = source("deep");
  const sub = source("sub", (at) => git(at, "-c", "protocol.file.allow=always", "submodule", "add", "-q", deep, "deep"));
  const embedded = source("embedded");
  mkdirSync(repo);
  git(repo, "init", "-q", ".");
  git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "sub");
  git(repo, "-c", "protocol.file.allow=always", "submodule", "update", "-q", "--init", "--recursive");
  git(repo, "clone", "-q", embedded, "embedded");
  git(repo, "add", "embedded"); // git warns of an embedded repository and records a gitlink
  git(repo, "commit", "-qm", "init");
  for (const [name, at] of [
    ["sub", join(repo, "sub")],
    ["deep", join(repo, "sub", "deep")],
    ["embedded", join(repo, "embedded")],
  ] as const) {
    const touch = (what: string) => `touch '${join(marks, `${name}-${what}`)}'`;
    git(at, "config", "diff.evil.textconv", `sh -c '${touch("textconv").replace(/'/g, "")}; cat "$0"'`);
    git(at, "config", "filter.evil.clean", `sh -c '${touch("clean").replace(/'/g, "")}; cat'`);
    writeFileSync(join(at, "a.txt"), "two\n");
  }
  return { repo, marks };
}

/** A filter's programs as a config section: each touches its marker in `marks` (named `${who}-clean`…), then passes the file through; `process` fails, as a program git's protocol does not fit. */
export function markingFilter(name: string, marks: string, who: string, keys: ("clean" | "smudge" | "process")[] = ["clean", "smudge", "process"]): string {
  const run = (key: string, then: string) => `\t${key} = "sh -c 'touch ${join(marks, `${who}-${key}`)}; ${then}'"\n`;
  const lines = keys.map((key) => run(key, key === "process" ? "exit 1" : "cat"));
  return `[filter "${name}"]\n${lines.join("")}\trequired = true\n`;
}

/**
 * In `dir`: `repo/` set up as `git lfs install --local` leaves one (filter.lfs clean, smudge and
 * process in `.git/config`, `required`; here each touches a marker `repo-…` in `marks/`), its
 * `.gitattributes` sending `*.bin` through it; `notes.md`, `src/app.ts` and `assets/logo.bin`
 * changed since the commit. No git-lfs needed: a filter entry naming a program is enough.
 */
export function lfsRepo(dir: string): { repo: string; marks: string } {
  const [repo, marks] = [join(dir, "repo"), join(dir, "marks")];
  mkdirSync(join(repo, "src"), { recursive: true });
  mkdirSync(join(repo, "assets"), { recursive: true });
  mkdirSync(marks, { recursive: true });
  git(repo, "init", "-q", ".");
  writeFileSync(join(repo, ".gitattributes"), "*.bin filter=lfs diff=lfs merge=lfs -text\n");
  writeFileSync(join(repo, "notes.md"), "# Notes\nold line\n");
  writeFileSync(join(repo, "src", "app.ts"), "export const size = 1;\n");
  writeFileSync(join(repo, "assets", "logo.bin"), "logo v1\n");
  git(repo, "add", "-A");
  git(repo, "commit", "-qm", "init");
  writeFileSync(join(repo, ".git", "config"), markingFilter("lfs", marks, "repo"), { flag: "a" });
  writeFileSync(join(repo, "notes.md"), "# Notes\nnew line\n");
  writeFileSync(join(repo, "src", "app.ts"), "export const size = 2;\n");
  writeFileSync(join(repo, "assets", "logo.bin"), "logo v2\n");
  return { repo, marks };
}
