// A gap found while fixing x54 finding 1: the shell text git runs from its options and environment
// (`-c core.pager=…`, `-c core.fsmonitor=…`, `-c alias.x='!…'`, `difftool -x …`, `GIT_EDITOR=…`)
// was read only for deny entries, so under `allow = ["bash"]`, or a deny list of tools only, it
// wrote .git/hooks or hey's config unrefused. The control checks now read it under every list;
// git's harmless everyday options still run.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { controlFixture } from "./control-corpus.ts";

const tmp = tempDir("hey-control-git-texts-");
afterAll(() => tmp.remove());
const { home, project, controls } = controlFixture(realpathSync(tmp.path));
mkdirSync(join(project, ".git", "hooks"), { recursive: true });
writeFileSync(join(project, ".git", "config"), "[core]\n");
const place = { cwd: project, home, controls };
const config = controls.find((c) => c.endsWith(join("hey", "config.toml")))!;
const lists = {
  'allow = ["bash"]': { allow: ["bash"], deny: [] },
  'allow = ["bash: git *"]': { allow: ["bash: git *"], deny: [] },
  'deny = ["web_fetch"]': { allow: [], deny: ["web_fetch"] },
};
const HOOK = "echo x > .git/hooks/post-commit";
const HEY = `cp /tmp/x ${config}`;

describe.each(Object.entries(lists))("under %s", (_name, list) => {
  const check = permissionCheck({ ...list, narrow: [] }, "bash", place);
  test.each([
    [`git -c core.pager='${HOOK}' log`, "sets git's core.pager, which git runs with the shell", "git's own files"],
    [`git -c core.fsmonitor='${HOOK}' status`, "sets git's core.fsmonitor, which git runs with the shell", "git's own files"],
    [`git -c alias.x='!${HOOK}' x`, "sets git's alias.x, which git runs with the shell", "git's own files"],
    [`git difftool -x '${HOOK}' HEAD`, "gives git difftool a command it runs with the shell", "git's own files"],
    [`GIT_EDITOR='${HOOK}' git commit`, "sets GIT_EDITOR, which git runs with the shell", "git's own files"],
    [`git -c core.pager='${HEY}' log`, "", "hey's own configuration or trust file"],
    [`git -c core.fsmonitor='${HEY}' status`, "", "hey's own configuration or trust file"],
    [`git -c alias.x='!${HEY}' x`, "", "hey's own configuration or trust file"],
    [`git difftool -x '${HEY}' HEAD`, "", "hey's own configuration or trust file"],
    [`GIT_EDITOR='${HEY}' git commit`, "", "hey's own configuration or trust file"],
  ])("%s is refused", (command, from, whose) => {
    const why = check("bash", { command });
    expect(why).toStartWith("blocked by permission rules: ");
    expect(why).toContain(from);
    expect(why).toContain(whose);
  });
  test.each(["git -c color.ui=never log", "git -c core.editor=true commit -m x", "GIT_EDITOR=true git commit -m x", "git --no-pager -c user.name=x log"])(
    "%s runs",
    (command) => expect(check("bash", { command })).toBeUndefined(),
  );
});

describe('under allow = ["bash"], the control checks alone', () => {
  const check = permissionCheck({ allow: ["bash"], deny: [], narrow: [] }, "bash", place);
  test.each([
    "git -c core.pager=less log",
    "git -c commit.gpgsign=false commit -m x", // a key hey does not know to run nothing: only a deny list must see every program
    'git -c http.extraHeader="X-Trace: 1" fetch origin',
    'git rebase "$BASE"',
    "echo 'echo hi > out.txt' > s.sh && sh s.sh",
  ])("let %s run", (command) => expect(check("bash", { command })).toBeUndefined());
  test.each([
    ["echo 'echo x > .git/hooks/y' > s.sh && sh s.sh", "`sh s.sh` runs `s.sh`, which this command writes: `> .git/hooks/y` could write git's own files"],
    ['git -c core.pager="$PAGER" log', 'cannot verify `git -c core.pager="$PAGER" log`: it sets a command git runs, known only at run time'],
    ['GIT_EDITOR="$EDITOR" git commit', "cannot verify"],
    ['git difftool -x "$T" HEAD', 'it sets a command git runs, known only at run time: `"$T"`'],
  ])("refuse %s: its text could write git's or hey's own files", (command, why) => expect(check("bash", { command })).toContain(why));
});

test("under allow entries, a script the command writes and runs is read for git's and hey's own files too", () => {
  const check = permissionCheck({ allow: ["bash: echo * > s.sh", "bash: sh s.sh"], deny: [], narrow: [] }, "bash", place);
  expect(check("bash", { command: "echo 'echo hi' > s.sh && sh s.sh" })).toBeUndefined();
  expect(check("bash", { command: "echo 'echo x > .git/hooks/y' > s.sh && sh s.sh" })).toContain(
    "`sh s.sh` runs `s.sh`, which this command writes: `> .git/hooks/y` could write git's own files",
  );
});
