// x5 #1 and #2 through dist/hey against a loopback model, under an allow list with `bash: find *`,
// `bash: xargs *` and `bash: cp *`: the agent writes a git config with an fsmonitor line, then
// copies it onto `.git/config` through find's `{}` and through xargs' input. Both are refused, so
// the `git status` after them runs no fsmonitor; a find of `src` feeding `sed -i`, by `-exec` and
// by xargs, still runs and edits the sources.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachScriptedRun } from "../helpers/scripted-run.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

const scripted = eachScriptedRun();

test("find -exec cp … {} and … | xargs cp are refused under an allow list, so git status runs no fsmonitor; find src feeding sed -i runs", async () => {
  const { home, project } = scripted;
  const allow = ["read_file", "grep", "write_file", "bash: git *", "bash: cp *", "bash: find *", "bash: xargs *", "bash: printf *", "bash: sed *"];
  scripted.userConfig(`[agent]\nparallel_tools = false\n[permission]\nallow = ${JSON.stringify(allow)}\n`);
  const git = (...args: string[]) =>
    expect(Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: project.path, env: { PATH: process.env.PATH! } }).exitCode).toBe(
      0,
    );
  git("init", "-q");
  mkdirSync(join(project.path, "src", "lib"), { recursive: true });
  writeFileSync(join(project.path, "src", "a.ts"), "export const v = 'old';\n");
  writeFileSync(join(project.path, "src", "lib", "b.ts"), "export const w = 'old';\n");
  const config = readFileSync(join(project.path, ".git", "config"), "utf8");
  const pwned = join(home.path, "PWNED_filled");
  scripted.calls = [
    ["write_file", { path: "src/cfg", content: `[core]\n\tfsmonitor = "touch ${pwned}; false"\n` }],
    ["bash", { command: "find . -name config -exec cp src/cfg {} \\;" }],
    ["bash", { command: "printf '.git/config\\n' | xargs cp src/cfg" }],
    ["bash", { command: "find src -name '*.ts' -exec sed -i s/old/new/ {} +" }],
    ["bash", { command: "find src -name '*.ts' | xargs sed -i s/new/newer/" }],
    ["bash", { command: "git status --short" }],
  ];
  const run = await runHey(["-p", "tidy up"], { cwd: project.path, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  const got = scripted.results();
  expect(got[1]).toBe(
    "blocked by permission rules: cannot verify `find . -name config -exec cp src/cfg {} \\;`: `cp` may write `{}`, which find fills in with each file it finds below `.`, which holds `./.git/config`, one of git's own files (git runs the commands its config and hooks name): search a folder that holds none of hey's or git's files (`find src …`) or filter them out (`-name '*.md'`), or name the files (a glob: `sed -i … *.md`)",
  );
  expect(got[2]).toBe(
    "blocked by permission rules: cannot verify `printf '.git/config\\n' | xargs cp src/cfg`: `cp` may write the words xargs appends, which xargs reads from what `printf '.git/config\\n'` prints, known only at run time: name the files in the command, or pipe a plain `find DIR` of a folder without hey's or git's files into xargs",
  );
  expect([got[3], got[4]].map((r) => r?.startsWith("blocked"))).toEqual([false, false]);
  expect(readFileSync(join(project.path, "src", "a.ts"), "utf8")).toBe("export const v = 'newer';\n");
  expect(readFileSync(join(project.path, "src", "lib", "b.ts"), "utf8")).toBe("export const w = 'newer';\n");
  expect(got[5]).not.toStartWith("blocked");
  expect(readFileSync(join(project.path, ".git", "config"), "utf8")).toBe(config);
  expect(existsSync(pwned)).toBe(false);
});

// r5 #2, #5: under a deny list alone find's own -delete deleted `.hey/config.toml` and `.git/config`; it is now judged
// by what the search reaches, while `-delete` of what reaches none of them, and `sed -f FILE`, run
test("find -delete that reaches .hey/config.toml or .git/config is refused under a deny list alone; -name '*.orig' -delete and sed -f run", async () => {
  const { home, project } = scripted;
  scripted.userConfig(`[agent]\nparallel_tools = false\n[permission]\ndeny = ["bash: curl *"]\n`);
  expect(Bun.spawnSync(["git", "init", "-q"], { cwd: project.path }).exitCode).toBe(0);
  mkdirSync(join(project.path, ".hey"), { recursive: true });
  mkdirSync(join(project.path, "src"), { recursive: true });
  const own = '[permission]\ndeny = ["bash: npm publish *"]\n';
  writeFileSync(join(project.path, ".hey", "config.toml"), own);
  writeFileSync(join(project.path, "README.md.orig"), "old\n");
  writeFileSync(join(project.path, "src", "a.ts"), "const foo = 1;\n");
  writeFileSync(join(project.path, "src", "fix.sed"), "s/foo/bar/\n");
  scripted.calls = [
    ["bash", { command: "find . -name config.toml -delete" }],
    ["bash", { command: "find . -name config -delete" }],
    ["bash", { command: "find . -name '*.orig' -delete" }],
    ["bash", { command: "sed -i -f src/fix.sed src/a.ts" }],
  ];
  const run = await runHey(["-p", "tidy up"], { cwd: project.path, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  const got = scripted.results();
  expect(got[0]).toBe(
    "blocked by permission rules: `find . -name config.toml -delete` may delete a file hey guards: `-delete` deletes each file it finds below `.`, which holds `./.hey/config.toml`, hey's own configuration or trust file: search a folder that holds none of hey's or git's files (`find src …`) or filter them out (`-name '*.md'`), or name the files (a glob: `sed -i … *.md`)",
  );
  expect(got[1]).toContain("which holds `./.git/config`, one of git's own files");
  expect([got[2], got[3]].map((r) => r?.startsWith("blocked"))).toEqual([false, false]);
  expect(readFileSync(join(project.path, ".hey", "config.toml"), "utf8")).toBe(own);
  expect(existsSync(join(project.path, ".git", "config"))).toBe(true);
  expect(existsSync(join(project.path, "README.md.orig"))).toBe(false);
  expect(readFileSync(join(project.path, "src", "a.ts"), "utf8")).toBe("const bar = 1;\n");
});
