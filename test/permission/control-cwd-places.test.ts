// x140: the directory a tree-changing command runs in (control-cwd.ts), reviewed. The "project"
// exception reached every directory above the start one below the home, so started in
// ~/.config/nvim, `cd .. && tar -xf x.tar` replaced hey's config; a `cd` hey could not place (`cd -`,
// `cd a b`, `~user`) made it forget the `cd ~/.config` before; git's option values were read as
// options (`git stash -u -m list`, `git clean -fen`); `tar Jxf`, `tar --extr` and `7zr x` were not
// seen as extracting. Each bypass is refused; the everyday commands still run.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { controlFiles } from "../../src/config/control-files.ts";
import { places } from "../../src/fs/places.ts";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { controlFixture } from "./control-corpus.ts";

const tmp = tempDir("hey-control-places-");
afterAll(() => tmp.remove());
const { home, project, controls } = controlFixture(realpathSync(tmp.path));
const lists = { allow: ["bash: git *", "bash: tar *", "bash: unzip *", "bash: 7zr *", "bash: 7z *", "bash: cd *", "bash: ls *"], deny: [], narrow: [] };

/** The check as hey started in `cwd` (below the fixture's home), its project root `root`. */
function startedIn(cwd: string, root = cwd) {
  mkdirSync(cwd, { recursive: true });
  return permissionCheck(lists, "sh", { cwd, home, controls: controlFiles(places({}, home, cwd, "linux", root), undefined) });
}
const inProject = permissionCheck(lists, "sh", { cwd: project, home, controls });
const nvim = startedIn(join(home, ".config", "nvim"));
const chezmoi = startedIn(join(home, ".local", "share", "chezmoi"));
const shop = join(home, "src", "shop");
mkdirSync(join(shop, ".hey"), { recursive: true });
const web = startedIn(join(shop, "web"), shop);

const refused = (out: string | undefined) => expect(out ?? "").toMatch(/^blocked by permission rules: .*(hey's own configuration|cannot verify)/);

describe("above the start directory, only the project root counts as the project", () => {
  test.each([
    "cd ~/.config && unzip -o /tmp/evil.zip",
    "cd ~/.config && git reset --hard FETCH_HEAD",
    "cd .. && git init -q && git reset --hard FETCH_HEAD",
    "cd .. && tar -xf /tmp/evil.tar",
    "tar -xf /tmp/evil.tar -C ..",
    "git -C .. checkout -f main",
  ])("started in ~/.config/nvim: %s is refused", (command) => refused(nvim("bash", { command })));
  test.each([
    "cd ~/.local && git init -q && git fetch -q /tmp/evil && git reset -q --hard FETCH_HEAD",
    "cd ~/.local && tar -xf /tmp/evil.tar",
    "cd ../.. && tar -xf /tmp/evil.tar",
  ])("started in ~/.local/share/chezmoi: %s is refused", (command) => refused(chezmoi("bash", { command })));
  test.each(["git checkout -f main", "git reset --hard origin/main", "git clean -fdx", "tar -xf /tmp/plugins.tar", "git pull --rebase"])(
    "started in ~/.config/nvim: %s runs",
    (command) => expect(nvim("bash", { command })).toBeUndefined(),
  );
  test.each(["cd .. && git reset --hard origin/main", "cd .. && git checkout -f main && tar -xf /tmp/src.tar", "git -C .. pull"])(
    "started in a project's subdirectory, its root is the project: %s runs",
    (command) => expect(web("bash", { command })).toBeUndefined(),
  );
  test("above the project root is no project", () => refused(web("bash", { command: "cd ../.. && git checkout -f main" })));
});

describe("a cd hey cannot place leaves the directory unknown, and earlier cds still count", () => {
  test.each([
    "cd ~/.config/hey; cd /tmp; cd -; git init",
    "cd ~/.local/state && cd .. && cd - && git stash -u",
    "cd ~/.config && cd a b; git clean -fdx",
    'cd ~/.config; cd "$NOPE"; git clean -fdx',
    "cd ~alice/.config && git clean -fdx",
    "cd ~/.config; cd x/..; cd y/..; cd z/..; cd w/..; cd v/..; cd u/..; git clean -fdx",
    "CD=cd; $CD ~/.config; git clean -fdx",
    'cd "$(git rev-parse --show-toplevel)" && git checkout main',
    "cd /tmp; cd -; tar -xf /tmp/evil.tar",
  ])("%s is refused", (command) => refused(inProject("bash", { command })));
  test.each(["cd /tmp; cd -; git status", "cd -; git -C /tmp/scratch clean -fdx", "cd a b; git log"])("%s runs", (command) =>
    expect(inProject("bash", { command })).toBeUndefined(),
  );
  // (the fixture's project holds dirlink, a link to ~/.config/hey, which its `*/` would match: x151 #5)
  test('in a project without links, for d in */; do (cd "$d" && git pull); done runs', () =>
    expect(web("bash", { command: 'cd .. && for d in */; do (cd "$d" && git pull); done' })).toBeUndefined());
});

describe("git's options are read with their values", () => {
  test.each([
    "cd ~/.local/state && git stash -u -m list",
    "cd ~/.local/state && git stash --include-untracked --message show",
    "cd ~/.config && git clean -fen",
    "cd ~/.config && git clean -fdxe -n",
    "cd ~/.config && git clean -f --exclude -n",
    "cd ~/.config && git clean -f -- -n",
    "cd ~/.config/hey && git apply --stat --apply /tmp/x.diff",
    "cd ~/.config/hey && git restore --staged --worktree .",
  ])("%s is refused", (command) => refused(inProject("bash", { command })));
  test.each([
    "cd ~/.config && git clean -fdn",
    "cd ~/.config && git clean -f --dry",
    "cd ~/.config && git clean -e '*.log' -n",
    "cd ~/.local/state && git stash list",
    "cd ~/.config/hey && git apply --stat --check /tmp/x.diff",
  ])("%s runs", (command) => expect(inProject("bash", { command })).toBeUndefined());
});

describe("archive extraction in every spelling", () => {
  test.each([
    "cd ~/.config && tar Jxf /tmp/e.tar.xz",
    "cd ~/.config && tar xJf /tmp/e.tar.xz",
    "cd ~/.config && tar Zxf /tmp/e.tar.Z",
    "cd ~/.config && tar --extr -f /tmp/e.tar",
    "cd ~/.config && tar --get -f /tmp/e.tar",
    "tar --extr -f /tmp/e.tar -C ~/.config",
    "cd ~/.config && 7zr x /tmp/e.7z",
    "cd ~/.config && 7z X /tmp/e.7z",
    "cd ~/.config && 7z -y e /tmp/e.7z",
    "7zr x /tmp/e.7z -o$HOME/.config",
  ])("%s is refused", (command) => refused(inProject("bash", { command })));
  test.each(["cd ~/.config && tar tJf /tmp/e.tar.xz", "cd ~/.config && tar --list -f /tmp/e.tar", "cd ~/.config && 7z l /tmp/e.7z", "7zr x /tmp/e.7z -obuild"])(
    "%s runs",
    (command) => expect(inProject("bash", { command })).toBeUndefined(),
  );
});

describe("links, git -C in a loop, and git clean at the project root", () => {
  test.each(["cd -P dirlink/.. && git init -q && git clean -ffdx", "set -P; cd dirlink/.. && git clean -ffdx", "pushd -P dirlink/.. && tar -xf /tmp/e.tar"])(
    "%s is judged where the link really leads, and refused",
    (command) => refused(inProject("bash", { command })),
  );
  test("cd dirlink/.. (lexical) stays in the project", () => expect(inProject("bash", { command: "cd dirlink/.. && git clean -fdx" })).toBeUndefined());
  // under an allow list no `*` matches a run-time word; under a deny list the directory alone decides
  const denying = permissionCheck({ allow: [], deny: ["bash: curl *"], narrow: [] }, "sh", { cwd: project, home, controls });
  const denyingInShop = permissionCheck({ allow: [], deny: ["bash: curl *"], narrow: [] }, "sh", {
    cwd: shop,
    home,
    controls: controlFiles(places({}, home, shop, "linux", shop), undefined),
  });
  test('for d in */; do git -C "$d" pull; done runs under a deny list, as cd "$d" && git … does', () =>
    expect(denyingInShop("bash", { command: 'for d in */; do git -C "$d" pull; done' })).toBeUndefined());
  test('where */ matches a link to ~/.config/hey, for d in */; do git -C "$d" pull; done is refused', () =>
    refused(denying("bash", { command: 'for d in */; do git -C "$d" pull; done' })));
  // a directory all of whose name only the run knows could be any (x144 #1)
  test.each([
    'cd ~/.config && git -C "$d" clean -fdx',
    'git -C "$X/.config" clean -fdx',
    'git -C "$(git rev-parse --show-toplevel)" checkout main',
    'git -C "$d" clean -fdx',
  ])("%s is refused under a deny list", (command) => refused(denying("bash", { command })));
  test("at a root holding .hey/config.toml, git clean limited to other paths runs", () => {
    writeFileSync(join(project, ".hey", "config.toml"), '[permission]\ndeny = ["bash: curl *"]\n');
    try {
      for (const command of [
        "git clean -fd src/",
        "git clean -fdx -- build/ dist",
        "git clean -fd sub",
        "git stash -u -- src/",
        "git stash push -u -m wip -- sub",
      ])
        expect(inProject("bash", { command })).toBeUndefined();
      for (const command of [
        "git clean -fd .",
        "git clean -fd .hey",
        "git clean -fd '*.toml'",
        "git clean -fd ./",
        "git clean -fd sub/..",
        "git stash -u -- .",
        "git stash save -u src/",
        "git stash -u",
      ])
        refused(inProject("bash", { command }));
    } finally {
      rmSync(join(project, ".hey", "config.toml"));
    }
  });
});

describe("git clean -X at a project root holding a control file is refused as -x is: git reads its ignore rules when it runs (x144 #3)", () => {
  const repo = join(home, "src", "ignoring");
  mkdirSync(join(repo, ".git", "info"), { recursive: true });
  mkdirSync(join(repo, ".hey"), { recursive: true });
  writeFileSync(join(repo, ".git", "HEAD"), "ref: refs/heads/main\n");
  writeFileSync(join(repo, ".gitignore"), "build/\nnode_modules\n");
  writeFileSync(join(repo, ".hey", "config.toml"), '[permission]\ndeny = ["bash: curl *"]\n');
  const gitEnv = { HOME: home, XDG_CONFIG_HOME: join(home, ".config"), GIT_CONFIG_NOSYSTEM: "1" };
  const controls = controlFiles(places({}, home, repo, "linux"), undefined);
  const check = permissionCheck({ ...lists, allow: [...lists.allow, "bash: echo *", "bash: tee *", "bash: printf *"] }, "sh", {
    cwd: repo,
    home,
    controls,
    gitEnv,
  });
  const denying = permissionCheck({ allow: [], deny: ["bash: curl *"], narrow: [] }, "sh", { cwd: repo, home, controls, gitEnv });
  test.each([
    "git clean -fdX",
    "echo .hey/ | tee -a .gitignore; git clean -fdX",
    "printf '.hey/\\n' >> .gitignore; git clean -fdX",
    "git pull && git clean -fdX",
    "git -c core.excludesFile=ig.txt clean -fdX",
  ])("%s is refused", (command) => {
    refused(check("bash", { command }));
    refused(denying("bash", { command }));
  });
  test("limited to a pathspec that cannot reach the file, git clean -fdX runs", () =>
    expect(check("bash", { command: "git clean -fdX build/" })).toBeUndefined());
});
