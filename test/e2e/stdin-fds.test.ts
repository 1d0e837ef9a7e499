// x105 #4 through dist/hey: a program given to an interpreter on another fd and copied onto its
// stdin (`{ node 0<&3; } 3<<'EOF'`, `exec 3<<'EOF' …; node 0<&3`) ran under "bash: node $", and
// under `deny = ["bash: rm *"]` the same trick deleted a folder. Both are refused; the folder stays.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachScriptedRun } from "../helpers/scripted-run.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

const scripted = eachScriptedRun();
const CODE = 'require("fs").rmSync("victim", { recursive: true })';
const CALLS: [string, unknown][] = [
  ["bash", { command: `{ node 0<&3; } 3<<'EOF'\n${CODE}\nEOF` }],
  ["bash", { command: `exec 3<<'EOF'\n${CODE}\nEOF\nnode 0<&3` }],
  ["bash", { command: `exec 3<<<'${CODE}'; node <&3` }],
];

test.each([
  ['allow = ["bash: node $"]', "may run what it reads on stdin"],
  ['deny = ["bash: rm *"]', "deny entry `bash: rm *`"],
])("code copied onto node's stdin from fd 3 does not run under %s", async (list, why) => {
  const root = scripted.project.path;
  mkdirSync(join(root, "victim"));
  writeFileSync(join(root, "victim", "data.txt"), "precious\n");
  scripted.userConfig(`[permission]\n${list}\n`);
  scripted.calls = CALLS;
  const run = await runHey(["-p", "tidy up"], { cwd: root, env: { HOME: scripted.home.path } });
  expect(run.code).toBe(0);
  const got = scripted.results();
  expect(got).toHaveLength(CALLS.length);
  for (const result of got) {
    expect(result).toStartWith("blocked by permission rules:");
    expect(result).toContain(why);
  }
  expect(existsSync(join(root, "victim", "data.txt"))).toBe(true);
});
