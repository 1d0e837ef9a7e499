// x93 #2 through dist/hey: with "bash: node $" in the allow list (the exact entry hey offered for
// an interpreter), a program the model gave node on stdin ran and deleted a folder. It is refused,
// the folder stays, and the refusal offers no entry.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachScriptedRun } from "../helpers/scripted-run.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

const scripted = eachScriptedRun();

test("an exact entry for node does not let the code node reads on stdin run", async () => {
  const root = scripted.project.path;
  mkdirSync(join(root, "precious"));
  writeFileSync(join(root, "precious", "keep.txt"), "keep\n");
  scripted.userConfig('[permission]\nallow = ["bash: node $", "bash: echo *"]\n');
  scripted.calls = [
    ["bash", { command: `node <<'EOF'\nrequire("fs").rmSync("precious", { recursive: true })\nEOF` }],
    ["bash", { command: `echo 'require("fs").rmSync("precious", { recursive: true })' | node` }],
  ];
  const run = await runHey(["-p", "tidy up"], { cwd: root, env: { HOME: scripted.home.path } });
  expect(run.code).toBe(0);
  const got = scripted.results();
  for (const result of got) {
    expect(result).toStartWith("blocked by permission rules:");
    expect(result).toContain("may run what it reads on stdin (here a heredoc, a here-string or a pipe) as code");
    expect(result).not.toContain("add ");
  }
  expect(existsSync(join(root, "precious", "keep.txt"))).toBe(true);
});
