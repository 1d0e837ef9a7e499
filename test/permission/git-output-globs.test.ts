// x112 #4: git's diff and revision options reach more subcommands than the diff family. With a file
// named `--output=README.md` in the tree, `git reflog *` (under `bash: git reflog *`) overwrote
// README.md, and `git blame *` emptied a file the same way. A glob before `--` counts as a possible
// `--output` under every subcommand except those whose options are their own (add, rm, restore,
// checkout, `stash push`…), which read it as a path.
import { expect, test } from "bun:test";
import { permissionCheck } from "../../src/permission-check.ts";

const check = (shell: string, allow: string[], command: string) =>
  permissionCheck({ allow, deny: [], narrow: [], file: "/h/.config/hey/config.toml" }, shell, { cwd: "/p", home: "/h", controls: [] })("bash", {
    command,
  });
const SHELLS = ["sh", "bash"];
const WRITES = [
  "git reflog *",
  "git reflog show *",
  "git blame *",
  "git annotate *",
  "git fast-export *",
  "git cherry-pick *",
  "git revert *",
  "git stash show *",
  "git stash list *",
  "git bisect view *",
  "git log -p *",
];

test.each(WRITES)("a glob that could expand to `--output=FILE` needs `--` before it: %j", (command) => {
  const allow = [`bash: ${command.split(" ").slice(0, 2).join(" ")} *`];
  for (const shell of SHELLS) expect(check(shell, allow, command)).toContain("could expand to git's `--output=FILE`");
  for (const shell of SHELLS) expect(check(shell, allow, command.replace(/\*$/, "-- *"))).toBeUndefined();
});

test.each(["git add *.ts", "git rm *.log", "git restore *", "git checkout *.json", "git stash push *.ts", "git reset *", "git grep TODO *"])(
  "a subcommand whose options are its own reads a glob as paths: %j",
  (command) => {
    const allow = [`bash: ${command.split(" ").slice(0, 2).join(" ")} *`];
    for (const shell of SHELLS) expect(check(shell, allow, command)).toBeUndefined();
  },
);
