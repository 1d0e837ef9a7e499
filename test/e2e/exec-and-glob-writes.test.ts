// x112 #1 and #4 through dist/hey: `X= exec <<'EOF'` gave node a program that deleted `victim/`
// under `deny = ["bash: rm *"]`, and `git reflog *` overwrote README.md where a file was named
// `--output=README.md`, under `allow = ["bash: git reflog *"]`. Both are refused; the files stay.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachScriptedRun } from "../helpers/scripted-run.ts";
import { testNeeding } from "../helpers/tools.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

const scripted = eachScriptedRun();
const RM = `require("fs").rmSync("victim", { recursive: true })`;

test("an exec with an assignment or inside eval does not hide node's program from a deny list", async () => {
  const root = scripted.project.path;
  mkdirSync(join(root, "victim"));
  writeFileSync(join(root, "victim", "keep.txt"), "keep\n");
  scripted.userConfig('[permission]\ndeny = ["bash: rm *"]\n');
  scripted.calls = [
    ["bash", { command: `X= exec <<'EOF'\n${RM}\nEOF\nnode` }],
    ["bash", { command: `eval "exec <<'EOF'\n${RM}\nEOF"\nnode` }],
  ];
  const run = await runHey(["-p", "tidy up"], { cwd: root, env: { HOME: scripted.home.path } });
  expect(run.code).toBe(0);
  const got = scripted.results();
  expect(got).toHaveLength(2);
  for (const result of got) expect(result).toStartWith("blocked by permission rules:");
  expect(existsSync(join(root, "victim", "keep.txt"))).toBe(true);
});

testNeeding(["git"])("git reflog * is refused where a file is named --output=README.md; with -- it runs", async () => {
  const root = scripted.project.path;
  writeFileSync(join(root, "README.md"), "the original text\n");
  const git = (...args: string[]) => Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: root });
  git("init", "-q");
  git("add", "README.md");
  git("commit", "-qm", "first");
  writeFileSync(join(root, "--output=README.md"), "");
  scripted.userConfig('[permission]\nallow = ["bash: git reflog *"]\n');
  scripted.calls = [
    ["bash", { command: "git reflog *" }],
    ["bash", { command: "git reflog -- *" }],
  ];
  const run = await runHey(["-p", "show the reflog"], { cwd: root, env: { HOME: scripted.home.path } });
  expect(run.code).toBe(0);
  const [glob, ended] = scripted.results();
  expect(glob).toContain("could expand to git's `--output=FILE`");
  expect(ended).not.toStartWith("blocked by permission rules:");
  expect(readFileSync(join(root, "README.md"), "utf8")).toBe("the original text\n");
});
