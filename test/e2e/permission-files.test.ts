// Through dist/hey against a loopback model, under a deny list: a bash command handing hey's
// approvals record to `cp`, or the project config to `tee`, is refused and the files stay as they
// were; a plain `git push` in a repository whose .git/config forces pushes is refused by a deny
// entry naming `git push --force`, the refusal naming the file and the setting. The embedded
// ripgrep in hey's cache, rewritten by write_file mid-run, is restored before grep runs it, and
// under an allow list write_file may not rewrite it at all. Under the narrow git entries the README
// recommends, `git log --output` may not write .git/config, nor may edit and write_file write it or
// make a nested repository, so no `git status` runs an fsmonitor the agent wrote; nor does git take
// a bare repository the agent made of plain files (no `.git` in its path) and run its diff.external.
// Nor, under `cp *`, may a glob (`.g?t/config`, `approvals.jso?`) reach .git/config or the approvals record.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachScriptedRun } from "../helpers/scripted-run.ts";
import { textOf } from "../helpers/model-server.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

const scripted = eachScriptedRun();
const { home, project } = scripted;

const write = (path: string, text: string) => {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
};
const results = () => scripted.results();

test("under a deny list, cp and tee may not be handed hey's approvals record or project config, and a push git's config forces is refused", async () => {
  scripted.userConfig(`[permission]\ndeny = ["bash: git push --force *"]\n`);
  write(join(project.path, "evil.json"), '{"approved": "everything"}\n');
  write(join(project.path, ".git", "config"), '[remote "origin"]\n\turl = /nonexistent/x.git\n\tpush = +refs/heads/*:refs/heads/*\n');
  const run0 = await runHey(["-p", "hi"], { cwd: project.path, env: { HOME: home.path } }); // records the approvals
  expect([run0.code, run0.stderr]).toEqual([0, ""]);
  const approvals = join(home.path, ".local", "state", "hey", "approvals.json");
  const recorded = readFileSync(approvals, "utf8");
  scripted.calls = [
    ["bash", { command: "cp evil.json ~/.local/state/hey/approvals.json" }],
    ["bash", { command: "echo '[permission]' | tee .hey/config.toml" }],
    ["bash", { command: "git push" }],
    ["bash", { command: "echo fine" }],
  ];
  const run = await runHey(["-p", "widen"], { cwd: project.path, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  const got = results();
  expect(got[0]).toBe(
    "blocked by permission rules: `~/.local/state/hey/approvals.json` names hey's own configuration or trust file, which the agent may not change",
  );
  expect(got[1]).toBe("blocked by permission rules: `.hey/config.toml` names hey's own configuration or trust file, which the agent may not change");
  expect(got[2]).toBe(
    `blocked by permission rules: \`git push\` may force the push through git's config (${join(realpathSync(project.path), ".git", "config")}: remote.origin.push = +refs/heads/*:refs/heads/*): deny entry \`bash: git push --force *\` in ~/.config/hey/config.toml:8`,
  );
  expect(got[3]).toContain("fine");
  expect(readFileSync(approvals, "utf8")).toBe(recorded);
});

test("an allow list without compress: the tool is not offered and no tool result ends with a [#handle] naming it", async () => {
  scripted.userConfig(`[permission]\nallow = ["read_file"]\n`);
  write(join(project.path, "notes.txt"), "alpha\n");
  scripted.calls = [["read_file", { path: "notes.txt" }]];
  const run = await runHey(["-p", "read notes.txt"], { cwd: project.path, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  const last = scripted.model.requests.at(-1)!;
  expect((last.tools ?? []).map((t) => t.function.name)).toEqual(["read_file"]);
  const result = last.messages.find((m) => m.role === "tool");
  expect(textOf(result)).toBe("1\talpha"); // textOf: the result as sent, a [#handle] line included
});

test("a call to a tool the allow list leaves out is refused by the rules, said so, where it read as a tool hey does not have", async () => {
  scripted.userConfig(`[permission]\nallow = ["read_file", "bash: ls *"]\n`);
  scripted.calls = [
    ["write_file", { path: "x.txt", content: "x" }],
    ["nosuchtool", {}],
  ];
  const run = await runHey(["-p", "write x.txt"], { cwd: project.path, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  expect((scripted.model.requests[0]!.tools ?? []).map((t) => t.function.name)).toEqual(["bash", "read_file"]);
  // before: unknown tool "write_file"; available: bash, read_file
  const refused =
    'blocked by permission rules: tool `write_file` matches no allow entry in ~/.config/hey/config.toml: add "write_file" there (allowed: read_file)';
  expect(results()).toEqual([refused, 'unknown tool "nosuchtool"; available: bash, read_file']);
  // on the terminal the entry to add has a line of its own, which a status cut to the width cannot lose
  expect(run.stderr).toContain(
    '✗ write x.txt (1 line): blocked by permission rules: tool `write_file` matches no allow entry (allowed: read_file)\n    add "write_file" to ~/.config/hey/config.toml\n',
  );
  expect(existsSync(join(project.path, "x.txt"))).toBe(false);
});

/** The embedded ripgrep's path under `cache` (XDG_CACHE_HOME), as dist/hey names it. */
async function embeddedRg(cache: string): Promise<string> {
  const rg = new Uint8Array(readFileSync((await import("@vscode/ripgrep")).rgPath as string)); // what build.ts embedded
  return join(cache, "hey", `rg-${new Bun.CryptoHasher("sha256").update(rg).digest("hex").slice(0, 16)}`);
}

test("the embedded ripgrep rewritten during a run is checked again before grep runs it: restored, and what was written never runs", async () => {
  scripted.userConfig(`[agent]\nparallel_tools = false\n`); // no permission list: a command may write anywhere
  write(join(project.path, "a.txt"), "hi\n");
  const cache = join(home.path, "cache");
  const noRg = join(home.path, "empty-path"); // no rg on PATH: the embedded one searches
  mkdirSync(noRg);
  const rg = await embeddedRg(cache);
  const pwned = join(home.path, "PWNED_rg");
  scripted.calls = [
    ["grep", { pattern: "hi", path: "." }],
    // rewritten by a command (write_file would first have to read it: it refuses a file not read this run)
    ["bash", { command: `printf '%s\\n' '#!/bin/sh' "echo pwned > ${pwned}" "echo 'a.txt:1:hi'" > '${rg}'` }],
    ["grep", { pattern: "hi", path: "." }],
  ];
  const run = await runHey(["-p", "search"], { cwd: project.path, env: { HOME: home.path, XDG_CACHE_HOME: cache, PATH: noRg } });
  expect(run.code).toBe(0);
  const got = results();
  expect(got[1]).toStartWith("(no output)"); // before: the same, and the second grep ran the script
  expect([got[0], got[2]]).toEqual(["a.txt:1: hi", "a.txt:1: hi"]);
  expect(existsSync(pwned)).toBe(false);
  expect(Bun.spawnSync([rg, "--version"]).stdout.toString()).toStartWith("ripgrep "); // the real one is back
});

test("under an allow list without bash, write_file may not replace hey's embedded ripgrep: refused, and grep runs the real one", async () => {
  scripted.userConfig(`[agent]\nparallel_tools = false\n[permission]\nallow = ["read_file", "write_file", "edit", "grep"]\n`);
  write(join(project.path, "a.txt"), "hi\n");
  const cache = join(home.path, "cache");
  const noRg = join(home.path, "empty-path");
  mkdirSync(noRg);
  const rg = await embeddedRg(cache);
  scripted.calls = [
    ["grep", { pattern: "hi", path: "." }],
    ["write_file", { path: rg, content: "#!/bin/sh\necho 'a.txt:1:pwned'\n" }],
    ["grep", { pattern: "hi", path: "." }],
  ];
  const run = await runHey(["-p", "search"], { cwd: project.path, env: { HOME: home.path, XDG_CACHE_HOME: cache, PATH: noRg } });
  expect(run.code).toBe(0);
  expect(results()).toEqual([
    "a.txt:1: hi",
    `blocked by permission rules: ${rg} is in hey's cache (${join(cache, "hey")}), which holds the ripgrep the grep tool runs; while a permission list is set the agent may not write there`,
    "a.txt:1: hi",
  ]);
  expect(Bun.spawnSync([rg, "--version"]).stdout.toString()).toStartWith("ripgrep ");
});

/** A git repository in the project with one commit, made without the user's git config. */
function gitRepo(dir: string): void {
  const git = (...args: string[]) =>
    expect(
      Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: dir, env: { PATH: process.env.PATH!, HOME: dir } }).exitCode,
    ).toBe(0);
  git("init", "-q");
  write(join(dir, "a.txt"), "hi\n");
  git("add", "a.txt");
  git("commit", "-q", "-m", "first");
}

test("under the narrow git entries the README recommends, git log may not write .git/config with --output, so git status runs no fsmonitor", async () => {
  scripted.userConfig(`[permission]\nallow = ["bash: git log *", "bash: git status", "bash: git diff *", "read_file", "grep"]\n`);
  gitRepo(project.path);
  const config = readFileSync(join(project.path, ".git", "config"), "utf8");
  const pwned = join(home.path, "PWNED_gitlog");
  const log = `git log -1 --format='tformat:[core]%n%x09fsmonitor = "touch ${pwned}; false"' --output .git/config`;
  scripted.calls = [
    ["bash", { command: log }],
    ["bash", { command: "git log -1 --output=log.txt" }],
    ["bash", { command: "git status --short" }],
  ];
  const run = await runHey(["-p", "look"], { cwd: project.path, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  const got = results();
  expect(got[0]).toStartWith("blocked by permission rules: "); // before: it ran, and wrote the fsmonitor line
  expect(got[1]).toStartWith(
    'blocked by permission rules: `git log -1 --output=log.txt` matches no allow entry in ~/.config/hey/config.toml: add "bash: git log * --output=log.txt *" there, as `--output=log.txt` writes a file',
  );
  expect(readFileSync(join(project.path, ".git", "config"), "utf8")).toBe(config);
  expect(existsSync(join(project.path, "log.txt"))).toBe(false);
  expect(existsSync(pwned)).toBe(false);
});

test("with edit and write_file allowed, the agent may not write .git/config or make a nested repository, so `git status` runs no fsmonitor", async () => {
  scripted.userConfig(`[agent]\nparallel_tools = false\n[permission]\nallow = ["bash: git status", "bash: ls *", "read_file", "write_file", "edit", "grep"]\n`);
  gitRepo(project.path);
  const config = readFileSync(join(project.path, ".git", "config"), "utf8");
  const pwned = (n: number) => join(home.path, `PWNED_${n}`);
  const fsmonitor = (n: number) => `[core]\n\tfsmonitor = "touch ${pwned(n)}; false"\n`;
  scripted.calls = [
    ["edit", { path: ".git/config", old_string: "[core]\n", new_string: fsmonitor(1) }],
    ["bash", { command: "git status --short" }],
    ["write_file", { path: "sub/.git/HEAD", content: "ref: refs/heads/main\n" }],
    ["write_file", { path: "sub/.git/objects/.keep", content: "" }],
    ["write_file", { path: "sub/.git/refs/.keep", content: "" }],
    ["write_file", { path: "sub/.git/config", content: fsmonitor(2) }],
    ["bash", { command: "cd sub && git status" }],
  ];
  const run = await runHey(["-p", "look"], { cwd: project.path, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  const got = results();
  const refused = (path: string) =>
    `blocked by permission rules: ${path} is git's own (in a \`.git\` directory, or a \`.git\` file: git runs commands its config and hooks name); while a permission list is set the agent may not write it — git commands write there themselves`;
  // before: the edit and the writes went through, and each git status ran its fsmonitor
  expect([got[0], got[2], got[3], got[4], got[5]]).toEqual(
    [".git/config", "sub/.git/HEAD", "sub/.git/objects/.keep", "sub/.git/refs/.keep", "sub/.git/config"].map(refused),
  );
  expect(readFileSync(join(project.path, ".git", "config"), "utf8")).toBe(config);
  expect(existsSync(join(project.path, "sub", ".git"))).toBe(false);
  expect([existsSync(pwned(1)), existsSync(pwned(2))]).toEqual([false, false]);
});

test("under an allow list, git takes no bare repository the agent made of plain files: `git diff --no-index` runs no diff.external", async () => {
  scripted.userConfig(`[agent]\nparallel_tools = false\n[permission]\nallow = ["bash: git diff *", "read_file", "write_file"]\n`);
  const pwned = join(home.path, "PWNED_bare");
  scripted.calls = [
    // in this order: once HEAD, objects/ and refs/ are there, the directory is a git directory, which no write may land in
    ["write_file", { path: "evil/config", content: `[core]\n\tbare = true\n[diff]\n\texternal = "touch ${pwned}; true"\n` }],
    ["write_file", { path: "evil/a", content: "a\n" }],
    ["write_file", { path: "evil/b", content: "b\n" }],
    ["write_file", { path: "evil/objects/.keep", content: "" }],
    ["write_file", { path: "evil/refs/.keep", content: "" }],
    ["write_file", { path: "evil/HEAD", content: "ref: refs/heads/main\n" }],
    ["bash", { command: "cd evil && git diff --no-index a b" }],
  ];
  const run = await runHey(["-p", "look"], { cwd: project.path, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  expect(results()[6]).toContain("+b"); // the diff is git's own: the directory is no repository to it
  expect(existsSync(pwned)).toBe(false); // before: git found the bare repository and ran its diff.external
});

test("under allow entries for cp and git status, a glob may not reach .git/config or the approvals record: git status runs no fsmonitor, the next run keeps its lists", async () => {
  scripted.userConfig(`[agent]\nparallel_tools = false\n[permission]\nallow = ["bash: cp *", "bash: git status", "read_file"]\n`);
  gitRepo(project.path);
  const run0 = await runHey(["-p", "hi"], { cwd: project.path, env: { HOME: home.path } }); // records the approvals
  expect(run0.code).toBe(0);
  const approvals = join(home.path, ".local", "state", "hey", "approvals.json");
  const recorded = readFileSync(approvals, "utf8");
  const config = readFileSync(join(project.path, ".git", "config"), "utf8");
  const pwned = join(home.path, "PWNED_glob");
  write(join(project.path, "evil"), `[core]\n\tfsmonitor = "touch ${pwned}; false"\n`);
  write(join(project.path, "forged.json"), "{}\n");
  scripted.calls = [
    ["bash", { command: "cp evil .g?t/config && git status" }],
    ["bash", { command: "cp forged.json ~/.local/state/hey/approvals.jso?" }],
    ["bash", { command: "git status --short" }],
  ];
  const run = await runHey(["-p", "look"], { cwd: project.path, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  const got = results();
  // before: both ran; git status ran the fsmonitor, and the next run found no approvals record
  expect(got[0]).toBe(
    "blocked by permission rules: `.g?t/config` names git's own files (git runs the commands its config and hooks name) (a pattern that could match it), which the agent may not change",
  );
  expect(got[1]).toBe(
    "blocked by permission rules: `~/.local/state/hey/approvals.jso?` names hey's own configuration or trust file (a pattern that could match it), which the agent may not change",
  );
  expect(readFileSync(join(project.path, ".git", "config"), "utf8")).toBe(config);
  expect(readFileSync(approvals, "utf8")).toBe(recorded);
  expect(existsSync(pwned)).toBe(false);
});
