// Plan mode ("changes nothing") runs no program a repository's own config names (x67 #1): the
// agent's `git status`, `git diff`, `git log -p` run without the repository's `core.fsmonitor`,
// textconv driver, `diff.external` or clean filter (its own, or one `cd DIR` names), and `cd tools && git status` in a clone does not
// take a committed `tools/` for a bare repository. The environment follows the mode at each call:
// turned on mid-session it holds from the next command, turned off git is the user's again.
// Real git, real repositories; before, each program touched its marker file.
import { expect, setDefaultTimeout } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { fileReplayServer, fileTempDir } from "../helpers/fixtures.ts";
import { embeddedBareClone, hostileRepo, hostileSubmodules, marksIn } from "../helpers/hostile-git.ts";
import { testNeeding } from "../helpers/tools.ts";
import { answer, lastLine, replTerms, toolCalls } from "./repl-helpers.ts";

setDefaultTimeout(120_000); // the first test may build dist/hey

const server = fileReplayServer();
const { open } = replTerms(server);
const work = fileTempDir("hey-plan-git-");
const args = ["--base-url", `${server.url}/v1`, "-m", "mock-model"];
const resultsOf = (i: number) =>
  (server.requests[i]!.body as { messages: { role: string; content: unknown }[] }).messages
    .filter((m) => m.role === "tool")
    .map((m) => JSON.stringify(m.content));

testNeeding(["git"])("hey --plan -p: git status, diff and log -p in a hostile repository run none of its programs, and still answer", async () => {
  const { repo, marks } = hostileRepo(join(work.path, "one"));
  const first = server.requests.length;
  server.enqueue(toolCalls([["bash", { command: "git status --short && git diff && git log -p -1" }]]), answer("Read it."));
  server.enqueue(toolCalls([["bash", { command: "cd repo && git diff" }]]), answer("Read that."));
  const run = await runHey([...args, "--plan", "-p", "what changed?"], { cwd: repo, env: { HOME: work.path } });
  const from = await runHey([...args, "--plan", "-p", "and there?"], { cwd: join(work.path, "one"), env: { HOME: work.path } }); // another repository, by its name
  expect(from).toMatchObject({ code: 0, stdout: "Read that.\n" });
  expect(run).toMatchObject({ code: 0, stdout: "Read it.\n" });
  expect(marksIn(marks)).toEqual([]);
  const [result] = resultsOf(first + 1);
  expect(result).toContain("M a.txt");
  expect(result).toContain("+changed too"); // b.dat's diff, as git shows it without the repository's textconv
  expect(resultsOf(first + 3)[0]).toContain("+changed too");
});

testNeeding(["git"])(
  "hey --plan -p with submodules (x81): git status and git diff --submodule=diff run no program their own config names; git remote show runs no core.gitProxy",
  async () => {
    const { repo, marks } = hostileSubmodules(join(work.path, "subs"));
    const proxy = join(work.path, "subs", "proxy.sh");
    writeFileSync(proxy, `#!/bin/sh\ntouch '${join(marks, "gitproxy")}'\n`, { mode: 0o755 });
    Bun.spawnSync(["git", "config", "core.gitProxy", proxy], { cwd: repo });
    Bun.spawnSync(["git", "remote", "add", "origin", "git://127.0.0.1:44352/x.git"], { cwd: repo }); // nothing listens there
    const first = server.requests.length;
    server.enqueue(toolCalls([["bash", { command: "git status --short && git diff --submodule=diff; git remote show origin" }]]), answer("Read it."));
    const run = await runHey([...args, "--plan", "-p", "what changed?"], { cwd: repo, env: { HOME: work.path } });
    expect(run).toMatchObject({ code: 0, stdout: "Read it.\n" });
    expect(marksIn(marks)).toEqual([]);
    const [result] = resultsOf(first + 1);
    expect(result).toContain("Submodule deep contains modified content");
    expect(result).toContain("+two");
  },
);

testNeeding(["git"])("hey --plan -p in a clone: `cd tools && git status` is refused by git, and the committed config's fsmonitor does not run", async () => {
  const { clone, marks } = embeddedBareClone(join(work.path, "two"));
  const first = server.requests.length;
  server.enqueue(toolCalls([["bash", { command: "cd tools && git status" }]]), answer("Looked."));
  const run = await runHey([...args, "--plan", "-p", "summarize"], { cwd: clone, env: { HOME: work.path } });
  expect(run.code).toBe(0);
  expect(marksIn(marks)).toEqual([]);
  expect(resultsOf(first + 1)[0]).toContain("safe.bareRepository");
});

testNeeding(["git"])("/plan turned on mid-session guards the next git command; /plan off gives git back its usual config", async () => {
  const { repo, marks } = hostileRepo(join(work.path, "three"));
  const term = await open({ cwd: repo, env: { HOME: work.path } });
  await term.type("/plan");
  await term.keys("Enter");
  await term.waitFor((s) => lastLine(s) === "plan ›");
  server.enqueue(toolCalls([["bash", { command: "git status --short" }]]), answer("Planned."));
  await term.type("look");
  await term.keys("Enter");
  await term.waitFor((s) => s.includes("Planned.") && lastLine(s) === "plan ›");
  expect(marksIn(marks)).toEqual([]);
  await term.type("/plan off");
  await term.keys("Enter");
  await term.waitFor((s) => lastLine(s) === "›");
  server.enqueue(toolCalls([["bash", { command: "git status --short" }]]), answer("Done."));
  await term.type("go");
  await term.keys("Enter");
  await term.waitFor((s) => s.includes("Done.") && lastLine(s) === "›");
  expect(marksIn(marks)).toContain("fsmonitor"); // outside plan mode the repository's config is git's as ever
});

testNeeding(["git"])(
  "hey --plan -p on git before 2.26, a 2 MB config include and .git/modules/x -> /: git status runs, and the driver past the include does not",
  async () => {
    const { repo, marks } = hostileRepo(join(work.path, "old-git"));
    const touch = `sh -c 'touch ${join(marks, "hidden")}; cat'`;
    writeFileSync(join(repo, ".git", "big.inc"), `${"# padding\n".repeat(200_000)}[diff "evil"]\n\ttextconv = ${JSON.stringify(touch)}\n`);
    Bun.spawnSync(["git", "config", "--add", "include.path", "big.inc"], { cwd: repo });
    Bun.spawnSync(["mkdir", "-p", join(repo, ".git", "modules")]);
    Bun.spawnSync(["ln", "-s", "/", join(repo, ".git", "modules", "x")]);
    const bin = join(work.path, "old-git-bin");
    Bun.spawnSync(["mkdir", "-p", bin]);
    const refuse = `case " $* " in *" --show-scope "*) echo "error: unknown option \\\`show-scope'" >&2; exit 129;; esac\n`;
    writeFileSync(join(bin, "git"), `#!/bin/sh\n${refuse}exec '${Bun.which("git")}' "$@"\n`, { mode: 0o755 });
    const first = server.requests.length;
    server.enqueue(toolCalls([["bash", { command: "git status --short && git diff" }]]), answer("Read it."));
    const run = await runHey([...args, "--plan", "-p", "what changed?"], { cwd: repo, env: { HOME: work.path, PATH: `${bin}:${process.env.PATH}` } });
    expect(run).toMatchObject({ code: 0, stdout: "Read it.\n" });
    const [result] = resultsOf(first + 1);
    expect(result).toContain("M a.txt");
    expect(result).not.toContain("no git runs");
    expect(marksIn(marks)).toEqual([]);
  },
);
