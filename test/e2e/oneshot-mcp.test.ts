// A one-shot command never asks the model, so it starts no MCP server it does not use: `hey -p
// /help`, `hey -p /usage` (which counts the cached tool lists, and says which servers it could
// not count) and `hey -c -p /usage` spawn nothing; a real prompt starts the server, and `/mcp`
// (`hey mcp`) starts it to show it. The server is a shell that leaves a mark before it runs the
// fake server, so a start is seen even when hey exits at once.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, jsonEvents, runHey } from "../helpers/e2e.ts";
import { eachModelServers, eachTempDir, writeUserConfig } from "../helpers/fixtures.ts";
import { BUN, FAKE_SERVER } from "../helpers/mcp.ts";
import type { ChatRequest } from "../helpers/model-server.ts";

setDefaultTimeout(120_000);

const home = eachTempDir("hey-oneshot-mcp-");
const model = eachModelServers();
const hey = (args: string[]) => runHey(args, { env: { HOME: home.path }, cwd: home.path, timeoutMs: 60_000 });
const toolNames = (req: ChatRequest) => (req.tools ?? []).map((t) => t.function.name);

test("hey -p /help and hey -p /usage start no MCP server; a prompt does, and /mcp does to show it", async () => {
  await ensureBinary();
  const mark = join(home.path, "started");
  const starts = () => (existsSync(mark) ? readFileSync(mark, "utf8").split("\n").filter(Boolean).length : 0);
  const m = model(() => ({ text: "hello" }));
  const server = `echo started >> ${JSON.stringify(mark)}; exec ${JSON.stringify(BUN)} ${JSON.stringify(FAKE_SERVER)} ok marked lookup`;
  writeUserConfig(
    home.path,
    `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${m.baseUrl}"\nmodels = ["m"]\n\n` +
      `[mcp.marked]\ncommand = "/bin/sh"\nargs = ["-c", ${JSON.stringify(server)}]\n`,
  );

  const help = await hey(["-p", "/help"]);
  expect(help.code).toBe(0);
  expect(help.stdout).toContain("/usage ");
  const json = await hey(["--output", "json", "-p", "/help"]);
  expect(jsonEvents(json.stdout).filter((e) => e.type === "mcp")).toEqual([]);
  // no cached list yet: /usage cannot count its tools, and says so rather than start it
  const usage = await hey(["-p", "/usage"]);
  expect(starts()).toBe(0);
  expect(usage.code).toBe(0);
  expect(usage.stderr).not.toContain("connected: marked");
  expect(usage.stdout).toContain("context: ~");
  expect(usage.stdout).toContain("not counted: the tools of MCP server marked, not listed yet");

  // a prompt starts it (and its list is cached)
  const asked = await hey(["-p", "hi"]);
  expect(asked.code).toBe(0);
  expect(toolNames(m.requests[0]!)).toContain("lookup");
  expect(starts()).toBe(1);

  // from the cached list: its tools are counted, still without a start
  const later = await hey(["-c", "-p", "/usage"]);
  expect(later.code).toBe(0);
  expect(later.stdout).toContain("2 messages in the session");
  expect(later.stdout).not.toContain("not counted");
  expect((await hey(["-p", "/model"])).code).toBe(0);
  expect(starts()).toBe(1);

  // /mcp shows the server as it is: it starts it
  const status = await hey(["-p", "/mcp"]);
  expect(status.stdout).toContain("marked: connected · 1 tool");
  expect(status.stderr).not.toContain("connected: marked"); // the listing says it: no line after it pointing to itself
  expect(starts()).toBe(2);
});

test("a server slower than startup_wait_ms in hey -p: said on stderr and in JSON with the key to raise; its list, arriving while the model works, is cached for the next run", async () => {
  await ensureBinary();
  let calls = 0;
  // the first run's model works a while (a 2 s command) before it answers: the server connects meanwhile
  const m = model((req) => (req.messages.at(-1)!.role === "tool" || calls++ > 0 ? { text: "done" } : { calls: [["bash", { command: "sleep 2" }]] }));
  writeUserConfig(
    home.path,
    `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${m.baseUrl}"\nmodels = ["m"]\n\n[mcp]\nstartup_wait_ms = 300\n\n` +
      `[mcp.slow]\ncommand = ${JSON.stringify(BUN)}\nargs = ${JSON.stringify([FAKE_SERVER, "slow-start", "1200"])}\n`,
  );
  const run = await hey(["-p", "hi", "--output", "json"]);
  expect(run.code).toBe(0);
  expect(toolNames(m.requests[0]!)).not.toContain("echo");
  const why =
    "was not ready after 0.3 s, so the first request went without its tools; raise [mcp] startup_wait_ms to wait longer for it (once it connects, its tool list is cached and later runs offer its tools at once)";
  const mcp = jsonEvents(run.stdout).filter((e) => e.type === "mcp");
  expect(mcp[0]).toEqual({ type: "mcp", server: "slow", state: "not_ready", error: why });
  expect(run.stderr).toContain(`hey: MCP server slow ${why}`);

  // the next run offers its tools in the first request, from the cache, and says nothing of a wait
  const next = await hey(["-p", "hi"]);
  expect(next.code).toBe(0);
  expect(toolNames(m.requests.at(-1)!)).toContain("echo");
  expect(next.stderr).not.toContain("was not ready");
});

test("hey mcp list shows a server still starting whose last start failed with that failure and when, not 'connecting' alone", async () => {
  await ensureBinary();
  // the run lasts past hang's start limit (a 1.5 s command), so its failure is recorded
  const m = model((req) => (req.messages.at(-1)!.role === "tool" ? { text: "done" } : { calls: [["bash", { command: "sleep 1.5" }]] }));
  writeUserConfig(
    home.path,
    `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${m.baseUrl}"\nmodels = ["m"]\n\n[mcp]\nstartup_wait_ms = 200\n\n` +
      `[mcp.hang]\ncommand = ${JSON.stringify(BUN)}\nargs = ${JSON.stringify([FAKE_SERVER, "silent"])}\ntimeout_ms = 800\n`,
  );
  const run = await hey(["-p", "hi"]);
  expect(run.code).toBe(0);
  expect(run.stderr).toContain("hey: MCP server hang failed");
  // a minute later, as the explorer saw it: the list is shown while hang, tried again, is still starting
  const listed = await hey(["mcp", "list"]);
  expect(listed.stdout).toMatch(
    /^hang: connecting\n {2}its last start failed \d+ s ago: it did not answer initialize in time \(timeout_ms\); tried again now \(this run did not wait for it\)$/m,
  );
});

test("hey mcp, hey mcp list and hey -p /mcp say a failing server once, in the listing, with its file:line and its stderr; a -p prompt still warns", async () => {
  await ensureBinary();
  // none configured: where a table goes, by its file
  expect((await hey(["mcp"])).stdout).toStartWith(
    'no MCP servers in use; add an [mcp.NAME] table to ~/.config/hey/config.toml (README "MCP servers"): one hey has not approved yet starts',
  );
  const m = model(() => ({ text: "hello" }));
  const quits = `echo 'fatal: cannot open the database at /nope' >&2; exit 3`;
  const file = writeUserConfig(
    home.path,
    `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${m.baseUrl}"\nmodels = ["m"]\n\n` +
      `[mcp.ghost]\ncommand = "no-such-mcp-server-x"\n\n[mcp.broken]\ncommand = "/bin/sh"\nargs = ["-c", ${JSON.stringify(quits)}]\n`,
  );
  const listing = [
    "ghost: failed",
    `  ${file}:9: [mcp.ghost] command "no-such-mcp-server-x" not found on PATH`,
    "broken: failed",
    "  it exited with code 3 before it was ready",
    "  stderr: fatal: cannot open the database at /nope",
  ].join("\n");
  for (const args of [["mcp"], ["mcp", "list"], ["-p", "/mcp"]]) {
    const run = await hey(args);
    expect(run.code).toBe(0);
    expect(run.stdout).toStartWith(`${listing}\nMCP tools in every request: 0`);
    expect(run.stderr).toBe(""); // before: "hey: MCP server ghost failed, its tools are left out: …" for each, then the listing again
  }
  // a prompt has no listing: each failure is said on stderr, once (as the start that failed in the listings above)
  const asked = await hey(["-p", "hi"]);
  expect(asked.code).toBe(0);
  expect(asked.stdout).toBe("hello\n");
  expect(asked.stderr.match(/^hey: MCP server ghost failed to start \d+ s ago: .+not found on PATH; tried again now/gm)).toHaveLength(1);
  expect(asked.stderr.match(/^hey: MCP server broken failed to start \d+ s ago: it exited with code 3 before it was ready/gm)).toHaveLength(1);
  expect(asked.stderr.split("\n").filter(Boolean)).toHaveLength(2);
});
