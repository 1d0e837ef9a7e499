// More of git's files and hey's that the agent reached while a list was set (a red-team report):
// a hard link to `.git/config` made elsewhere (`find … -exec ln {} /tmp/hl \;`) was written as an
// ordinary file; git's global config (`~/.gitconfig`, `$XDG_CONFIG_HOME/git/config`: core.fsmonitor
// ran at the next `git status`); a hard link to `.git/config` written by bash; a program put in a PATH directory (`~/.local/bin/rg`) that the grep
// tool and every command then ran; a directory above a control file moved through a link;
// and on Windows `.git::$INDEX_ALLOCATION` (NTFS's name for the `.git` directory's own index, git's CVE-2019-1352).
import { afterAll, expect, test } from "bun:test";
import { linkSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inGit } from "../../src/permission/control-files.ts";
import { compileRules, decide } from "../../src/permission/rules.ts";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { controlFixture } from "./control-corpus.ts";

const tmp = tempDir("hey-control-guarded-");
afterAll(() => tmp.remove());
const root = realpathSync(tmp.path);
const { home, project, controls } = controlFixture(root);
const gitConfigs = [join(home, ".config", "git", "config"), join(home, ".gitconfig")];
const bin = join(home, ".local", "bin");
mkdirSync(bin, { recursive: true });
mkdirSync(join(project, ".git"), { recursive: true });
writeFileSync(join(project, ".git", "config"), "[core]\n");
mkdirSync(join(root, "elsewhere"));
linkSync(join(project, ".git", "config"), join(root, "elsewhere", "hl-gitcfg"));
symlinkSync(join(home, ".local"), join(project, "lk"));
const place = { cwd: project, home, controls, gitConfigs, pathDirs: [bin, "/usr/bin"] };
const allow = permissionCheck(
  { allow: ["write_file", "edit", "read_file", "bash: cp *", "bash: mv *", "bash: cd *", "bash: cat *"], deny: [], narrow: [] },
  "sh",
  place,
);
const deny = permissionCheck({ allow: [], deny: ["bash: curl *"], narrow: [] }, "sh", place);

test("write_file refuses a file with other hard links: one of them could be git's or hey's own", () => {
  const path = join(root, "elsewhere", "hl-gitcfg");
  expect(allow("write_file", { path, content: "[core]\n\tfsmonitor = evil\n" })).toBe(
    `blocked by permission rules: ${path} has other hard links, which could be git's or hey's own files (hey cannot find every name of a file); while a permission list is set the agent may not write it`,
  );
  writeFileSync(join(root, "elsewhere", "plain.txt"), "x");
  expect(allow("write_file", { path: join(root, "elsewhere", "plain.txt"), content: "y" })).toBeUndefined();
});

test.each(gitConfigs)("write_file and bash refuse git's global config %s; reading it stays", (file) => {
  expect(allow("write_file", { path: file, content: "[core]\n\tfsmonitor = evil\n" })).toBe(
    `blocked by permission rules: ${file} is ${file}, git's global config (git runs commands its settings name: core.fsmonitor, core.hooksPath, aliases); while a permission list is set the agent may not write it`,
  );
  for (const check of [allow, deny]) {
    expect(check("bash", { command: `cp /tmp/evil ${file}` })).toContain("git's global config, whose settings run commands");
    expect(check("bash", { command: `echo x > ${file}` })).toContain("git's global config, whose settings run commands");
    expect(check("bash", { command: `cat ${file}` })).toBeUndefined();
  }
});

test("write_file and bash refuse a PATH directory's programs; reading them stays", () => {
  expect(allow("write_file", { path: join(bin, "rg"), content: "#!/bin/sh\n" })).toBe(
    `blocked by permission rules: ${join(bin, "rg")} is in ${bin}, a directory on the commands' PATH (the grep tool and every command run programs from there); while a permission list is set the agent may not write there`,
  );
  for (const check of [allow, deny]) {
    for (const command of ["cp /tmp/evil ~/.local/bin/rg", "cp /tmp/evil /usr/bin/git", "cd ~/.local/bin && cp /tmp/evil rg", "echo x > ~/.local/bin/git"])
      expect(check("bash", { command })).toContain("a directory on the commands' PATH");
    expect(check("bash", { command: "cat ~/.local/bin/rg" })).toBeUndefined();
    // programs are looked up directly in a PATH directory, not below it
    expect(check("bash", { command: "cp /tmp/x ~/.local/bin/lib/x.txt" })).toBeUndefined();
  }
  expect(allow("write_file", { path: join(bin, "lib", "x.txt"), content: "x" })).toBeUndefined();
});

test("a bash write into a PATH directory is refused as a file hey guards; git's options before its subcommand name no file it writes there", () => {
  expect(deny("bash", { command: "cp /tmp/evil /usr/bin/git" })).toBe(
    "blocked by permission rules: `/usr/bin/git` names a file hey guards (in a directory on the commands' PATH, whose programs the tools run), which the agent may not change",
  );
  for (const command of ["git -c core.pager=/usr/bin/less log", "git --exec-path=/usr/bin status", `git -c core.editor="${join(bin, "vim")}" commit`])
    expect({ command, d: deny("bash", { command }) }).toEqual({ command, d: undefined });
});

test("a directory above a control file is seen through a link", () => {
  for (const check of [allow, deny])
    for (const command of ["mv lk/state /tmp/x", "cd lk && mv state /tmp/x"]) expect(check("bash", { command })).toContain("(a directory above it)");
});

test("on a case-folding system, a directory above a control file in another case", () => {
  const check = (command: string) =>
    decide("bash", { command }, compileRules({ allow: [], deny: ["bash: curl *"] }, "sh", { paths: controls, home, cwd: project, fold: true }).rules);
  expect(check("mv ~/.LOCAL/state /tmp/x")).toMatchObject({ allowed: false });
  expect(check("mv ~/.locals /tmp/x")).toMatchObject({ allowed: true });
});

test.each([".git::$INDEX_ALLOCATION\\config", ".GIT:$I30:$INDEX_ALLOCATION/hooks/pre-commit", "sub\\.git::$index_allocation"])(
  "%s is git's own (NTFS)",
  (path) => expect(inGit(path)).toBe(true),
);
test.each([".git::$DATA", ".gitignore", "git::$INDEX_ALLOCATION"])("%s is not", (path) => expect(inGit(path)).toBe(false));

test("bash may not write a file with other hard links either, by a redirection or as the file a program writes; reading it stays", () => {
  const hl = join(root, "elsewhere", "hl-gitcfg");
  for (const check of [allow, deny]) {
    for (const [command, word] of [
      [`cat evil > ${hl}`, hl],
      [`cp evil ${hl}`, hl],
      [`cd ${join(root, "elsewhere")} && cp evil hl-gitcfg`, "hl-gitcfg"],
    ])
      expect(check("bash", { command })).toBe(
        `blocked by permission rules: \`${word}\` is a file with other hard links, which could be git's or hey's own files (no search finds every name of a file); while a list is set the agent may not write it`,
      );
    expect(check("bash", { command: `cat ${hl}` })).toBeUndefined();
  }
  expect(deny("bash", { command: `sed -i s/a/b/ ${hl}` })).toContain("is a file with other hard links");
  expect(deny("bash", { command: `cp ${hl} /tmp/copy` })).toBeUndefined(); // read, not written
});

test("an MCP tool's path arguments are held to the same files: the filesystem server's writes to .git and hey's config are refused", () => {
  const gitConfig = join(project, ".git", "config");
  const evil = "[core]\n\tfsmonitor = touch /tmp/pwned\n";
  expect(deny("fs_write_file", { path: gitConfig, content: evil })).toBe(
    `blocked by permission rules: fs_write_file's argument ${gitConfig} is git's own (in a \`.git\` directory, or a \`.git\` file: git runs commands its config and hooks name); while a permission list is set the agent may not write it — git commands write there themselves`,
  );
  expect(deny("fs_edit_file", { path: ".git/hooks/pre-commit", edits: [] })).toContain("is git's own");
  expect(deny("fs_move_file", { source: "notes.txt", destination: ".git/hooks/pre-push" })).toContain(".git/hooks/pre-push is git's own");
  expect(deny("fs_create_directory", { path: ".git/hooks" })).toContain("is git's own");
  expect(deny("other_tool", { paths: ["a.txt", `file://${gitConfig}`] })).toContain("is git's own");
  expect(deny("fs_write_file", { path: controls[0], content: "" })).toContain("one of hey's control files");
  expect(deny("fs_write_file", { path: join(bin, "rg"), content: "" })).toContain("a directory on the commands' PATH");
  // (a deny list is set: the fs tools are allowed)
  // what is not a path, or not a control file, goes on as before; so does a call while no list is set
  expect(deny("fs_write_file", { path: "src/app.ts", content: "x" })).toBeUndefined();
  expect(deny("fs_search", { query: ".git/config" })).toBeUndefined();
  expect(permissionCheck({ allow: [], deny: [], narrow: [] }, "sh", place)("fs_write_file", { path: gitConfig, content: evil })).toBeUndefined();
});
