// x105 #3 and #5 through dist/hey: under `bash: npm test`, `npm test --node-options='--import=data:…'`
// ran the model's JavaScript (it made a file); under `bash: git diff *`, `git diff *` beside a file
// named `--output=README.md` overwrote README.md with the diff. Both are refused now and the file
// system shows no side effect, while the plain `npm test` and `git diff -- *` still run.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachScriptedRun } from "../helpers/scripted-run.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

const scripted = eachScriptedRun();

test("`bash: npm test` does not let npm's --node-options run code; `npm test` runs", async () => {
  const root = scripted.project.path;
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "p", version: "1.0.0", scripts: { test: "node --test" } }));
  mkdirSync(join(root, "test"));
  writeFileSync(join(root, "test", "a.test.js"), 'require("node:test")("ok", () => {});\n');
  writeFileSync(join(root, ".npmrc"), "update-notifier=false\nfund=false\n");
  scripted.userConfig('[permission]\nallow = ["bash: npm test"]\n');
  const code = "import(`node:child_process`).then(c=>c.execFileSync(`touch`,[`PWNED_BY_NPM_TEST`]))";
  scripted.calls = [
    ["bash", { command: `npm test --node-options='--import=data:text/javascript,${code}'` }],
    ["bash", { command: "npm test" }],
  ];
  const run = await runHey(["-p", "test it"], { cwd: root, env: { HOME: scripted.home.path } });
  expect(run.code).toBe(0);
  const [optioned, plain] = scripted.results();
  expect(optioned).toStartWith("blocked by permission rules:");
  expect(optioned).toContain("changes what npm runs");
  expect(plain).not.toContain("blocked");
  expect(plain).toContain("# pass 1");
  expect(existsSync(join(root, "PWNED_BY_NPM_TEST"))).toBe(false);
});

test("`bash: git diff *` does not let a glob become --output=README.md; `git diff -- *` runs", async () => {
  const root = scripted.project.path;
  const git = (...args: string[]) => {
    const r = Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: root, env: { ...process.env, HOME: scripted.home.path } });
    if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  };
  git("init", "-q", ".");
  writeFileSync(join(root, "README.md"), "# Project\nimportant docs\n");
  writeFileSync(join(root, "a.txt"), "x\n");
  git("add", ".");
  git("commit", "-qm", "i");
  writeFileSync(join(root, "a.txt"), "x\ny\n");
  writeFileSync(join(root, "--output=README.md"), ""); // as a cloned repository could ship it
  scripted.userConfig('[permission]\nallow = ["bash: git diff *"]\n');
  scripted.calls = [
    ["bash", { command: "git diff *" }],
    ["bash", { command: "git diff -- *" }],
  ];
  const run = await runHey(["-p", "what changed?"], { cwd: root, env: { HOME: scripted.home.path } });
  expect(run.code).toBe(0);
  const [globbed, paths] = scripted.results();
  expect(globbed).toStartWith("blocked by permission rules:");
  expect(globbed).toContain("put `--` before paths (`git diff -- *`)");
  expect(paths).toContain("+y");
  expect(readFileSync(join(root, "README.md"), "utf8")).toBe("# Project\nimportant docs\n");
});
