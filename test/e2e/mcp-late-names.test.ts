// A server that connects after the first request with tool names another server's tools were
// offered under (x13): the names the model used stay theirs — the newcomer is offered under its
// prefix — and the request that first offers the newcomer's tools says so (as /reload's note
// does), with its instructions, while the system prompt stays as the first request had it (the
// prompt cache). Before, `slow_call` became `slow_slow_call` under the model, unsaid, and its next
// call by the name it had just used failed. Through dist/hey, with our fake servers and a scripted model.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, runHey } from "../helpers/e2e.ts";
import { eachModelServers, eachTempDir, writeUserConfig } from "../helpers/fixtures.ts";
import { BUN, FAKE_SERVER } from "../helpers/mcp.ts";
import { resultText, systemOf, type ChatRequest } from "../helpers/model-server.ts";

setDefaultTimeout(120_000);

const toolNames = (req: ChatRequest) => (req.tools ?? []).map((t) => t.function.name);
const home = eachTempDir("hey-mcp-late-");
const model = eachModelServers();

test("a late server's tools take the prefix; the tools the model used keep their names; the request says what joined, with the server's instructions", async () => {
  await ensureBinary();
  const gate = join(home.path, "gate");
  mkdirSync(gate);
  let opened = false;
  // the model calls slow_call until the late server's tools are offered, then empty_schema by the name it was first offered under
  const m = model((req) => {
    const names = toolNames(req);
    const last = req.messages.at(-1)!;
    if (!opened) writeFileSync(join(gate, "open"), ""), (opened = true);
    if (last.role === "tool" && resultText(last).startsWith("slow: schema")) return { text: `done: ${resultText(last).split("\n")[0]}` }; // the late server's instructions ride after it
    if (!names.includes("weird_slow_call")) {
      if (existsSync(join(gate, "listed"))) Bun.sleepSync(100); // hey reads the list it was sent
      return { calls: [["slow_call", { text: "one" }]] };
    }
    return { calls: [["empty_schema", { text: "schema" }]] };
  });
  // slow connects within the first request's wait (3 s: a loaded machine starts a server slowly), weird only once the model is asked
  const server = (name: string, args: string[], env = "") =>
    `\n[mcp.${name}]\ncommand = ${JSON.stringify(BUN)}\nargs = ${JSON.stringify([FAKE_SERVER, ...args])}\n${env}`;
  writeUserConfig(
    home.path,
    `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${m.baseUrl}"\nmodels = ["m"]\n\n[mcp]\nstartup_wait_ms = 3000\n` +
      server("slow", ["ok", "slow", "slow_call,empty_schema"]) +
      server("weird", ["gated", gate, "slow_call,empty_schema"], `env = { FAKE_INSTRUCTIONS = "Call weird_slow_call only for weird things." }\n`),
  );
  const run = await runHey(["-p", "call them"], { env: { HOME: home.path }, cwd: home.path, timeoutMs: 90_000 });
  expect(run.stdout).toBe("done: slow: schema\n");
  expect(run.code).toBe(0);
  const first = m.requests[0]!;
  expect(toolNames(first)).toEqual(expect.arrayContaining(["slow_call", "empty_schema"]));
  expect(toolNames(first)).not.toContain("weird_slow_call");
  const joined = m.requests.findIndex((r) => toolNames(r).includes("weird_slow_call"));
  expect(joined).toBeGreaterThan(0);
  const late = m.requests[joined]!;
  expect(toolNames(late)).toEqual(expect.arrayContaining(["slow_call", "empty_schema", "weird_slow_call", "weird_empty_schema"]));
  const said = JSON.stringify(late.messages);
  expect(said).toContain(
    JSON.stringify("[hey: the MCP tools offered changed since the last request:\n+ tools weird_slow_call, weird_empty_schema]").slice(1, -1),
  );
  expect(said).toContain("MCP server weird connected; its instructions:\\nCall weird_slow_call only for weird things.");
  // and in every request after it: a request's note is not kept in the history, the system prompt is fixed
  for (const r of m.requests.slice(joined + 1)) expect(JSON.stringify(r.messages)).toContain("its instructions:\\nCall weird_slow_call only for weird things.");
  expect(m.requests.length).toBeGreaterThan(joined + 1);
  // the system prompt is the first request's all run: the late server's instructions went in the note
  for (const r of m.requests) expect(systemOf(r)).toBe(systemOf(first));
  expect(systemOf(first)).not.toContain("weird things");
  expect(run.stderr).toContain(
    "MCP servers slow and weird offer tools of the same names (slow_call and empty_schema): the model sees them as slow's own names and weird_…",
  );
});

test("a mistyped read_files while a server is stuck starting: 'did you mean read_file?' at once, not a wait for the stuck server", async () => {
  await ensureBinary();
  const m = model((req) =>
    req.messages.at(-1)!.role === "tool" ? { text: `said: ${resultText(req.messages.at(-1))}` } : { calls: [["read_files", { path: "a.txt" }]] },
  );
  // hang never answers initialize; its start limit is far past the test's
  const hang = `\n[mcp.hang]\ncommand = ${JSON.stringify(BUN)}\nargs = ${JSON.stringify([FAKE_SERVER, "silent"])}\ntimeout_ms = 600000\n`;
  writeUserConfig(
    home.path,
    `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${m.baseUrl}"\nmodels = ["m"]\n\n[mcp]\nstartup_wait_ms = 0\n${hang}`,
  );
  const run = await runHey(["-p", "read a.txt"], { env: { HOME: home.path }, cwd: home.path, timeoutMs: 60_000 });
  expect(run.code).toBe(0);
  // before: a wait for hang (its whole timeout_ms), then "unknown tool "read_files": MCP server hang …", no suggestion
  expect(resultText(m.requests[1]!.messages.at(-1))).toStartWith('unknown tool "read_files"; did you mean read_file?');
});
