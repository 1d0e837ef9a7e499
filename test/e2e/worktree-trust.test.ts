// Trust across checkouts of one repository, through dist/hey: a `git worktree add` checkout of a
// trusted project is trusted (its skills and .mcp.json server load), as a subdirectory is; a
// worktree whose .mcp.json adds a server is asked about it anyway (a worktree's file with no
// approval of its own is weighed against the main checkout's, so only the change is new); a second clone is another
// repository and is not trusted.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { places } from "../../src/fs/places.ts";
import { trustProject } from "../../src/trust/store.ts";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { eachModelServers } from "../helpers/fixtures.ts";
import { git, repoWith } from "../helpers/git-worktree.ts";
import { BUN, FAKE_SERVER } from "../helpers/mcp.ts";
import { systemOf, textOf, type ChatRequest } from "../helpers/model-server.ts";

setDefaultTimeout(60_000);

const home = tempDir("hey-home-");
const projects = tempDir("hey-projects-");
afterAll(() => {
  home.remove();
  projects.remove();
});
const root = realpathSync(projects.path);
const server = (label: string, tool: string) => ({ command: BUN, args: [FAKE_SERVER, "ok", label, tool] });
const GREET = "---\nname: greet\ndescription: Greet the user. Use it for greetings.\n---\nSay ahoy.\n";
const main = repoWith(join(root, "shop"), {
  ".hey/skills/greet/SKILL.md": GREET,
  ".mcp.json": JSON.stringify({ mcpServers: { notes: server("notes", "search_notes") } }),
  "src/app.ts": "app\n",
});
const fix = join(root, "shop-fix");
git(main, "worktree", "add", "-q", "-b", "fix", fix);
const model = eachModelServers();
const hey = (cwd: string, args: string[]) => runHey(args, { cwd, env: { HOME: home.path }, timeoutMs: 40_000 });
const toolNames = (r: ChatRequest) => (r.tools ?? []).map((t) => t.function.name);
const userConfig = (baseUrl: string) => {
  mkdirSync(join(home.path, ".config", "hey"), { recursive: true });
  writeFileSync(
    join(home.path, ".config", "hey", "config.toml"),
    `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${baseUrl}"\nmodels = ["m"]\n`,
  );
};

test("a worktree of a trusted project is trusted: its skills and .mcp.json server load; a server its branch adds is asked about; a second clone is not trusted", async () => {
  const m = model((req) => (req.messages.at(-1)!.role === "tool" ? { text: textOf(req.messages.at(-1)) } : { calls: [["search_notes", { text: "todo" }]] }));
  userConfig(m.baseUrl);
  await hey(main, ["-p", "hi"]); // hey's first run: the user's config is recorded as approved
  // the user trusts the main checkout (as /trust, or a yes at hey's question, records it)
  await trustProject(places({}, home.path, main, process.platform), true);

  const inFix = await hey(join(fix, "src"), ["-p", "search my notes"]);
  // before: 'hey: not loaded: .mcp.json and .hey/skills/ (this project is not trusted; …)'
  expect(inFix.stderr).not.toContain("not loaded");
  const first = m.requests.at(-2)!;
  expect(toolNames(first)).toContain("search_notes");
  expect(systemOf(first)).toContain(`${join(fix, ".hey", "skills")}/:\n- greet: Greet the user. Use it for greetings.`);
  expect(inFix.stdout).toStartWith("notes: todo");

  // the branch's .mcp.json adds a server: the worktree's file is approved only as far as it is the main checkout's
  writeFileSync(join(fix, ".mcp.json"), JSON.stringify({ mcpServers: { notes: server("notes", "search_notes"), deploy: server("deploy", "ship") } }));
  const added = await hey(fix, ["-p", "search my notes"]);
  expect(added.stderr).toContain(
    `hey: not used: + [mcp.deploy] ${BUN} ${FAKE_SERVER} ok deploy ship in ${join(fix, ".mcp.json")}: it gives the agent more than you approved`,
  );
  expect(toolNames(m.requests.at(-2)!)).toContain("search_notes");
  expect(toolNames(m.requests.at(-2)!)).not.toContain("ship");

  // a second clone is another repository: not trusted, whatever it holds
  const clone = join(root, "shop-2");
  git(root, "clone", "-q", main, clone);
  const other = await hey(clone, ["-p", "search my notes"]);
  expect(other.stderr).toContain("hey: not loaded: .mcp.json and .hey/skills/ (this project is not trusted; hey trust trusts it");

  // `hey trust --revoke` in the worktree names both checkouts, and takes trust back from both
  const revoke = await hey(fix, ["trust", "--revoke"]);
  expect(revoke.stdout).toStartWith(`project: ${fix} (a git worktree of ${main}: the answer holds for both)\n`);
  expect(revoke.stdout).toContain(`${fix} (a git worktree of ${main}: the answer holds for both) is not trusted now`);
  expect((await hey(main, ["-p", "search my notes"])).stderr).toContain("hey: not loaded: .mcp.json and .hey/skills/ (you said no in");
});
