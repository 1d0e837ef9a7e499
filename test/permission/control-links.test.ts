// Issue 24, by another name: while a list is set, a bash redirection may not write hey's control
// files through a link in the project (to the file, to its directory, a dangling one to a file not
// created yet), a hard link, `..` taken after a link, a `cd` first, a name decided at run time or
// a command run in another directory — under an allow list that lets `echo * > *` write anywhere
// else, and under a deny list (redirections otherwise free). The file tools refuse the same names,
// and anything in hey's cache dir, where the ripgrep grep runs lives.
import { afterAll, describe, expect, test } from "bun:test";
import { linkSync, mkdirSync, realpathSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { controlFixture, TEMPLATES, USABLE } from "./control-corpus.ts";

const tmp = tempDir("hey-control-links-");
afterAll(() => tmp.remove());
const { home, project, controls } = controlFixture(realpathSync(tmp.path));
const LISTS = {
  allow: [
    "read_file",
    "write_file",
    "bash: cat * > *",
    "bash: echo * > *",
    "bash: ls",
    "bash: cd *",
    "bash: mkdir *",
    "bash: env *",
    "bash: sh *",
    "bash: find *",
  ],
  deny: [],
};
const checks = {
  allow: permissionCheck({ ...LISTS, narrow: [] }, "sh", { cwd: project, home, controls }),
  deny: permissionCheck({ allow: [], deny: ["bash: rm *"], narrow: [] }, "sh", { cwd: project, home, controls }),
};
const REASON: Record<string, string> = {
  link: "(by another name)",
  hard: "(by another name)",
  dangling: "(by another name)",
  dotdot: "(by another name)",
  runtime: "(its name is known only at run time)",
  elsewhere: "(its command runs in another directory)",
};

describe.each(Object.entries(checks))("under the %s list", (_list, check) => {
  test.each(Object.entries(TEMPLATES).flatMap(([cls, templates]) => templates.map((t) => [cls, t.replaceAll("{W}", "echo PWNED")] as const)))(
    "%s: %s is refused",
    (cls, command) => {
      const reason = check("bash", { command });
      expect(reason).toStartWith("blocked by permission rules: ");
      expect(reason).toContain("could write hey's own configuration or trust file");
      if (REASON[cls] && !command.startsWith("cat <<") && !command.startsWith("F=")) expect(reason).toContain(REASON[cls]!);
    },
  );

  test.each(USABLE.map((t) => t.replaceAll("{W}", "echo ok")))("%s is allowed", (command) => {
    expect(check("bash", { command })).toBeUndefined();
  });
});

test("the refusal names the redirection and why", () => {
  expect(checks.deny("bash", { command: `echo '[permission]\nallow = ["bash"]' > cfglink` })).toBe(
    "blocked by permission rules: `> cfglink` could write hey's own configuration or trust file (by another name), which the agent may not change",
  );
  expect(checks.deny("bash", { command: "D=sub; cd $D && echo x > cfglink" })).toContain("(it is relative to a directory known only at run time)");
});

test("write_file and edit refuse the same names: a link, a linked directory, a dangling link, a hard link", () => {
  for (const path of ["cfglink", "dirlink/config.toml", "dangling", "hard", "sub/../apl"])
    expect(checks.allow("write_file", { path, content: "x" })).toMatch(
      /^blocked by permission rules: \S+ is \S+ \(by another name\), one of hey's control files/,
    );
  expect(checks.allow("write_file", { path: "notes.txt", content: "x" })).toBeUndefined();
});

test("write_file and edit refuse anything in hey's cache dir (the ripgrep grep runs is there), by name, `..` or a link; reading it stays", () => {
  const cacheDir = join(home, ".cache", "hey");
  mkdirSync(join(cacheDir, "outputs"), { recursive: true });
  symlinkSync(cacheDir, join(project, "cachelink"));
  const check = permissionCheck({ ...LISTS, narrow: [] }, "sh", { cwd: project, home, controls, cacheDir });
  for (const path of ["~/.cache/hey/rg-193906679498de4d", join(cacheDir, "outputs", "x.txt"), "sub/../cachelink/rg-0", "cachelink"])
    for (const tool of ["write_file", "edit"])
      expect(check(tool, { path, content: "x", old_string: "a", new_string: "b" })).toBe(
        `blocked by permission rules: ${path} is in hey's cache (${cacheDir}), which holds the ripgrep the grep tool runs; while a permission list is set the agent may not write there`,
      );
  expect(check("read_file", { path: "~/.cache/hey/outputs/x.txt" })).toBeUndefined();
  expect(check("write_file", { path: "~/.cache/other/x", content: "x" })).toBeUndefined();
  // no list, no guard
  expect(
    permissionCheck({ allow: [], deny: [], narrow: [] }, "sh", { cwd: project, home, controls, cacheDir })("write_file", { path: "cachelink/x" }),
  ).toBeUndefined();
});

test("write_file and edit refuse a link or hard link named with a byte that is not UTF-8 (`x\\x80`, as hey writes such a name): the guard opens the bytes the tools open", () => {
  const { userConfig, approvalsFile, configDir } = { userConfig: controls[0]!, approvalsFile: controls[2]!, configDir: join(controls[0]!, "..") };
  const at = (name: string) => Buffer.concat([Buffer.from(`${project}/`), Buffer.from(name, "latin1")]);
  symlinkSync(userConfig, at("cfg\x80"));
  linkSync(approvalsFile, at("hard\x80"));
  symlinkSync(configDir, at("dir\x80"));
  for (const tool of ["write_file", "edit"]) {
    for (const path of ["cfg\\x80", "hard\\x80", "dir\\x80/config.toml"])
      expect(checks.allow(tool, { path, content: "x", old_string: "a", new_string: "b" })).toMatch(
        /^blocked by permission rules: \S+ is \S+ \(by another name\), one of hey's control files/,
      );
  }
  expect(checks.allow("write_file", { path: "new\\x80", content: "x" })).toBeUndefined(); // a new file of that name
});
