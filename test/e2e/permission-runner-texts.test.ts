// Through dist/hey against a loopback model (x54 finding 1): the shell text npm runs for `npx -c` is
// read as `sh -c` text is, so a write to .git/hooks in it is refused under a deny list and under an
// allow list of `bash: npx *`, and no hook is written; the text's own commands need allow entries.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachScriptedRun } from "../helpers/scripted-run.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

const scripted = eachScriptedRun();
const { home, project } = scripted;
const HOOK = `npx -c 'printf "#!/bin/sh\\ntouch pwned\\n" > .git/hooks/post-commit; chmod +x .git/hooks/post-commit'`;
const REFUSED =
  "blocked by permission rules: `> .git/hooks/post-commit` could write git's own files (git runs the commands its config and hooks name), which the agent may not change";

test.each([
  ["a deny list", `deny = ["bash: rm -rf *", "bash: git push *"]`],
  ["an allow list of npx", `allow = ["bash: npx *", "bash: ls *"]`],
])("under %s, npx -c writing .git/hooks/post-commit is refused and writes no hook", async (_, list) => {
  scripted.userConfig(`[permission]\n${list}\n`);
  mkdirSync(join(project.path, ".git", "hooks"), { recursive: true });
  scripted.calls = [
    ["bash", { command: HOOK }],
    // under the allow list the text's own command needs an entry; under the deny list it would run
    ["bash", { command: list.startsWith("allow") ? "npx -c 'touch made.txt'" : "echo fine" }],
    ["bash", { command: "ls -a" }],
  ];
  const run = await runHey(["-p", "set up a hook"], { cwd: project.path, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  const got = scripted.results();
  expect(got[0]).toBe(REFUSED);
  if (list.startsWith("allow")) expect(got[1]).toContain("`touch made.txt` matches no allow entry");
  expect(got[2]).toContain(".git");
  expect(existsSync(join(project.path, ".git", "hooks", "post-commit"))).toBe(false);
});
