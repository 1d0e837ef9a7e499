// x157 #1, #2, #6 against the real programs: each copy the checker now refuses does, run by bash
// with the real cp in a fresh copy of the fixture (a home holding hey's files, a project holding a
// link into it), replace a control file. So the refusals are not of harmless spellings.
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { testNeeding } from "../helpers/tools.ts";
import { controlFixture, snapshot } from "./control-corpus.ts";

const tmp = tempDir("hey-control-x157-real-");
afterAll(() => tmp.remove());
const root = realpathSync(tmp.path);
const T = join(root, "x");
// what the copies bring: hey's folder, a home's `.config` and `.local/state`, a file
for (const d of [join(T, "hey"), join(T, ".config", "hey"), join(T, ".local", "state", "hey")]) mkdirSync(d, { recursive: true });
for (const f of [
  join("hey", "config.toml"),
  join("hey", "approvals.json"),
  join(".config", "hey", "config.toml"),
  join(".local", "state", "hey", "approvals.json"),
  "evil",
])
  writeFileSync(join(T, f), "# PWNED\n");

const ATTACKS = [
  `shopt -s nocaseglob; cp ${T}/evil ~/.config/hey/CONFIG.TOM?`,
  `shopt -s nocaseglob; rm ~/.local/state/hey/APPROVALS.JSO?`,
  `shopt -s dot''glob; cp -r ${T}/?config ~/`,
  `cp -r ${T}/hey st/`,
  // x165 #2: a destination glob matching the link
  `cp -r ${T}/hey s?/`,
  `cp -r ${T}/hey s[t]/`,
  `cp -r ${T}/hey st*/`,
  `cp -r ${T}/hey hm/.local/state/`,
  `cd ${T} && cp -r --parents .local/state ~`,
];

testNeeding(["bash", "cp"])("each copy of x157 the checker now refuses does change a control file when bash runs it", () => {
  const dead: string[] = [];
  for (const command of ATTACKS) {
    rmSync(join(root, "f"), { recursive: true, force: true });
    const { home, project, controls } = controlFixture(join(root, "f"));
    symlinkSync(home, join(project, "hm"));
    symlinkSync(join(home, ".local", "state"), join(project, "st"));
    const check = permissionCheck({ allow: [], deny: ["bash: curl *"], narrow: [] }, "bash", { cwd: project, home, controls });
    expect(check("bash", { command }) ?? `allowed: ${command}`).toMatch(/^blocked by permission rules/);
    const before = snapshot(controls);
    Bun.spawnSync(["bash", "-c", command], { cwd: project, env: { PATH: process.env.PATH, HOME: home }, stdout: "ignore", stderr: "ignore" });
    if (JSON.stringify(snapshot(controls)) === JSON.stringify(before)) dead.push(command);
  }
  expect(dead).toEqual([]);
});

test("a copy into a glob the project's link matches is refused however the copier is spelled, and one into a plain project folder runs (x165 #2)", () => {
  rmSync(join(root, "f"), { recursive: true, force: true });
  const { home, project, controls } = controlFixture(join(root, "f"));
  symlinkSync(join(home, ".local", "state"), join(project, "st"));
  mkdirSync(join(project, "src"), { recursive: true });
  const check = permissionCheck({ allow: [], deny: ["bash: curl *"], narrow: [] }, "bash", { cwd: project, home, controls });
  for (const command of [`rsync -a ${T}/hey st*/`, `rsync -a ${T}/hey/ s?/hey/`, `cp -r ${T}/hey {st,x}/`, `cp -rt s? ${T}/hey`])
    expect([command, check("bash", { command }) ?? "allowed"]).toEqual([command, expect.stringMatching(/^blocked by permission rules: .*approvals\.json/)]);
  for (const command of [`cp -r ${T}/hey s[r]c/`, `rsync -a ${T}/hey sr*/`]) expect([command, check("bash", { command })]).toEqual([command, undefined]);
});
