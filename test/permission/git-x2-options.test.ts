// x2 findings 2, 7, 9, 10, 11, 12: git's options that run a command, write git's config or write a
// file, read as git reads them. git's parse-options takes any abbreviation of a long option
// (`--upload-pa=CMD` is `--upload-pack=CMD`), filter-branch's filters and daemon's access hook are
// shell text, `git subtree push` runs `git push`, `git maintenance register|start` write the
// global config, fast-import's input may name files it writes. GNU cp's abbreviations too
// (`cp --recur`). Everyday commands of the same programs still run.
import { afterAll, describe, expect, test } from "bun:test";
import { realpathSync } from "node:fs";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { controlFixture } from "./control-corpus.ts";

const tmp = tempDir("hey-git-x2-options-");
afterAll(() => tmp.remove());
const { home, project, controls } = controlFixture(realpathSync(tmp.path));
const place = { cwd: project, home, controls };
// README's example list
const readme = permissionCheck(
  { allow: ["read_file", "grep", "bash: git *", "bash: ls", "bash: npm run test *"], deny: ["bash: git push *"], narrow: [] },
  "bash",
  place,
);
const denyOnly = permissionCheck({ allow: [], deny: ["bash: git push *", "bash: touch *"], narrow: [] }, "bash", place);
const anyCommand = permissionCheck({ allow: ["bash"], deny: [], narrow: [] }, "bash", place);
const run = (check: typeof readme, command: string) => check("bash", { command }) ?? "allowed";

describe("under README's example list (bash: git *, deny git push *)", () => {
  test.each([
    // #9: abbreviations of options that take a command
    [
      `git ls-remote --upload-pa='touch /tmp/x; git-upload-pack' .`,
      "gives git ls-remote a command it runs with the shell: `touch /tmp/x` matches no allow entry",
    ],
    [`git fetch --upload-pac='touch /tmp/x; git-upload-pack' .`, "gives git fetch a command it runs with the shell: `touch /tmp/x`"],
    [`git clone --upload-p='touch /tmp/x; git-upload-pack' . ../cl`, "gives git clone a command it runs with the shell: `touch /tmp/x`"],
    [`git rebase --exe 'touch /tmp/x' HEAD~1`, "gives git rebase a command it runs with the shell: `touch /tmp/x`"],
    [`git grep --open-files-in='touch /tmp/x' 1`, "gives git grep a command it runs with the shell: `touch /tmp/x`"],
    [`git push --rec='touch /tmp/x' origin`, "deny entry `bash: git push *`"],
    [`git clone -q --conf=core.fsmonitor='touch /tmp/x' . ../cl`, "writes git's config (the new repository's"],
    [`git clone -q --con core.hooksPath=/tmp . ../cl`, "`core.hooksPath` is not a key hey knows to run nothing"],
    [`git clone --templ=/tmp/t . ../cl`, "copies a template's hooks and config"],
    // as `--config user.name=me` is: a pattern spells the new repository's config out
    ["git clone --conf user.name=me . ../cl", "`--conf` writes a file, which a pattern must spell out"],
    // #2: filter-branch's filters
    [`git filter-branch -f --msg-filter 'touch /tmp/x; cat' HEAD`, "gives git filter-branch a command it runs with the shell: `touch /tmp/x`"],
    [`git filter-branch -f --tree-filter 'touch /tmp/x' HEAD`, "gives git filter-branch a command"],
    [`git filter-branch -f --index-filter 'touch /tmp/x' HEAD`, "gives git filter-branch a command"],
    [`git filter-branch -f --env-filter 'touch /tmp/x' HEAD`, "gives git filter-branch a command"],
    [`git filter-branch -f --commit-filter 'touch /tmp/x' HEAD`, "gives git filter-branch a command"],
    [`git filter-branch -f --parent-filter 'touch /tmp/x' HEAD`, "gives git filter-branch a command"],
    [`git filter-branch -f --tag-name-filter 'touch /tmp/x' HEAD`, "gives git filter-branch a command"],
    [`git filter-branch -f --setup 'touch /tmp/x' HEAD`, "gives git filter-branch a command"],
    // #7: git subtree push is git push, however its options stand
    ["git subtree push --prefix=src origin master", "matches deny entry `bash: git push *` by another name: git subtree push runs git push"],
    ["git subtree -P src push origin master", "git subtree push runs git push"],
    // #10: a daemon, its access hook; instaweb
    [
      "git daemon --access-hook='touch /tmp/x' --export-all --base-path=.. --listen=127.0.0.1 --port=41092 --detach",
      "cannot verify `git daemon --access-hook='touch /tmp/x'",
    ],
    ["git daemon --export-all --base-path=..", "serves repositories to any client on the network and keeps running after the command"],
    ["git instaweb --start", "starts a web server (git instaweb)"],
    // #11: the global config, a scheduler job
    [
      "git maintenance register",
      "writes git's config (the global one: git runs commands its settings name), which the agent may not change: `git maintenance register`",
    ],
    ["git maintenance start", "changes a scheduler job that runs git in this repository every hour, outside hey"],
    // #12: fast-import's input naming files it writes; its marks file on the command line
    ["git fast-import --quiet --allow-unsafe-features", "lets fast-import's input name files it writes (`feature export-marks=PATH`)"],
    ["git fast-import --export-marks=src/m", "`--export-marks=src/m` writes a file, which a pattern must spell out"],
    ["git fast-import --export-marks=../home/.config/hey/config.toml", "names hey's own configuration or trust file"],
    // the family: send-email's commands (Getopt::Long: one dash, abbreviations), a program as its SMTP server
    ["git send-email -to-cmd='touch /tmp/x' a.patch", "gives git send-email a command it runs with the shell: `touch /tmp/x`"],
    ["git send-email --cc-c='touch /tmp/x' a.patch", "`touch /tmp/x` matches no allow entry"],
    ["git send-email --smtp-server=/tmp/prog --to=a a.patch", "`/tmp/prog` matches no allow entry"],
    ["git svn clone -authors-p='touch /tmp/x' https://svn.example.com/r", "gives git svn a command it runs with the shell: `touch /tmp/x`"],
    [`printf 'connect git-upload-pack\n' | git remote-ext x 'touch /tmp/x %S'`, "gives git remote-ext a command it runs with the shell: `touch /tmp/x %S`"],
    ["git credential-store --file=src/creds store", "`--file=src/creds` writes a file, which a pattern must spell out"],
    ["git bugreport -o src", "`-o` writes a file, which a pattern must spell out"],
  ])("refuses %s", (command, why) => {
    const reason = run(readme, command);
    expect(reason).toStartWith("blocked by permission rules");
    expect(reason).toContain(why);
  });

  test.each([
    "git fetch origin",
    "git fetch --prune origin",
    "git ls-remote --heads origin",
    "git rebase --exec 'npm run test' HEAD~1",
    "git rebase --exe 'npm run test unit' HEAD~1",
    "git clone . ../cl",
    "git clone --depth 1 . ../cl",
    "git grep -n foo",
    "git log --oneline",
    "git filter-branch --subdirectory-filter src HEAD",
    "git filter-branch -f --prune-empty HEAD",
    "git subtree split --prefix=src",
    "git subtree add --prefix=vendor ../lib main",
    "git maintenance run",
    "git maintenance run --task=gc",
    "git send-email --to=a --cc b --smtp-server=smtp.example.com a.patch",
    "git fast-export --all",
    "git svn rebase",
  ])("lets %s run", (command) => {
    expect(run(readme, command)).toBe("allowed");
  });
});

describe("under a deny list (git push, touch)", () => {
  test.each([
    [`git rebase --exe 'touch x' HEAD~1`, "deny entry `bash: touch *`"],
    [`git filter-branch -f --tree-filter 'touch x' HEAD`, "deny entry `bash: touch *`"],
    [`git daemon --access-hook='touch x' --export-all`, "deny entry `bash: touch *`"],
    [`git ls-remote --upload-pa='touch x; git-upload-pack' .`, "deny entry `bash: touch *`"],
    ["git subtree push --prefix=src origin master", "git subtree push runs git push"],
    ["git subtree -P src push origin master", "git subtree push runs git push"],
    ["git maintenance register", "writes git's config (the global one"],
    ["git fast-import --allow-unsafe-features", "lets fast-import's input name files it writes"],
    ["git fast-import $OPTS", "is known only at run time and could be `--allow-unsafe-features`"],
    // GNU cp reads `--recur` as `--recursive`: a tree copied into the home replaces ~/.config/hey/config.toml
    ["cp --recur /tmp/evil/.config ../home/", "copies files into `~/.config`, where they may replace hey's own configuration or trust file"],
    ["cp --arch /tmp/evil/.config ../home/", "copies files into `~/.config`"],
    ["cp --target-dir=../home -r /tmp/evil/.config", "copies files into `~/.config`"],
  ])("refuses %s", (command, why) => {
    expect(run(denyOnly, command)).toContain(why);
  });

  test.each(["git subtree split --prefix=src", "git maintenance run", "git fast-import --quiet", "cp --recur src/a src/b", "git daemon --help"])(
    "lets %s run",
    (command) => {
      expect(run(denyOnly, command)).toBe("allowed");
    },
  );
});

describe('under allow = ["bash"], the control checks alone', () => {
  test.each([
    [`git filter-branch -f --tree-filter 'echo x > ../home/.config/hey/config.toml' HEAD`, "hey's own configuration or trust file"],
    [`git rebase --exe 'echo x > .git/hooks/pre-commit' HEAD~1`, "git's own files"],
    ["git maintenance register", "writes git's config (the global one"],
    ["git fast-import --allow-unsafe-f", "lets fast-import's input name files it writes"],
  ])("refuses %s", (command, why) => {
    expect(run(anyCommand, command)).toContain(why);
  });

  test.each(["git daemon --export-all --base-path=..", "git filter-branch -f --msg-filter cat HEAD", "git subtree push --prefix=src origin master"])(
    "lets %s run",
    (command) => {
      expect(run(anyCommand, command)).toBe("allowed");
    },
  );
});
