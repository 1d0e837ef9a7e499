// A project moved or renamed while hey runs (x136): hey kept working at the old path, and the next
// write made the tree again there — a ghost holding only the agent's file, where bash then ran —
// while the moved project got nothing. Now the write and the command are refused with one line
// naming where the project went. Through dist/hey with a scripted model whose bash runs the `mv`.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, runHey } from "../helpers/e2e.ts";
import { eachModelServers, eachTempDir, writeUserConfig } from "../helpers/fixtures.ts";
import { resultText } from "../helpers/model-server.ts";

setDefaultTimeout(120_000);

const base = eachTempDir("hey-moved-project-");
const model = eachModelServers();

/**
 * hey -p `prompt` in `cwd` against a model that calls bash with `first`, then write_file with
 * `write`, then bash with `last`, and answers with the three results: their texts, in that order.
 */
async function threeCalls(cwd: string, prompt: string, first: string, write: { path: string; content: string }, last: string): Promise<string[]> {
  const m = model((req) => {
    const done = req.messages.filter((x) => x.role === "tool").length;
    if (done === 0) return { calls: [["bash", { command: first }]] };
    if (done === 1) return { calls: [["write_file", write]] };
    if (done === 2) return { calls: [["bash", { command: last }]] };
    return {
      text: req.messages
        .filter((x) => x.role === "tool")
        .map(resultText)
        .join("\n---\n"),
    };
  });
  writeUserConfig(base.path, `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${m.baseUrl}"\nmodels = ["m"]\n`);
  const run = await runHey(["-p", prompt], { env: { HOME: base.path }, cwd, timeoutMs: 90_000 });
  return run.stdout.trim().split("\n---\n");
}

test("the project moved by the agent's bash: the next write_file and bash are refused naming where it went, and no ghost appears at the old path", async () => {
  await ensureBinary();
  const [before, after] = [join(realpathSync(base.path), "p6"), join(realpathSync(base.path), "p6b")];
  mkdirSync(before);
  Bun.spawnSync(["git", "init", "-q", before]);
  writeFileSync(join(before, "a.txt"), "a\n");
  const skill = "---\nname: wtskill\ndescription: a skill\n---\nsteps\n";
  const [moved, write, bash] = await threeCalls(
    before,
    "move the project, then add a skill",
    `mv ${before} ${after} && echo moved`,
    { path: ".hey/skills/wtskill/SKILL.md", content: skill },
    "pwd; ls -a",
  );
  expect(moved).toContain("moved");
  const line = `the project moved: ${before} no longer exists (now ${after}?) — restart hey there`;
  expect(write).toBe(`write_file: .hey/skills/wtskill/SKILL.md not written: ${line}`);
  expect(bash).toBe(`bash: not run: ${line}`);
  expect(existsSync(before)).toBe(false); // no ghost
  expect(readdirSync(after).sort()).toEqual([".git", "a.txt"]);
});

// x142: hey started in a directory only one branch has; the agent's own `git checkout main && git checkout feat`
// deleted it and made it again. The user's real tree stands at the path: hey works in it, saying so once.
test("the start directory deleted and made again by a checkout and back: the next write_file and bash work there, the first led by one line", async () => {
  await ensureBinary();
  const repo = join(realpathSync(base.path), "repo");
  const pkg = join(repo, "pkg");
  const git = (...args: string[]) => expect(Bun.spawnSync(["git", "-c", "user.email=a@b", "-c", "user.name=a", ...args], { cwd: repo }).exitCode).toBe(0);
  mkdirSync(pkg, { recursive: true });
  git("init", "-q", "-b", "main");
  git("commit", "-q", "--allow-empty", "-m", "init");
  git("checkout", "-q", "-b", "feat");
  writeFileSync(join(pkg, "a.txt"), "a\n");
  git("add", "pkg");
  git("commit", "-q", "-m", "pkg");
  const [back, write, ls] = await threeCalls(
    pkg,
    "switch branches and back, then add a file",
    "cd .. && git checkout -q main && git checkout -q feat && echo back",
    { path: "b.txt", content: "b\n" },
    "ls",
  );
  expect(back).toContain("back");
  // old code: "write_file: b.txt not written: the project was replaced: … — restart hey to work in it"
  expect(write).toStartWith(`[hey: ${pkg} was deleted and made again while hey ran (a checkout, a stash, a scaffolder): hey works in the new one]\n`);
  expect(ls).toStartWith("a.txt\nb.txt\n"); // not led by the line again
  expect(readdirSync(pkg).sort()).toEqual(["a.txt", "b.txt"]);
});

// x146: a branch that tracks the start directory as a link (to `..`, ~/.ssh, anywhere): the checkout puts the
// link where the directory was. Taken for the project, every later write and command ran where it points.
test("the start directory replaced by a link a checkout put there: the next write_file and bash are refused, and nothing lands where it points", async () => {
  await ensureBinary();
  const repo = join(realpathSync(base.path), "repo");
  const app = join(repo, "app");
  const elsewhere = join(realpathSync(base.path), "elsewhere");
  const git = (...args: string[]) => expect(Bun.spawnSync(["git", "-c", "user.email=a@b", "-c", "user.name=a", ...args], { cwd: repo }).exitCode).toBe(0);
  mkdirSync(app, { recursive: true });
  mkdirSync(elsewhere);
  git("init", "-q", "-b", "main");
  writeFileSync(join(app, "a.txt"), "a\n");
  git("add", "app");
  git("commit", "-q", "-m", "app");
  git("checkout", "-q", "-b", "linked");
  git("rm", "-q", "-r", "app");
  symlinkSync(elsewhere, app);
  git("add", "app");
  git("commit", "-q", "-m", "app is a link");
  git("checkout", "-q", "main");
  const [switched, write, bash] = await threeCalls(
    app,
    "switch branches, then add a file",
    "cd .. && git checkout -q linked && echo switched",
    { path: "b.txt", content: "b\n" },
    "touch ran.txt",
  );
  expect(switched).toContain("switched");
  const line = `the project was replaced: ${app} is now a link to ${elsewhere} — hey does not follow it; restart hey in the directory you mean`;
  expect(write).toBe(`write_file: b.txt not written: ${line}`); // old code: "[hey: … made again …: hey works in the new one]"
  expect(bash).toBe(`bash: not run: ${line}`);
  expect(readdirSync(elsewhere)).toEqual([]);
});

// x149: the same branch tracking `pkg` as a link, with hey started in pkg/app: the link above the start
// directory passed every check made of app itself, and the write and the command landed where pkg points.
test("a directory above the start directory replaced by a link a checkout put there: the next write_file and bash are refused, and nothing lands where it leads", async () => {
  await ensureBinary();
  const repo = join(realpathSync(base.path), "repo");
  const app = join(repo, "pkg", "app");
  const outside = join(realpathSync(base.path), "outside");
  const git = (...args: string[]) => expect(Bun.spawnSync(["git", "-c", "user.email=a@b", "-c", "user.name=a", ...args], { cwd: repo }).exitCode).toBe(0);
  mkdirSync(app, { recursive: true });
  mkdirSync(join(outside, "app"), { recursive: true });
  git("init", "-q", "-b", "main");
  writeFileSync(join(app, "a.txt"), "a\n");
  git("add", "pkg");
  git("commit", "-q", "-m", "pkg");
  git("checkout", "-q", "-b", "linked");
  git("rm", "-q", "-r", "pkg");
  symlinkSync("../outside", join(repo, "pkg"));
  git("add", "pkg");
  git("commit", "-q", "-m", "pkg is a link");
  git("checkout", "-q", "main");
  const [switched, write, bash] = await threeCalls(
    app,
    "switch branches, then add a file",
    "cd ../.. && git checkout -q linked && echo switched",
    { path: "b.txt", content: "b\n" },
    "touch ran.txt",
  );
  expect(switched).toContain("switched");
  const line = `the project was replaced: ${app} now leads through a link to ${join(outside, "app")} — hey does not follow it; restart hey in the directory you mean`;
  expect(write).toBe(`write_file: b.txt not written: ${line}`); // old code: "[hey: … made again …: hey works in the new one]"
  expect(bash).toBe(`bash: not run: ${line}`);
  expect(readdirSync(join(outside, "app"))).toEqual([]);
});
