// A deny entry on a whole MCP server (`deny = ["mcp__d"]`, or hey's `"d_*"`) refuses all its tools,
// and deny wins over allow: hey used to tell the user (and the model) to add "mcp__d" to
// [permission] allow, which cannot help. The user now reads the deny entry and where it is written,
// the model that the user's deny entry refuses them, and a call of one of them names the entry
// and its file. Through dist/hey, with our fake MCP server and a scripted model.
import { expect, setDefaultTimeout, test } from "bun:test";
import { ensureBinary, runHey } from "../helpers/e2e.ts";
import { eachModelServers, eachTempDir, writeUserConfig } from "../helpers/fixtures.ts";
import { BUN, FAKE_SERVER } from "../helpers/mcp.ts";
import { resultText, textOf } from "../helpers/model-server.ts";

setDefaultTimeout(120_000);

const home = eachTempDir("hey-mcp-deny-");
const model = eachModelServers();

test.each([
  ["Claude Code's spelling", "mcp__d", 'allow = ["read_file", "mcp__d"]\n'],
  ["hey's prefix glob", "d_*", ""],
])("a server denied whole by %s: the deny entry and its file are named, never an allow entry to add", async (_, entry, allow) => {
  await ensureBinary();
  const m = model((req) => {
    const last = req.messages.at(-1)!;
    if (last.role === "tool") return { text: `result: ${resultText(last)}` };
    return { calls: [["search", { text: "hi" }]] };
  });
  writeUserConfig(
    home.path,
    `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${m.baseUrl}"\nmodels = ["m"]\n\n` +
      `[permission]\n${allow}deny = ["${entry}"]\n\n` +
      `[mcp.d]\ncommand = ${JSON.stringify(BUN)}\nargs = [${JSON.stringify(FAKE_SERVER)}, "ok", "d", "search,other"]\n`,
  );
  const run = await runHey(["-p", "go"], { env: { HOME: home.path }, cwd: home.path, timeoutMs: 90_000 });
  const at = `~/.config/hey/config.toml:${allow ? 11 : 10}`;
  expect(run.stderr).toContain(
    `hey: MCP server d: deny entry \`${entry}\` in ${at} refuses all 2 of its tools, so the agent is offered none; to let it use them, remove that from the deny list (deny wins over allow: an allow entry would not)`,
  );
  expect(run.stderr).not.toContain("to [permission] allow");
  // the call the model makes anyway reads the rules' refusal, naming the entry and its file
  expect(run.stdout).toBe(`result: blocked by permission rules: tool \`search\` matches deny entry \`${entry}\` in ${at}\n`);
  const told = m.requests[0]!.messages.map((x) => textOf(x)).join("\n");
  expect(told).toContain(`MCP server d is running, but the user's deny entry \`${entry}\` in ${at} refuses all 2 of its tools, so you are offered none`);
  expect(told).not.toContain("[permission] allow");
});
