// Through dist/hey against a loopback model, under `deny = ["bash: rm *"]`: the other ways to delete
// a file a model reaches for (`find -delete`, `unlink`, `git clean -f`, an interpreter's delete) are
// refused, naming the entry, and the files are still there; an ordinary command still runs. Under
// entries naming a directory, curl's POST and git reset --hard: emptying a file in it, a lowercase
// POST, gh api given fields, git restore. What hey reads off the disk: a file holding something is
// not emptied, a new or empty one is made; a package.json script that publishes is refused, as are
// the scripts of a workspace's packages an install runs and those of the package.json above a directory.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachScriptedRun } from "../helpers/scripted-run.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

const scripted = eachScriptedRun();
const { home, project } = scripted;

test("under deny rm *, find -delete, unlink, git clean -f and python's os.remove are refused and delete nothing", async () => {
  scripted.userConfig(`[permission]\ndeny = ["bash: rm *"]\n`);
  for (const name of ["a.tmp", "b.txt", "c.txt"]) writeFileSync(join(project.path, name), "keep\n");
  scripted.calls = [
    ["bash", { command: "find . -name '*.tmp' -delete" }],
    ["bash", { command: "unlink b.txt" }],
    ["bash", { command: "git clean -fdx" }],
    ["bash", { command: `python3 -c 'import os; os.remove("c.txt")'` }],
    ["bash", { command: "echo fine" }],
  ];
  const run = await runHey(["-p", "clean up"], { cwd: project.path, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  const got = scripted.results();
  expect(got.slice(0, 3)).toEqual([
    "blocked by permission rules: `find . -name '*.tmp' -delete` matches deny entry `bash: rm *` in ~/.config/hey/config.toml:8 by another name: find -delete removes the files it finds",
    "blocked by permission rules: `unlink b.txt` matches deny entry `bash: rm *` in ~/.config/hey/config.toml:8 by another name: unlink removes a file",
    "blocked by permission rules: `git clean -fdx` matches deny entry `bash: rm *` in ~/.config/hey/config.toml:8 by another name: git clean -f removes untracked files",
  ]);
  expect(got[3]).toBe(
    "blocked by permission rules: `python3 -c 'import os; os.remove(\"c.txt\")'` does what deny entry `bash: rm *` in ~/.config/hey/config.toml:8 refuses: its code calls `remove`",
  );
  expect(got[4]).toContain("fine");
  for (const name of ["a.tmp", "b.txt", "c.txt"]) expect({ name, there: existsSync(join(project.path, name)) }).toEqual({ name, there: true });
});

test("under deny rm -rf build, curl -X POST * and git reset --hard *, emptying a built file, a lowercase POST, gh api fields and git restore are refused", async () => {
  const deny = `["bash: rm -rf build", "bash: curl -X POST *", "bash: git reset --hard *"]`;
  scripted.userConfig(`[permission]\ndeny = ${deny}\n`);
  mkdirSync(join(project.path, "build"));
  writeFileSync(join(project.path, "build", "app.js"), "keep\n");
  scripted.calls = [
    ["bash", { command: ": > build/app.js" }],
    ["bash", { command: "curl -X post http://127.0.0.1:9/x" }],
    ["bash", { command: "gh api repos/o/r/issues -f title=x" }],
    ["bash", { command: "git restore ." }],
    ["bash", { command: "echo fine" }],
  ];
  const run = await runHey(["-p", "tidy up"], { cwd: project.path, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  const got = scripted.results();
  expect(got.slice(0, 4)).toEqual([
    "blocked by permission rules: `: > build/app.js` does what deny entry `bash: rm -rf build` in ~/.config/hey/config.toml:8 refuses: it empties `build/app.js` (the entry names `build`)",
    "blocked by permission rules: `curl -X post http://127.0.0.1:9/x` matches deny entry `bash: curl -X POST *` in ~/.config/hey/config.toml:8",
    "blocked by permission rules: `gh api repos/o/r/issues -f title=x` does what deny entry `bash: curl -X POST *` in ~/.config/hey/config.toml:8 refuses: gh api sends a POST when given `-f` and no method",
    "blocked by permission rules: `git restore .` does what deny entry `bash: git reset --hard *` in ~/.config/hey/config.toml:8 refuses: git restore overwrites the working tree's changes to the files it names",
  ]);
  expect(got[4]).toContain("fine");
  expect(readFileSync(join(project.path, "build", "app.js"), "utf8")).toBe("keep\n");
});

test("under deny rm * and npm publish *, hey looks at the disk and at package.json: emptying notes.txt and a release script that publishes are refused; a new file, an empty .gitkeep and the build script run", async () => {
  const deny = `["bash: rm *", "bash: npm publish *"]`;
  scripted.userConfig(`[permission]\ndeny = ${deny}\n`);
  mkdirSync(join(project.path, "build"));
  writeFileSync(join(project.path, "notes.txt"), "keep\n");
  writeFileSync(join(project.path, "build", ".gitkeep"), "");
  writeFileSync(join(project.path, "package.json"), JSON.stringify({ scripts: { build: "echo built", release: "npm run build && np --yolo" } }));
  scripted.calls = [
    ["bash", { command: ": > notes.txt" }],
    ["bash", { command: "npm run release" }],
    ["bash", { command: ": > new.txt && : > build/.gitkeep && echo made" }],
  ];
  const run = await runHey(["-p", "tidy up"], { cwd: project.path, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  const got = scripted.results();
  expect(got.slice(0, 2)).toEqual([
    "blocked by permission rules: `: > notes.txt` does what deny entry `bash: rm *` in ~/.config/hey/config.toml:8 refuses: it empties `notes.txt`",
    "blocked by permission rules: `npm run release` runs package.json's script `release` (`npm run build && np --yolo`): `np --yolo` matches deny entry `bash: npm publish *` in ~/.config/hey/config.toml:8 by another name: np publishes to npm",
  ]);
  expect(got[2]).toContain("made");
  expect(readFileSync(join(project.path, "notes.txt"), "utf8")).toBe("keep\n");
  expect(existsSync(join(project.path, "new.txt"))).toBe(true);
});

test("under deny rm *, an install at a workspace's root is refused for a package's prepare, and a script run from a directory without package.json for the one above", async () => {
  scripted.userConfig(`[permission]\ndeny = ["bash: rm *"]\n`);
  mkdirSync(join(project.path, "packages", "ui"), { recursive: true });
  mkdirSync(join(project.path, "src"));
  writeFileSync(join(project.path, "package.json"), JSON.stringify({ workspaces: ["packages/*"], scripts: { clean: "rm -rf dist" } }));
  writeFileSync(join(project.path, "packages", "ui", "package.json"), JSON.stringify({ scripts: { prepare: "rm -rf dist && tsc" } }));
  scripted.calls = [
    ["bash", { command: "npm install" }],
    ["bash", { command: "cd src && bun run clean" }],
    ["bash", { command: "echo fine" }],
  ];
  const run = await runHey(["-p", "set up"], { cwd: join(project.path, "src"), env: { HOME: home.path } });
  expect(run.code).toBe(0);
  const got = scripted.results();
  expect(got.slice(0, 2)).toEqual([
    `blocked by permission rules: \`npm install\` runs ${join(project.path, "packages", "ui", "package.json")}'s script \`prepare\` (\`rm -rf dist && tsc\`): \`rm -rf dist\` matches deny entry \`bash: rm *\` in ~/.config/hey/config.toml:8`,
    `blocked by permission rules: \`bun run clean\` runs ${join(project.path, "package.json")}'s script \`clean\` (\`rm -rf dist\`): \`rm -rf dist\` matches deny entry \`bash: rm *\` in ~/.config/hey/config.toml:8`,
  ]);
  expect(got[2]).toContain("fine");
});
