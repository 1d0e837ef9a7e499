// Growing hey from a git worktree of a trusted project, in a real terminal (tmux), started in a
// subdirectory of it: the agent writes a skill and `/reload` makes it live in the same session;
// the agent adds an MCP server to the worktree's .mcp.json, the user approves it at `/reload`, and
// the model calls its tool at once, while the server is still starting: the call waits for it.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { places } from "../../src/fs/places.ts";
import { trustProject } from "../../src/trust/store.ts";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { git, repoWith } from "../helpers/git-worktree.ts";
import { BUN, FAKE_SERVER } from "../helpers/mcp.ts";
import { lastUserText, startModelServer, systemOf, textOf, type ChatRequest } from "../helpers/model-server.ts";
import { skillsOffered } from "../helpers/skill-model.ts";
import { startTerm } from "../helpers/tmux.ts";
import { ALL, say } from "./repl-helpers.ts";

setDefaultTimeout(120_000); // the first test may build dist/hey

const home = tempDir("hey-home-");
const projects = tempDir("hey-projects-");
const root = realpathSync(projects.path);
const main = repoWith(join(root, "shop"), { ".hey/skills/hello/SKILL.md": "---\nname: hello\ndescription: Says hello.\n---\nhello\n", "src/app.ts": "app\n" });
const fix = join(root, "shop-fix");
git(main, "worktree", "add", "-q", "-b", "fix", fix);
const PIRATE = "---\nname: pirate\ndescription: How to greet the user. Use it for greetings.\n---\nReply with exactly: Ahoy from the worktree\n";
// slow enough that the model's call (at once after /reload) comes long before it is up, and well
// within the 5 s a call on a guess waits (src/mcp/late-tool.ts GUESS_WAIT_MS) on a loaded machine
const TRACKER = { mcpServers: { tracker: { command: BUN, args: [FAKE_SERVER, "slow-start", "1500"] } } };

const model = startModelServer((req: ChatRequest) => {
  const last = req.messages.at(-1)!;
  if (last.role === "tool") return { text: /Reply with exactly: (.+)/.exec(textOf(last))?.[1] ?? `got ${textOf(last).split("\n")[0]}` };
  const ask = lastUserText(req);
  // where the system prompt says skills go: the worktree's .hey/skills
  const skills = /as a skill: (\S+)\/<name>\/SKILL\.md/.exec(systemOf(req))?.[1];
  if (/save a skill/.test(ask)) return { calls: [["write_file", { path: `${skills}/pirate/SKILL.md`, content: PIRATE }]] };
  if (/greet/.test(ask)) {
    const listed = skillsOffered(req).find((s) => s.name === "pirate");
    return listed ? { calls: [["read_file", { path: listed.path }]] } : { text: "no pirate skill" };
  }
  if (/add the tracker/.test(ask)) return { calls: [["write_file", { path: join(fix, ".mcp.json"), content: JSON.stringify(TRACKER) }]] };
  if (/track it/.test(ask)) return { calls: [["echo", { text: "the bug" }]] };
  return { text: "ok" };
});
afterAll(() => {
  model.stop();
  home.remove();
  projects.remove();
});

test("from a worktree's subdirectory: a skill the agent writes is used after /reload; a server it adds is called while still starting, and answers", async () => {
  mkdirSync(join(home.path, ".config", "hey"), { recursive: true });
  writeFileSync(
    join(home.path, ".config", "hey", "config.toml"),
    // startup_wait_ms 0: the request after /reload does not wait for the new server either
    `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${model.baseUrl}"\nmodels = ["m"]\n\n[mcp]\nstartup_wait_ms = 0\n`,
  );
  await runHey(["-p", "hi"], { cwd: home.path, env: { HOME: home.path } }); // hey's first run: the user's config is recorded as approved
  await trustProject(places({}, home.path, main, process.platform), true); // the user trusted the main checkout
  const term = await startTerm({ cwd: join(fix, "src"), cols: 200, rows: 50, env: { HOME: home.path, NO_COLOR: "1" } });
  try {
    await term.waitFor(/^›/m, ALL);
    expect(await term.screen(ALL)).not.toContain("Trust this project"); // before: asked, as a new project

    await say(term, "save a skill for greetings", "got created");
    await say(term, "/reload", "+ skill pirate");
    await say(term, "greet me", "Ahoy from the worktree");

    await say(term, "add the tracker server", "got created");
    await term.type("/reload");
    await term.keys("Enter");
    // the change is wrapped where the checkout's path puts the breaks: matched without them
    const change = `+ [mcp.tracker] ${BUN} ${FAKE_SERVER} slow-start 1500`.replace(/\s+/g, "");
    await term.waitFor((s) => s.replace(/\s+/g, "").includes(change), ALL);
    await term.type("y");
    await term.keys("Enter");
    await term.waitFor("+ mcp server tracker", ALL);
    // before: unknown tool "echo"; available: bash, read_file, …
    await say(term, "track it", "got slow: the bug");
    const asked = model.requests.find((r) => lastUserText(r) === "track it")!;
    expect((asked.tools ?? []).map((t) => t.function.name)).not.toContain("echo"); // its request went out before the server was up
    expect(await term.screen(ALL)).toContain('echo (tracker) text="the bug"');
  } finally {
    await term.close();
  }
});
