// A project moved or renamed while hey runs (x136): hey kept working at the old path, and the next
// write made the tree again there — a ghost holding only the agent's file, where bash then ran —
// while the moved project got nothing. Now the write and the command are refused with one line
// naming where the project went. Through dist/hey with a scripted model whose bash runs the `mv`.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, runHey } from "../helpers/e2e.ts";
import { eachModelServers, eachTempDir, writeUserConfig } from "../helpers/fixtures.ts";
import { resultText } from "../helpers/model-server.ts";

setDefaultTimeout(120_000);

const base = eachTempDir("hey-moved-project-");
const model = eachModelServers();

test("the project moved by the agent's bash: the next write_file and bash are refused naming where it went, and no ghost appears at the old path", async () => {
  await ensureBinary();
  const [before, after] = [join(realpathSync(base.path), "p6"), join(realpathSync(base.path), "p6b")];
  mkdirSync(before);
  Bun.spawnSync(["git", "init", "-q", before]);
  writeFileSync(join(before, "a.txt"), "a\n");
  const skill = "---\nname: wtskill\ndescription: a skill\n---\nsteps\n";
  const m = model((req) => {
    const done = req.messages.filter((x) => x.role === "tool").length;
    if (done === 0) return { calls: [["bash", { command: `mv ${before} ${after} && echo moved` }]] };
    if (done === 1) return { calls: [["write_file", { path: ".hey/skills/wtskill/SKILL.md", content: skill }]] };
    if (done === 2) return { calls: [["bash", { command: "pwd; ls -a" }]] };
    return {
      text: req.messages
        .filter((x) => x.role === "tool")
        .map(resultText)
        .join("\n---\n"),
    };
  });
  writeUserConfig(base.path, `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${m.baseUrl}"\nmodels = ["m"]\n`);
  const run = await runHey(["-p", "move the project, then add a skill"], { env: { HOME: base.path }, cwd: before, timeoutMs: 90_000 });
  const [moved, write, bash] = run.stdout.trim().split("\n---\n");
  expect(moved).toContain("moved");
  const line = `the project moved: ${before} no longer exists (now ${after}?) — restart hey there`;
  expect(write).toBe(`write_file: .hey/skills/wtskill/SKILL.md not written: ${line}`);
  expect(bash).toBe(`bash: not run: ${line}`);
  expect(existsSync(before)).toBe(false); // no ghost
  expect(readdirSync(after).sort()).toEqual([".git", "a.txt"]);
});
