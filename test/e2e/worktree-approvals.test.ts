// What the user approves in a git worktree is the worktree's, through dist/hey: a branch whose
// .mcp.json runs a server another way is asked about once in the worktree (a real terminal, tmux),
// and the main checkout's approval stays as it was — going back to the main checkout asks nothing
// and runs its server as before, and the worktree keeps its own approval too.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { places } from "../../src/fs/places.ts";
import { trustProject } from "../../src/trust/store.ts";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { git, repoWith } from "../helpers/git-worktree.ts";
import { BUN, FAKE_SERVER } from "../helpers/mcp.ts";
import { startModelServer, textOf } from "../helpers/model-server.ts";
import { startTerm } from "../helpers/tmux.ts";
import { lastLine } from "./repl-helpers.ts";

setDefaultTimeout(120_000); // the first test may build dist/hey

const homes = [tempDir("hey-home-"), tempDir("hey-home-"), tempDir("hey-home-")];
const projects = tempDir("hey-projects-");
const model = startModelServer((req) =>
  req.messages.at(-1)!.role === "tool" ? { text: textOf(req.messages.at(-1)) } : { calls: [["search_notes", { text: "todo" }]] },
);
afterAll(() => {
  model.stop();
  for (const h of homes) h.remove();
  projects.remove();
});
const root = realpathSync(projects.path);
const notes = (label: string) => JSON.stringify({ mcpServers: { notes: { command: BUN, args: [FAKE_SERVER, "ok", label, "search_notes"] } } });
/** A home whose config uses the model, after hey's first run (which takes that config as approved). */
async function homeWithModel(home: string): Promise<void> {
  mkdirSync(join(home, ".config", "hey"), { recursive: true });
  writeFileSync(
    join(home, ".config", "hey", "config.toml"),
    `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${model.baseUrl}"\nmodels = ["m"]\n`,
  );
  await runHey(["-p", "hi"], { cwd: home, env: { HOME: home } });
}

test("a server the user approves as a worktree's branch runs it leaves the main checkout's approval alone: neither asks again", async () => {
  const home = homes[0]!;
  const hey = (cwd: string) => runHey(["-p", "search my notes"], { cwd, env: { HOME: home.path }, timeoutMs: 40_000 });
  const main = repoWith(join(root, "shop"), { ".mcp.json": notes("main"), "src/app.ts": "app\n" });
  const fix = join(root, "shop-fix");
  git(main, "worktree", "add", "-q", "-b", "fix", fix);
  writeFileSync(join(fix, ".mcp.json"), notes("fix")); // the branch runs the server another way
  await homeWithModel(home.path);
  await trustProject(places({}, home.path, main, process.platform), true); // the user trusts the main checkout, as /trust does
  expect((await hey(main)).stdout).toStartWith("main: todo");

  // in the worktree the changed table is asked about, and the user says yes
  const term = await startTerm({ cwd: fix, cols: 200, rows: 50, env: { HOME: home.path, NO_COLOR: "1" } });
  try {
    await term.waitFor("Use this change? (y/N)");
    await term.type("y");
    await term.keys("Enter");
    await term.waitFor((s) => s.includes("connected: notes") && lastLine(s) === "›");
    await term.type("/quit");
    await term.keys("Enter");
    await term.waitFor("[exit 0]");
  } finally {
    await term.close();
  }

  // back in the main checkout: its server as approved there, nothing left out
  const inMain = await hey(main);
  // before: 'hey: not used: ~ [mcp.notes] … ok main search_notes in …/shop/.mcp.json: it gives the agent more than you approved'
  expect(inMain.stderr).not.toContain("not used");
  expect(inMain.stdout).toStartWith("main: todo");
  // and the worktree's own yes holds there
  const inFix = await hey(fix);
  expect(inFix.stderr).not.toContain("not used");
  expect(inFix.stdout).toStartWith("fix: todo");
});

test("trusting a project first from its worktree approves the main checkout's same files too: hey there runs their server", async () => {
  const home = homes[1]!;
  const hey = (cwd: string) => runHey(["-p", "search my notes"], { cwd, env: { HOME: home.path }, timeoutMs: 40_000 });
  const main = repoWith(join(root, "cafe"), { ".mcp.json": notes("cafe"), "src/app.ts": "app\n" });
  const fix = join(root, "cafe-fix");
  git(main, "worktree", "add", "-q", "-b", "fix", fix);
  await homeWithModel(home.path);
  await trustProject(places({}, home.path, fix, process.platform), true); // `hey trust` in the worktree, before any in the main checkout
  expect((await hey(fix)).stdout).toStartWith("cafe: todo");

  const inMain = await hey(main);
  expect(inMain.stderr).not.toContain("not used");
  expect(inMain.stdout).toStartWith("cafe: todo");
});

test("a change approved in the main checkout runs in a worktree once it has it, while the server as the worktree ran it before still runs there until then", async () => {
  const home = homes[2]!;
  const hey = (cwd: string) => runHey(["-p", "search my notes"], { cwd, env: { HOME: home.path }, timeoutMs: 40_000 });
  const main = repoWith(join(root, "mill"), { ".mcp.json": notes("mill"), "src/app.ts": "app\n" });
  const fix = join(root, "mill-fix");
  git(main, "worktree", "add", "-q", "-b", "fix", fix);
  await homeWithModel(home.path);
  await trustProject(places({}, home.path, main, process.platform), true);
  expect((await hey(fix)).stdout).toStartWith("mill: todo"); // the main checkout's approval, in the worktree

  // the main checkout's server changes and the user approves it there (hey trust), then the worktree merges it
  writeFileSync(join(main, ".mcp.json"), notes("mill2"));
  await trustProject(places({}, home.path, main, process.platform), true);
  expect((await hey(main)).stdout).toStartWith("mill2: todo");
  const behind = await hey(fix); // not merged yet: the server as the worktree ran it, approved before
  expect(behind.stderr).not.toContain("not used");
  expect(behind.stdout).toStartWith("mill: todo");
  writeFileSync(join(fix, ".mcp.json"), notes("mill2"));
  const inFix = await hey(fix);
  // before: 'hey: not used: ~ [mcp.notes] … ok mill2 search_notes in …/mill-fix/.mcp.json: it gives the agent more than you approved'
  expect(inFix.stderr).not.toContain("not used");
  expect(inFix.stdout).toStartWith("mill2: todo");
});
