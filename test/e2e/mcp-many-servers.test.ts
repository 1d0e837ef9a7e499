// Several ordinary MCP servers (4 × 12 tools of 38 described fields: ~36k tokens of schemas, none
// heavy alone) against the default 40k budget: the run says that the tools together fill the
// budget, naming the heaviest servers and the keys that make room, and the conversation keeps its
// work instead of holding only the first and latest messages every turn. Through dist/hey and a
// loopback model.
import { expect, setDefaultTimeout, test } from "bun:test";
import { runHey } from "../helpers/e2e.ts";
import { eachModelServers, eachTempDir, writeUserConfig } from "../helpers/fixtures.ts";
import { BUN, FAKE_SERVER } from "../helpers/mcp.ts";
import { startModelServer, type ChatRequest, type Turn } from "../helpers/model-server.ts";

setDefaultTimeout(120_000); // the first test may build dist/hey

const home = eachTempDir("hey-mcp-many-");
const model = eachModelServers();
const servers = ["alpha", "beta", "gamma", "delta"]
  .map((s) => `[mcp.${s}]\ncommand = ${JSON.stringify(BUN)}\nargs = [${[FAKE_SERVER, "many", "12", "38", s].map((a) => JSON.stringify(a)).join(", ")}]\n`)
  .join("\n");
const config = (baseUrl: string) =>
  `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${baseUrl}"\nmodels = ["m"]\n\n[mcp]\ndefer_tools = "never"\n\n${servers}`; // every schema in every request: what fills the budget
const hey = (args: string[]) => runHey(args, { cwd: home.path, env: { HOME: home.path }, timeoutMs: 90_000 });

test("4 servers whose tools together fill the budget: said once, with the heaviest and what to do", async () => {
  const m = model(() => ({ text: "hello" }));
  writeUserConfig(home.path, config(m.baseUrl));
  const run = await hey(["-p", "hi"]);
  expect(run.code).toBe(0);
  expect(m.requests[0]!.tools).toHaveLength(6 + 48);
  const said = run.stderr.split("\n").filter((l) => l.includes("MCP tools take"));
  expect(said).toHaveLength(1);
  expect(said[0]).toMatch(
    /^hey: MCP tools take ~[\d,]+ tokens of every request \(48 tools of 4 servers\), more than half the 40k context budget, so older messages are left out within a few turns; the heaviest: \w+ ~[\d,]+ \(12 tools\), \w+ ~[\d,]+ \(12 tools\), \w+ ~[\d,]+ \(12 tools\), and 1 more\. Make room: list the tools to keep in \[mcp\.NAME\] tools = \[\.\.\.\] \(or leave some out with exclude_tools = \[\.\.\.\]\), set enabled = false for a server this project does not need, or raise \[agent\] budget_tokens$/,
  );
});

test("with the budget full of tool schemas, the requests keep the last turns' work, and the context line says what fills the budget", async () => {
  const CALLS = 16;
  let made = 0;
  // each call prints 60 lines of ~6 KB, different each time (fewer than 100 lines: not filtered)
  // a request without tools is hey's summary request: answered with nothing, the trim stands in for it
  const decide = (req: ChatRequest): Turn =>
    !req.tools?.length
      ? { text: "" }
      : made < CALLS
        ? { calls: [["bash", { command: `seq -f "${++made}: line %g of a long listing ${"-".repeat(80)}" 1 60` }]] }
        : { text: "done" };
  // it reports the input tokens a tokenizer would count, about a quarter of the bytes: hey's estimate stays near the truth
  const m = startModelServer(decide, { promptTokens: (body) => Math.ceil(body.length / 4) });
  writeUserConfig(home.path, config(m.baseUrl));
  const run = await hey(["-p", "count"]).finally(() => m.stop());
  expect(run.code).toBe(0);
  // the requests hold the latest results (the old trim kept the newest alone, each turn: the model lost its work)
  const held = m.requests.filter((r) => r.tools?.length).map((r) => r.messages.filter((x) => x.role === "tool").length);
  expect(held).toHaveLength(CALLS + 1);
  expect(Math.min(...held.slice(6))).toBeGreaterThanOrEqual(5);
  const line = run.stderr.split("\n").find((l) => l.startsWith("context:"));
  expect(line).toMatch(
    /^context: the system prompt and tools take ~[\d,]+ tokens \(tool schemas ~[\d,]+\) of the 40,000-token budget, so requests go past it to keep the conversation half of it; older messages left out \(~[\d,]+ → ~[\d,]+ tokens\); \/mcp \(hey mcp list\) shows what each MCP server's tools take; summary failed, older messages dropped instead: .+$/,
  );
  expect(run.stderr).not.toContain("which did not make the context smaller");
  // /usage says what the requests are built to, not "125 % of the budget"
  const usage = await hey(["-c", "-p", "/usage"]);
  expect(usage.stdout).toMatch(
    /\ncontext: ~[\d,]+ of [\d,]+ tokens \(\d+%; built to what the system prompt and tools take plus half the 40,000-token budget\)/,
  );
});

test("hey mcp list says it once, beside the servers' costs", async () => {
  const m = model(() => ({ text: "hello" }));
  writeUserConfig(home.path, config(m.baseUrl));
  const run = await hey(["mcp", "list"]);
  expect(run.code).toBe(0);
  expect(run.stdout).toContain("MCP tools in every request: 48,");
  const said = `${run.stdout}\n${run.stderr}`.split("\n").filter((l) => l.includes("MCP tools take"));
  expect(said).toHaveLength(1);
  expect(said[0]).toMatch(/^hey: MCP tools take ~[\d,]+ tokens of every request \(48 tools of 4 servers\), more than half the 40k context budget/);
});
