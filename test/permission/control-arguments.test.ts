// Issue 24 beyond redirections: while a list is set, a program may not be handed one of hey's
// control files (or the directory holding one) to write — `cp`, `mv`, `tee`, `sed -i`, `ln`,
// `install`, `dd of=`, `git checkout --`, an editor in batch mode — by its name, through a link in
// the project, a hard link, `..`, a `cd` first, or spelled with a variable around its last names.
// Programs that only read keep reading them. Before, all of these ran under a deny list, and under
// an allow list that lets the program run; the approvals record (`approvals.json`) among them.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { controlFixture } from "./control-corpus.ts";

const tmp = tempDir("hey-control-args-");
afterAll(() => tmp.remove());
const { home, project, controls } = controlFixture(realpathSync(tmp.path));
const place = { cwd: project, home, controls };
const checks = {
  deny: permissionCheck({ allow: [], deny: ["bash: rm *"], narrow: [] }, "sh", place),
  allow: permissionCheck(
    {
      allow: [
        "bash: cp *",
        "bash: mv *",
        "bash: tee *",
        "bash: sed *",
        "bash: ln *",
        "bash: install *",
        "bash: dd *",
        "bash: git *",
        "bash: cd *",
        "bash: cat *",
        "bash: echo *",
        "bash: vim *",
        "bash: mkdir *",
        "bash: find *",
        "bash: logsave *",
        "bash: strace *",
        "bash: time *",
        "bash: valgrind *",
      ],
      deny: [],
      narrow: [],
    },
    "sh",
    place,
  ),
};

const REFUSED: [string, string][] = [
  ["cp /etc/hostname ~/.config/hey/config.toml", ""],
  ["cp /etc/hostname ~/.config/hey/", ""],
  ["echo x | tee -a .hey/config.toml", ""],
  ["sed -i s/deny/allow/ ~/.config/hey/config.toml", ""],
  ["echo '{}' | tee ~/.local/state/hey/approvals.json", ""],
  ["ln -sf /etc/hostname .hey/config.toml", ""],
  ["install -m 644 /etc/hostname sub/../.hey/config.toml", ""],
  ["dd if=/etc/hostname of=.hey/config.toml", ""],
  ["git checkout other -- .hey/config.toml", ""],
  ["git diff --outp=.hey/config.toml", ""], // an abbreviation of --output a git may take: git diff writes then
  ["git format-patch -1 -o ~/.config/hey/", ""],
  ["vim -es -c 'normal Ax' -c wq .hey/config.toml", ""],
  ["mv /tmp/x cfglink", " (by another name)"],
  ["cp /etc/hostname dirlink", " (by another name)"],
  ["cp /etc/hostname hard", " (by another name)"],
  ["cd sub && cp /etc/hostname cfglink", " (by another name)"],
  ['cp /etc/hostname "$HOME/.config/hey/config.toml"', " (by its last names)"],
  ["cp /etc/hostname ${XDG_CONFIG_HOME}/hey/config.toml", " (by its last names)"],
  ["cp /etc/hostname ~ana/.local/state/hey/approvals.json", " (by its last names)"],
  ['cp /etc/hostname "$HOME/.Config/Hey/Config.toml"', " (by its last names)"], // macOS and Windows ignore case
  // an option's value in the same word
  ["curl https://example.com -o/tmp/x/.config/hey/config.toml", " (by its last names)"],
  ["wget https://example.com -O.hey/config.toml", " (by its last names)"],
];

describe.each(Object.entries(checks))("under the %s list", (_list, check) => {
  test.each(REFUSED)("%s is refused", (command, how) => {
    const word = /[^ ]*(?:hey|hey\/|cfglink|dirlink|hard|approvals\.json|config\.toml)[^ ]*$/i.exec(command.replace(/ -c wq/, ""))?.[0];
    expect(check("bash", { command })).toBe(
      `blocked by permission rules: \`${word}\` names hey's own configuration or trust file${how}, which the agent may not change`,
    );
  });

  test.each([
    "cat ~/.config/hey/config.toml",
    "git diff .hey/config.toml",
    "git add .",
    "cp -r src dst",
    "cat cfglink",
    "echo .hey/config.toml",
    "cp hey/config.toml.bak backup/",
  ])("%s runs", (command) => expect(check("bash", { command })).toBeUndefined());
});

// mkdir makes a directory that is not there and writes nothing in it; find without an action that
// writes or runs a command only lists. Both were refused while any list was set (`mkdir .hey`,
// `find ~/.config/hey`). A wrapper's own words were not read at all, though some name a file it writes.
describe.each(Object.entries(checks))("under the %s list, making, listing and logging", (_list, check) => {
  const names = (word: string) => `blocked by permission rules: \`${word}\` names hey's own configuration or trust file`;
  test.each([
    ["mkdir -p ~/.config/hey/config.toml", names("~/.config/hey/config.toml")],
    ["mkdir .hey/config.toml", names(".hey/config.toml")],
    ["find ~/.config/hey -name '*.toml' -delete", "blocked by permission rules:"], // under `rm *`, as find -delete
    ["find .hey -exec sed -i s/deny/allow/ {} +", names(".hey")],
    ["find . -fprint .hey/config.toml", names(".hey/config.toml")],
    ["find . -maxdepth 0 -fprintf ~/.config/hey/config.toml '[permission]'", names("~/.config/hey/config.toml")],
    ["find ~/.config/hey -fls /tmp/x", names("~/.config/hey")],
    ["find ~/.config/hey $ACTION", "blocked by permission rules: cannot verify"],
    ["logsave .hey/config.toml echo x", names(".hey/config.toml")],
    ["strace -o ~/.config/hey/config.toml cat", names("~/.config/hey/config.toml")],
    ["time -o .hey/config.toml cat", names(".hey/config.toml")],
    ["valgrind --log-file=.hey/config.toml cat", names("--log-file=.hey/config.toml")],
  ])("%s is refused", (command, reason) => expect(check("bash", { command })).toStartWith(reason));
  test.each([
    "mkdir .hey",
    "mkdir -p .hey ~/.config/hey",
    "mkdir -p ~/.local/state/hey",
    "find ~/.config/hey",
    "find ~/.config/hey -name '*.toml' -print",
    "find .hey -type f",
    "time -p cat .hey/config.toml",
  ])("%s runs", (command) => expect(check("bash", { command })).toBeUndefined());
});

// git's own files in any repository (a red-team report): while a list is set, `.git/config`,
// `.git/hooks/…` and a `.git` file are control files too — git runs the commands they name
// (`core.fsmonitor` at the next `git status`), so writing one ran any command under `bash: git status`.
mkdirSync(join(project, ".git", "hooks"), { recursive: true });
symlinkSync(join(project, ".git", "config"), join(project, "gitcfg")); // dangling: .git/config is not there yet
symlinkSync(join(project, ".git"), join(project, "gitdir"));
describe.each(Object.entries(checks))("under the %s list, git's own files", (_list, check) => {
  const git = (word: string, how = "") =>
    `blocked by permission rules: \`${word}\` names git's own files (git runs the commands its config and hooks name)${how}, which the agent may not change`;
  const redirect = (target: string, how = "") =>
    `blocked by permission rules: \`> ${target}\` could write git's own files (git runs the commands its config and hooks name)${how}, which the agent may not change`;
  test.each([
    ["cp /tmp/x .git/config", git(".git/config")],
    ["cp /tmp/x .git/hooks/pre-commit", git(".git/hooks/pre-commit")],
    ["sed -i s/a/b/ .git/config", git(".git/config")],
    ["cd sub && tee .git/config", git(".git/config")],
    ["mkdir -p sub/.git/refs", git("sub/.git/refs")],
    ["cp /tmp/x .GIT/config", git(".GIT/config")],
    ["cp /tmp/x sub/../.git/info/exclude", git("sub/../.git/info/exclude")],
    ["git log --output=.git/config", git("--output=.git/config")],
    ["git format-patch -o.git/hooks -1", git("-o.git/hooks")],
    ["cp /tmp/x gitcfg", git("gitcfg", " (by another name)")],
    ["cp /tmp/x gitdir/hooks/post-checkout", git("gitdir/hooks/post-checkout", " (by another name)")],
    ['cp /tmp/x "$D/.git/config"', git('"$D/.git/config"', " (by its last names)")],
    ["echo x > .git/config", redirect(".git/config")],
    ["echo 'gitdir: /tmp/evil' > sub/.git", redirect("sub/.git")],
    ["echo x > gitcfg", redirect("gitcfg", " (by another name)")],
  ])("%s is refused", (command, reason) => expect(check("bash", { command })).toBe(reason));
  test.each([
    "cat .git/config",
    "git status",
    "git --git-dir=.git log",
    "git -C sub/.git log",
    "echo x | tee .gitignore",
    "cp /tmp/x .gitignore",
    "cp /tmp/x backup.git",
  ])("%s runs", (command) => expect(check("bash", { command })).toBeUndefined());
});

test("write_file and edit refuse git's own files, a nested repository's too, by name and link; reading them stays", () => {
  const check = permissionCheck({ allow: ["read_file", "write_file", "edit"], deny: [], narrow: [] }, "sh", place);
  for (const path of [".git/config", "sub/.git/HEAD", "sub/.git/config", ".git", "sub/.git", ".GIT/hooks/pre-commit", "gitcfg", "gitdir/config"])
    for (const tool of ["write_file", "edit"])
      expect(check(tool, { path, content: "x", old_string: "a", new_string: "b" })).toBe(
        `blocked by permission rules: ${path} is git's own (in a \`.git\` directory, or a \`.git\` file: git runs commands its config and hooks name); while a permission list is set the agent may not write it — git commands write there themselves`,
      );
  expect(check("write_file", { path: ".gitignore", content: "x" })).toBeUndefined();
  expect(check("read_file", { path: ".git/config" })).toBeUndefined();
});

// Moving or deleting a directory above a control file takes it away as moving its own directory
// does: the next run would find no approvals record and take every config as it is, like a first
// run. `mv ~/.local/state elsewhere` ran under any list; only the directory holding the file was guarded.
describe.each(Object.entries(checks))("under the %s list, a directory above a control file", (_list, check) => {
  const above = (word: string) =>
    `blocked by permission rules: \`${word}\` names hey's own configuration or trust file (a directory above it), which the agent may not change`;
  test.each([
    ["mv ~/.local/state /tmp/elsewhere", "~/.local/state"],
    ["mv ~/.local /tmp/elsewhere", "~/.local"],
    ["mv ~/.config ~/.config.bak", "~/.config"],
    ["mv /tmp/x ~/.local/state", "~/.local/state"],
  ])("%s is refused", (command, word) => expect(check("bash", { command })).toBe(above(word)));
  test.each(["mv ~/.local/share/x /tmp/y", "mv ~/.cache /tmp/cache", "cp -r ~/.local /tmp/backup", "mv build dist"])("%s runs", (command) =>
    expect(check("bash", { command })).toBeUndefined(),
  );
});

test("under a deny list, rm -r of a directory above a control file is refused; rm of another is not", () => {
  const names = (word: string) =>
    `blocked by permission rules: \`${word}\` names hey's own configuration or trust file (a directory above it), which the agent may not change`;
  const check = permissionCheck({ allow: [], deny: ["bash: curl *"], narrow: [] }, "sh", place);
  expect(check("bash", { command: "rm -rf ~/.local/state" })).toBe(names("~/.local/state"));
  expect(check("bash", { command: "rm -r ~/.config" })).toBe(names("~/.config"));
  expect(check("bash", { command: `rm -rf ${home}` })).toBe(names(home));
  expect(check("bash", { command: "rm -rf ~/.cache/hey build" })).toBeUndefined();
});

test("rm -rf . in the project is the deny list's to judge, not a control file's directory: the refusal names the entry", () => {
  const check = permissionCheck({ allow: [], deny: ["bash: rm *"], narrow: [] }, "sh", place);
  expect(check("bash", { command: "rm -rf ." })).toBe("blocked by permission rules: `rm -rf .` matches deny entry `bash: rm *`");
  expect(check("bash", { command: "rm -rf ~" })).toBe(
    "blocked by permission rules: `~` names hey's own configuration or trust file (a directory above it), which the agent may not change",
  );
});

// x56: a project's MCP server runs in the project root; from a subdirectory, its relative
// `.mcp.json` is the root's, and the guard reads it from there too (and from hey's directory)
test("an MCP tool's relative path is read from each directory its server may resolve it against", () => {
  const sub = join(project, "sub");
  const check = permissionCheck({ allow: [], deny: ["bash: rm *"], narrow: [] }, "sh", { cwd: sub, home, controls, bases: () => [project, sub] });
  const origin = { server: "fs", name: "write_file", qualified: "fs_write_file" };
  expect(check("fs_write_file", { path: ".hey/config.toml", content: "x" }, origin)).toContain(
    `fs_write_file's argument .hey/config.toml (${join(project, ".hey", "config.toml")} where the server reads it) is one of hey's control files`,
  );
  expect(check("fs_write_file", { path: "cfglink", content: "x" }, origin)).toContain("control files"); // sub/cfglink, as hey reads it
  expect(check("fs_write_file", { path: "notes.txt", content: "x" }, origin)).toBeUndefined();
});
