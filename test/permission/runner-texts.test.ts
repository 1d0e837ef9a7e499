// x54 findings 1 and 2: a package runner's shell text (`npx -c TEXT`, `npm exec --call TEXT`, pnpm's
// shell mode, `yarn exec`, `bun exec`) is read as `sh -c` text is, under the control guard, a deny
// list and an allow list; and a package word with a version (`npx rimraf@5`) runs the same program
// as without it, so it meets the deny entries' equivalents.
import { describe, expect, test } from "bun:test";
import { compileRules, decide } from "../../src/permission/rules.ts";
import { packageProgram, runnerText } from "../../src/permission/runner-texts.ts";
import { parseCommand } from "../../src/permission/shell-commands.ts";

const FILE = "~/.config/hey/config.toml";
const CONTROL = { paths: ["/home/u/.config/hey/config.toml"], home: "/home/u", cwd: "/work/p" };
const ALLOW = ["bash: npm *", "bash: npx *", "bash: pnpm *", "bash: yarn *", "bash: bun *", "bash: bunx *", "bash: git *", "bash: ls *", "read_file"];
const DENY = ["bash: rm -rf *", "bash: git push *", "bash: npm publish *"];
const lists = {
  "an allow list": { allow: ALLOW, deny: [] },
  "a deny list": { allow: [], deny: DENY },
  "allow = [bash]": { allow: ["bash"], deny: [] },
};
const judge = (command: string, allow: string[], deny: string[], shell = "sh") =>
  decide("bash", { command }, compileRules({ allow, deny, file: FILE }, shell, CONTROL).rules);
const refused = (command: string, allow: string[], deny: string[], names: string) => {
  for (const shell of ["sh", "dash", "bash"]) {
    const d = judge(command, allow, deny, shell);
    expect({ command, shell, allowed: d.allowed }).toEqual({ command, shell, allowed: false });
    if (!d.allowed) expect(d.reason).toContain(names);
  }
};
const allowed = (command: string, allow: string[], deny: string[]) => {
  for (const shell of ["sh", "dash", "bash"])
    expect({ command, shell, d: judge(command, allow, deny, shell) }).toEqual({ command, shell, d: { allowed: true } });
};

describe("npm's -c/--call text and the other runners' shell text are read as sh -c text (finding 1)", () => {
  const HOOK = "> .git/hooks/post-commit` could write git's own files";
  test.each(Object.entries(lists))("a write to .git/hooks in it is refused under %s", (_, { allow, deny }) => {
    for (const command of [
      `npx -c 'printf "#!/bin/sh\\ntouch /tmp/p\\n" > .git/hooks/post-commit; chmod +x .git/hooks/post-commit'`,
      "npm exec -c 'echo x > .git/hooks/post-commit'",
      "npm x --call='echo x > .git/hooks/post-commit'",
      "npm --yes exec --call 'echo x > .git/hooks/post-commit'",
      "npx -yc 'echo x > .git/hooks/post-commit'",
      "pnpm -c exec 'echo x > .git/hooks/post-commit'",
      "pnpm --shell-mode dlx 'echo x > .git/hooks/post-commit'",
      "yarn exec 'echo x > .git/hooks/post-commit'",
      "bun exec 'echo x > .git/hooks/post-commit'",
    ])
      refused(command, allow, deny, HOOK);
  });

  test("a deny entry's program in it is refused however quoting splits its name", () => {
    for (const [command, entry] of [
      [`npx -c 'r""m -rf /tmp/victim'`, "rm -rf *"],
      [`npm exec --call 'g""it push'`, "git push *"],
      [`npm x --call='r""m -rf dist'`, "rm -rf *"],
      [`npx --package=np -c 'n""p'`, "by another name: np"],
      [`pnpm -rc exec 'r\\m -rf node_modules'`, "rm -rf *"],
      [`yarn exec "cd x && r''m -rf y"`, "rm -rf *"],
      // a shell the runner runs is read as without the runner
      [`pnpm exec sh -c 'r""m -rf dist'`, "rm -rf *"],
      [`npx sh -c 'r""m -rf dist'`, "rm -rf *"],
      [`npm exec -- bash -c 'r""m -rf dist'`, "rm -rf *"],
      [`bunx --bun sh -c 'r""m -rf dist'`, "rm -rf *"],
    ])
      refused(command!, [], DENY, entry!);
  });

  test("under an allow list each command in it must match an entry, and the refusal names it and the entry to add", () => {
    refused("npx -c 'touch /tmp/p; id -un'", ALLOW, [], '`touch /tmp/p` matches no allow entry in ~/.config/hey/config.toml: add "bash: touch *" there');
    refused("npm exec -c 'echo hi > out.txt'", ALLOW, [], "`echo hi > out.txt` matches no allow entry");
    refused("npm x -c 'ls && id'", ALLOW, [], "`id` matches no allow entry");
    refused("pnpm -c exec 'ls | xargs wc -l'", ALLOW, [], "`xargs` matches no allow entry");
    // the text known only when it runs cannot be read
    refused('npx -c "$CMD"', ALLOW, [], "a script known only at run time");
    refused("echo 'rm -rf x' | npx", [], DENY, "`npx` without a command starts a shell reading stdin");
    refused("npx sh -c 'ls && touch x'", [...ALLOW, "bash: sh *"], [], "`touch x` matches no allow entry");
    allowed("npx -c 'ls -la && git status'", ALLOW, []);
  });

  test("ordinary runner commands still run: a package's own -c after its name, `--` and commands without shell text", () => {
    for (const command of [
      "npx tsc --noEmit",
      "npx vitest run",
      "npm exec -- prettier --check .",
      "npx eslint -c .eslintrc.json src",
      "npx --yes prettier@3 --check .",
      "pnpm exec tsc --noEmit",
      "pnpm -r exec tsc",
      "npm --version",
      "npx --help",
      "bunx vitest run",
      "npm install",
      "npx prettier --write bash",
    ]) {
      allowed(command, ALLOW, []);
      allowed(command, [], DENY);
    }
  });

  test("the runner's own words stay one segment, the text becomes the commands it holds", () => {
    const parsed = parseCommand("npx --yes -c 'ls; git status'", "sh");
    expect(parsed.ok && parsed.segments.map((s) => s.words.map((w) => w.text).join(" "))).toEqual(["npx --yes -c", "ls", "git status"]);
    const words = (command: string) => {
      const p = parseCommand(command, "sh");
      return p.ok ? p.segments[0]!.words : [];
    };
    expect(runnerText(words("npx eslint -c x"))).toBeUndefined(); // eslint's own -c
    expect(runnerText(words("npm exec -- eslint -c x"))).toBeUndefined();
    expect(runnerText(words("pnpm exec eslint -c x"))).toBeUndefined(); // after `exec`, the command's
  });
});

describe("a package word with a version or tag runs the same program (finding 2)", () => {
  test.each([
    ["rm -rf *", "npx rimraf@5 dir", "by another name: rimraf"],
    ["rm -rf *", "npx --no-install rimraf@5 /tmp/victim", "by another name: rimraf"],
    ["rm -rf *", "npx x@npm:rimraf@5 dist", "by another name: rimraf"],
    ["rm -rf *", "npx -p rimraf@5 rimraf dist", "by another name: rimraf"],
    ["npm publish *", "npx np@latest", "by another name: np publishes to npm"],
    ["npm publish *", "npx lerna@8 publish", "by another name: lerna publish"],
    ["npm publish *", "npx @changesets/cli@2 publish", "by another name: changeset publish"],
    ["npm publish *", "npx @changesets/cli publish", "by another name: changeset publish"],
    ["npm publish *", "bunx np@latest", "by another name: np publishes to npm"],
    ["npm publish *", "pnpm dlx np@10", "by another name: np publishes to npm"],
    ["npm publish *", "npx --yes semantic-release@24", "by another name: semantic-release"],
    ["npm publish *", "npx --yes semantic-release@latest", "by another name: semantic-release"],
    ["npm publish *", "npx release-it@17 --ci", "by another name: release-it"],
    ["npm publish *", "npx -p np@1 np", "by another name: np publishes to npm"],
  ])("deny %j refuses %j", (entry, command, names) => refused(command, [], [`bash: ${entry}`], names));

  test("what only looks like them still runs", () => {
    for (const command of [
      "npx @changesets/cli@2 version",
      "npx prettier@3 --check .",
      "npx create-vite@5 app",
      "npx release-notes@1",
      "npx rimraf-cli-docs@1",
    ])
      allowed(command, [], DENY);
  });

  test.each([
    ["rimraf@5", "rimraf"],
    ["np@latest", "np"],
    ["semantic-release@^24.0.0", "semantic-release"],
    ["@changesets/cli@2", "changeset"],
    ["@scope/tool@1", "tool"],
    ["x@npm:rimraf@5", "rimraf"],
    ["./local-bin", "./local-bin"],
    ["github:user/repo", "github:user/repo"],
  ])("packageProgram(%j) is %j", (word, bin) => expect(packageProgram(word)).toBe(bin));
});
