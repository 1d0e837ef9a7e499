// r5's git findings: #7, a submodule's update `!CMD` given on git's command line ran CMD under an
// allow list with `bash: git *` and no deny entry, as did the other keys git runs a program for
// that were passed unread (`gpg.program`, `trailer.*.cmd`…); #8, under README's own list the deny
// entry `bash: git push *` refused every git command holding the word `git` (`git clone
// git@github.com:…`, `git submodule foreach git pull`, `sed -i … $(git ls-files)`), while `git
// push` inside `submodule foreach` must stay refused.
import { afterAll, describe, expect, test } from "bun:test";
import { realpathSync } from "node:fs";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { controlFixture } from "./control-corpus.ts";

const tmp = tempDir("hey-git-r5-");
afterAll(() => tmp.remove());
const { home, project, controls } = controlFixture(realpathSync(tmp.path));
const place = { cwd: project, home, controls };
const README_ALLOW = ["read_file", "grep", "bash: git *", "bash: ls", "bash: npm run test *"];
const check = (allow: string[], deny: string[]) => permissionCheck({ allow, deny, narrow: [] }, "bash", place);
const LISTS = {
  "README's list": check(README_ALLOW, ["bash: git push *"]),
  "README's allow entries, no deny entry": check(README_ALLOW, []),
  "a deny-only list": check([], ["bash: git push *", "bash: touch *"]),
};
const run = (c: ReturnType<typeof permissionCheck>, command: string) => c("bash", { command }) ?? "allowed";
const UPDATE = "git -c 'submodule.vendor/lib.update=!touch /tmp/x' submodule update";

describe.each(Object.entries(LISTS))("under %s", (_name, list) => {
  test.each([
    [UPDATE, "sets git's submodule.vendor/lib.update, which git runs with the shell: `touch /tmp/x` matches"],
    ["git -c 'submodule.lib.update=!touch /tmp/x' submodule update --init lib", "`touch /tmp/x` matches"],
    ["git config submodule.lib.update '!touch /tmp/x' && git submodule update", "submodule.lib.update"],
    // its value known only when the command runs
    ["git --config-env=submodule.lib.update=UPD submodule update", "sets a command git runs, known only at run time"],
    ["UPD='!./g' git --config-env=submodule.lib.update=UPD submodule update", "known only at run time"],
    ["GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=submodule.lib.update 'GIT_CONFIG_VALUE_0=!touch /tmp/x' git submodule update", "GIT_CONFIG_COUNT"],
    [`GIT_CONFIG_PARAMETERS="'submodule.lib.update'='!touch /tmp/x'" git submodule update`, "GIT_CONFIG_PARAMETERS"],
  ])("refuses %s", (command, why) => {
    const reason = run(list, command);
    expect(reason).toStartWith("blocked by permission rules");
    expect(reason).toContain(why);
  });
  test.each([
    "git submodule update --init --recursive",
    "git -c submodule.lib.update=rebase submodule update --remote",
    "git -c submodule.recurse=true pull",
    "git clone git@github.com:acme/widget.git",
    "git clone --recurse-submodules git@github.com:acme/widget.git",
    "git remote add upstream git@github.com:acme/widget.git",
    "git -c url.https://github.com/.insteadOf=git@github.com: fetch origin",
    "git submodule foreach git pull",
    "git submodule foreach 'git checkout main'",
    "git submodule foreach --recursive 'git fetch --tags && git status --short'",
    "git log --grep=git",
    "git commit -m 'git: fix the git hooks'",
  ])("lets %s run", (command) => {
    expect(run(list, command)).toBe("allowed");
  });
});

describe("a deny entry matches commands, not the words of other commands (r5 #8)", () => {
  const readme = LISTS["README's list"];
  const denyOnly = LISTS["a deny-only list"];
  test.each([
    ["git submodule foreach 'git push'", "gives git submodule a command it runs with the shell: `git push` matches deny entry `bash: git push *`"],
    ["git submodule foreach git push --force", "`'git' 'push' '--force'` matches deny entry `bash: git push *`"],
    ["git -c alias.p='!git push' p", "deny entry `bash: git push *`"],
    ["GIT_EDITOR='git push' git commit", "sets GIT_EDITOR, which git runs with the shell: `git push"],
    ["git rebase -x 'git push origin HEAD' main", "gives git rebase a command it runs with the shell: `git push origin HEAD"],
    ["sed -n '1e git push' README.md", "`git push` matches deny entry"],
    ["sed -i 's/a/b/' x.md && git push", "`git push` matches deny entry"],
    // what sed's script is cannot be read: a word naming git still counts
    [`sed -e "$(printf '1e git push')" README.md`, "names `git`, which `sed` could run"],
    [`python3 -c 'import os; os.system("git push")'`, "names `git`, which `python3` could run"],
  ])("still refuses %s", (command, why) => {
    for (const list of [readme, denyOnly]) expect(run(list, command)).toContain(why);
  });
  test.each([
    "sed -i 's/a/b/g' $(git ls-files '*.md')",
    "sed -n 's/^version = //p' $(git rev-parse --show-toplevel)/Cargo.toml",
    "sed -i 's/git@github.com:/https:\\/\\/github.com\\//' .gitmodules",
  ])("lets %s run under a deny-only list", (command) => {
    expect(run(denyOnly, command)).toBe("allowed");
  });
});

describe("under an allow list every key git runs a program for is judged as that program (r5 #7, r1 #3's class)", () => {
  const list = LISTS["README's allow entries, no deny entry"];
  const allowed = check([...README_ALLOW, "bash: ./g *", "bash: gpg2 *"], []);
  // each key with the subcommand that runs it; `./g` is a script the agent may have written
  test.each([
    ["core.sshCommand", "fetch", "which git runs with the shell"],
    ["core.askPass", "fetch", "which git runs with the shell"],
    ["credential.helper", "fetch", "which git runs with the shell"],
    ["gpg.program", "commit -S -m x", "which git runs:"],
    ["gpg.ssh.program", "commit -S -m x", "which git runs:"],
    ["gpg.ssh.defaultKeyCommand", "commit -S -m x", "which git runs:"],
    ["diff.x.textconv", "diff", "which git runs with the shell"],
    ["filter.x.clean", "add .", "which git runs with the shell"],
    ["filter.x.smudge", "checkout .", "which git runs with the shell"],
    ["filter.x.process", "add .", "which git runs with the shell"],
    ["merge.x.driver", "merge main", "which git runs with the shell"],
    ["sequence.editor", "rebase -i HEAD~2", "which git runs with the shell"],
    ["core.editor", "commit", "which git runs with the shell"],
    ["core.pager", "log", "which git runs with the shell"],
    ["core.fsmonitor", "status", "which git runs with the shell"],
    ["uploadpack.packObjectsHook", "fetch", "which git runs with the shell"],
    ["remote.origin.receivepack", "push", "which git runs with the shell"],
    ["remote.origin.uploadpack", "fetch", "which git runs with the shell"],
    ["trailer.t.cmd", "interpret-trailers --trailer t=1 m.txt", "which git runs:"],
    ["core.alternateRefsCommand", "fetch", "which git runs:"],
    ["interactive.diffFilter", "add -p", "which git runs:"],
    ["difftool.x.path", "difftool -t x", "which git runs:"],
  ])("-c %s=./g (git %s) needs an entry for ./g", (key, sub, how) => {
    const command = `git -c ${key}=${key === "credential.helper" ? "!" : ""}./g ${sub}`;
    const reason = run(list, command);
    expect(reason).toContain(`sets git's ${key.toLowerCase()}, ${how}`);
    expect(reason).toContain("./g");
    expect(reason).toContain("matches no allow entry");
    expect(run(allowed, command)).toBe("allowed");
  });
  test("an alias and a submodule's update run their value only after `!`", () => {
    expect(run(list, "git -c 'alias.x=!./g' x")).toContain("`./g` matches no allow entry");
    expect(run(list, "git -c 'submodule.lib.update=!./g' submodule update")).toContain("`./g` matches no allow entry");
    expect(run(list, "git -c submodule.lib.update=merge submodule update")).toBe("allowed");
    expect(run(allowed, "git -c 'submodule.lib.update=!./g' submodule update")).toBe("allowed");
  });
  test("a signing program the entries allow runs; `-c user.name` and the like never needed one", () => {
    expect(run(allowed, "git -c gpg.program=gpg2 commit -S -m x")).toBe("allowed");
    expect(run(list, "git -c user.name=x -c color.ui=always commit -m y")).toBe("allowed");
  });
});
