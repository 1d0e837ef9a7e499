// MCP through the compiled binary (SPEC §14): a server that takes 10 s to start never delays the
// first request when its tool list is cached, and delays it at most startup_wait_ms when not
// (timed from the mock model's log); two servers with one tool name both reach the model,
// prefixed, and permission rules name them so; the JSON `mcp` event; --no-mcp; and the evolution
// loop across runs: the model adds the filesystem server to the config, the next `hey -c` uses it.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatApprovals, parseApprovals, withConfigs } from "../../src/config/approvals.ts";
import { loadConfig } from "../../src/config/load.ts";
import { ensureBinary, jsonEvents, runHey } from "../helpers/e2e.ts";
import { BUN, FAKE_SERVER, FS_SERVER, freePort } from "../helpers/mcp.ts";
import { resultText, textOf, type ChatRequest } from "../helpers/model-server.ts";
import { configInputs } from "../helpers/places.ts";
import { eachModelServers, eachTempDir, writeUserConfig } from "../helpers/fixtures.ts";

setDefaultTimeout(120_000);

const home = eachTempDir("hey-mcp-home-");
const model = eachModelServers();
const configFile = () => join(home.path, ".config", "hey", "config.toml");
const writeConfig = (text: string) => {
  writeUserConfig(home.path, text);
};
const provider = (baseUrl: string) => `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${baseUrl}"\nmodels = ["m"]\n`;
const toml = (s: string) => JSON.stringify(s);
const fake = (name: string, ...args: string[]) => `\n[mcp.${name}]\ncommand = ${toml(BUN)}\nargs = ${JSON.stringify([FAKE_SERVER, ...args])}\n`;
const toolNames = (req: ChatRequest) => (req.tools ?? []).map((t) => t.function.name);
/** the tool result the model is answering, when the request ends with one */
const lastTool = (req: ChatRequest) => (req.messages.at(-1)?.role === "tool" ? req.messages.at(-1) : undefined);
const hey = (args: string[], env: Record<string, string> = {}) => runHey(args, { env: { HOME: home.path, ...env }, cwd: home.path, timeoutMs: 60_000 });

test("a server that takes 10 s to start: with a cached tool list the first request is not delayed; without, it waits startup_wait_ms (3 s) and no longer", async () => {
  await ensureBinary();
  const delay = join(home.path, "delay");
  const m = model((req) =>
    lastTool(req)
      ? { text: `got ${resultText(lastTool(req))}` }
      : toolNames(req).includes("echo")
        ? { calls: [["echo", { text: "hi" }]] }
        : { text: "no echo tool" },
  );
  writeConfig(provider(m.baseUrl) + fake("slow", "slow-start", delay)); // startup_wait_ms: the default, 3000

  // no cache yet, the server needs 10 s: the request waits 3 s, then goes without its tools
  writeFileSync(delay, "10000");
  let t0 = performance.now();
  const first = await hey(["-p", "hello"]);
  const waited = m.times[0]! - t0;
  expect(first.code).toBe(0);
  expect(first.stdout).toBe("no echo tool\n");
  expect(waited).toBeGreaterThanOrEqual(3_000);
  expect(waited).toBeLessThan(6_000); // start-up of hey on a loaded machine, not the server's 10 s
  expect(performance.now() - t0).toBeLessThan(9_000); // and hey does not wait for it to exit

  // a run where it starts at once leaves its tool list in the cache
  writeFileSync(delay, "0");
  expect((await hey(["-p", "hello"])).stdout).toBe("got slow: hi\n");
  expect(existsSync(join(home.path, ".cache", "hey", "mcp"))).toBe(true);

  // cached, and 10 s to start again: the first request offers its tool at once; the call waits for it
  writeFileSync(delay, "10000");
  const before = m.times.length;
  t0 = performance.now();
  const cached = await hey(["-p", "hello"]);
  expect(m.times[before]! - t0).toBeLessThan(2_500);
  expect(toolNames(m.requests[before]!)).toContain("echo");
  expect(cached.stdout).toBe("got slow: hi\n");
  expect(m.times[before + 1]! - t0).toBeGreaterThanOrEqual(10_000); // the answer came once the server was up
});

test("the model calls a tool whose server is still starting (startup_wait_ms 0): the call waits for the server and runs; one that failed is named with why", async () => {
  const m = model((req) => {
    const tool = lastTool(req);
    if (tool)
      return {
        text: req.messages
          .filter((x) => x.role === "tool")
          .map(resultText)
          .join(" | "),
      };
    return {
      calls: [
        ["echo", { text: "late" }],
        ["broken_query", { sql: "select 1" }],
      ],
    };
  });
  writeConfig(provider(m.baseUrl) + "\n[mcp]\nstartup_wait_ms = 0\n" + fake("slow", "slow-start", "1500") + fake("broken", "exit-on-init"));
  const run = await hey(["-p", "echo late"]);
  expect(run.code).toBe(0);
  expect(toolNames(m.requests[0]!)).not.toContain("echo"); // the request did not wait for it
  // and said why its tools are missing (before: nothing; a model told the user it had no such tools)
  // (broken may have failed by then: only slow is sure to be starting)
  expect(textOf(m.requests[0]!.messages.at(-1))).toMatch(
    /\[hey: MCP servers? (slow|slow, broken) (is|are) still starting: (its|their) tools join the list when ready \(a call to one by name waits for it\)\]$/,
  );
  // before: unknown tool "echo"; available: bash, read_file, …
  const results =
    'slow: late | unknown tool "broken_query": MCP server broken failed: it exited with code 3 before it was ready (its stderr: fatal: cannot open the database at /nope); its tools are left out until it is fixed and the user runs /reload';
  expect(run.stdout).toStartWith(results);
  // the note after the results: broken, when the first request named it as starting, is said to have failed, once
  // and that slow's tools joined the list
  expect(run.stdout.slice(results.length)).toMatch(
    /^\n\[#\w+\]\n\n(\[hey: MCP server broken failed to start: it exited with code 3 before it was ready \(its stderr: fatal: cannot open the database at \/nope\); its tools are not coming this run\]\n)?\[hey: the MCP tools offered changed since the last request:\n\+ tools echo\]\n$/,
  );
});

test("a remote server whose start failed in the last run is not promised to the model as still starting: it is told the server failed, and why", async () => {
  const m = model(() => ({ text: "ok" }));
  const port = freePort(); // nothing listens there: connection refused
  writeConfig(provider(m.baseUrl) + `\n[mcp.dead]\nurl = "http://127.0.0.1:${port}/mcp"\n`);
  const first = await hey(["-p", "hi"]);
  expect(first.code).toBe(0);
  expect(first.stderr).toContain(`hey: MCP server dead failed, its tools are left out: cannot reach 127.0.0.1:${port} (connection refused)`);
  // the next run does not wait for it: its first request goes while hey tries the server again
  const second = await hey(["-p", "hi"]);
  expect(second.code).toBe(0);
  const note = textOf(m.requests[1]!.messages.at(-1));
  expect(note).not.toContain("still starting");
  const why = `cannot reach 127.0.0.1:${port} (connection refused)`;
  // the user is told too, once (before: the model alone, and a re-run script saw an empty stderr): the same failure again is not said twice
  expect(second.stderr.replace(/ \d+ s ago:/, " N s ago:")).toBe(
    `hey: MCP server dead failed to start N s ago: ${why}; tried again now, this run does not wait for it\n`,
  );
  // tried again, it fails again: before or after the note is written
  expect([
    `hi\n\n[hey: MCP server dead failed to start in a recent run: ${why}; it is being tried again: do not count on its tools]`,
    `hi\n\n[hey: MCP server dead failed to start: ${why}; its tools are not coming this run]`,
  ]).toContain(note);
});

test("a server that exits at start-up: the run's first request names it with its stderr, a call to its tool says why; the next run's note too", async () => {
  const m = model((req) => (lastTool(req) ? { text: resultText(lastTool(req)) } : { calls: [["tool_1", { id: "a" }]] }));
  writeConfig(provider(m.baseUrl) + fake("db", "exit-on-init"));
  const first = await hey(["-p", "query"]);
  expect(first.code).toBe(0);
  const why = "it exited with code 3 before it was ready (its stderr: fatal: cannot open the database at /nope)";
  // before: nothing in the request, and the call read `unknown tool "tool_1"; available: bash, …` alone
  expect(textOf(m.requests[0]!.messages.at(-1))).toBe(`query\n\n[hey: MCP server db failed to start: ${why}; its tools are not coming this run]`);
  expect(first.stdout).toContain(`unknown tool "tool_1"; available: bash, `);
  expect(first.stdout).toContain(`. MCP server db failed: ${why}; its tools are left out until it is fixed and the user runs /reload`);
  // the next run does not wait for it, and its note says why it failed (before: only the exit code)
  await hey(["-p", "again"]);
  expect(textOf(m.requests[2]!.messages.at(-1))).toStartWith(`again\n\n[hey: MCP server db failed to start`);
  expect(textOf(m.requests[2]!.messages.at(-1))).toContain("fatal: cannot open the database at /nope");
});

test("two servers with the same tool name, one's denied by its prefixed name: the denied one is not offered and renames no other; its call reads the refusal", async () => {
  const m = model((req) => {
    if (lastTool(req))
      return {
        text: req.messages
          .filter((x) => x.role === "tool")
          .map(resultText)
          .join(" | "),
      };
    return {
      calls: [
        ["alpha_echo", { text: "a" }],
        ["echo", { text: "b" }],
      ],
    };
  });
  writeConfig(
    provider(m.baseUrl) + fake("alpha", "ok", "alpha", "echo") + fake("beta", "ok", "beta", "echo,beta_only") + '\n[permission]\ndeny = ["alpha_*"]\n',
  );
  const run = await hey(["-p", "echo twice"]);
  expect(run.code).toBe(0);
  const offered = toolNames(m.requests[0]!);
  expect(offered).toEqual(expect.arrayContaining(["echo", "beta_only"])); // alpha's echo, refused whatever it is called, takes no part in the naming
  expect(offered).not.toContain("alpha_echo");
  expect(offered).not.toContain("beta_echo");
  // the call by the name it would have reads the rules' refusal
  expect(run.stdout).toMatch(
    /^blocked by permission rules: tool `alpha_echo` \(MCP server alpha's echo\) matches deny entry `alpha_\*` in ~\/\.config\/hey\/config\.toml:\d+ \| /,
  );
  expect(run.stdout).toEndWith(" | beta: b\n");
  expect(run.stderr).not.toContain("offer a tool named");
  expect(run.stderr).toContain("connected: alpha (0 of its 1 tool offered; hey mcp lists them)\n"); // -p has no /mcp
  expect(run.stderr).toContain("connected: beta (2 tools)\n");
});

test("--output json reports each server in an mcp event (the array form of [mcp] works like tables); --no-mcp starts none", async () => {
  const m = model(() => ({ text: "ok" }));
  const log = join(home.path, "starts.log");
  const alpha = `{ name = "alpha", command = ${toml(BUN)}, args = ${JSON.stringify([FAKE_SERVER, "ok", "alpha", "echo"])}, env = { FAKE_LOG = ${toml(log)} } }`;
  writeConfig(provider(m.baseUrl) + `\n[mcp]\nservers = [${alpha}]\n` + fake("broken", "exit-on-init"));
  const json = await hey(["-p", "hi", "--output", "json"]);
  const events = jsonEvents(json.stdout).filter((e) => e.type === "mcp");
  expect(events).toContainEqual({ type: "mcp", server: "alpha", state: "connected", tools: 1 });
  expect(events).toContainEqual({
    type: "mcp",
    server: "broken",
    state: "failed",
    error: "it exited with code 3 before it was ready\n  fatal: cannot open the database at /nope",
  });
  expect(json.stderr).toContain(
    "hey: MCP server broken failed, its tools are left out: it exited with code 3 before it was ready\n  fatal: cannot open the database at /nope\n",
  );
  expect(readFileSync(log, "utf8").split("\n").filter(Boolean)).toHaveLength(1);

  const off = await hey(["-p", "hi", "--no-mcp"]);
  expect(off.code).toBe(0);
  expect(off.stderr).toBe("");
  expect(toolNames(m.requests.at(-1)!)).not.toContain("echo");
  expect(readFileSync(log, "utf8").split("\n").filter(Boolean)).toHaveLength(1); // not started again
});

test("the evolution loop across runs: the model adds [mcp.fs] with write_file; the next `hey -c` leaves it out until the user approves it, then offers its tools", async () => {
  const notes = join(home.path, "notes");
  mkdirSync(notes);
  writeFileSync(join(notes, "todo.md"), "- water the plants\n");
  const root = realpathSync(notes);
  let baseUrl = "";
  const m = model((req) => {
    const tool = lastTool(req);
    if (tool) return { text: `done: ${resultText(tool)}` };
    if (toolNames(req).includes("list_directory")) return { calls: [["list_directory", { path: root }]] };
    const table = `\n[mcp.fs]\ncommand = "node"\nargs = [${toml(FS_SERVER)}, ${toml(root)}]\n`;
    // write_file overwrites only a file read this run
    return {
      calls: [
        ["read_file", { path: configFile() }],
        ["write_file", { path: configFile(), content: provider(baseUrl) + table }],
      ],
    };
  });
  baseUrl = m.baseUrl;
  writeConfig(provider(m.baseUrl));

  const add = await hey(["-p", "connect the filesystem server for my notes"]);
  expect(add.code).toBe(0);
  expect(toolNames(m.requests[0]!)).not.toContain("list_directory");
  expect(readFileSync(configFile(), "utf8")).toContain("[mcp.fs]");

  // a server the agent added does not start in a one-shot run: the user has not seen it (issue 24)
  const refused = await hey(["-c", "-p", "connect the filesystem server for my notes"]);
  expect(refused.stderr).toContain(`hey: not used: + [mcp.fs] node ${FS_SERVER} ${root} in ${configFile()}: it gives the agent more than you approved`);
  expect(refused.stderr).not.toContain("connected: fs");
  // the user approves it (as the interactive prompt's yes records it)
  const record = join(home.path, ".local", "state", "hey", "approvals.json");
  const approvals = parseApprovals(readFileSync(record, "utf8"));
  const approved = loadConfig({ ...configInputs({ HOME: home.path }, home.path), trustProject: false, flags: {}, approvals }).approve();
  writeFileSync(record, formatApprovals(withConfigs(approvals, Object.fromEntries(approved.guards.map((g) => [g.key, g.used])))));

  const use = await hey(["-c", "-p", "what is in my notes?"]);
  expect(use.code).toBe(0);
  const offered = m.requests.find((r) => textOf(r.messages.findLast((x) => x.role === "user")) === "what is in my notes?")!;
  expect(toolNames(offered)).toEqual(expect.arrayContaining(["list_directory", "read_text_file", "search_files"]));
  expect(use.stdout).toBe("done: [FILE] todo.md\n");
  expect(use.stderr).toContain("connected: fs (");
});

test("a tool call that changes its server's tools (tools/list_changed before its answer): the very next request offers the new list, and the model calls a new tool", async () => {
  await ensureBinary();
  const m = model((req) => {
    const tool = lastTool(req);
    if (!tool) return { calls: [["trigger_change", {}]] };
    // the result, then the note of the tools that changed since the last request
    if (resultText(tool).startsWith("changed"))
      return toolNames(req).includes("after_change") ? { calls: [["after_change", {}]] } : { text: "no after_change" };
    return { text: `got ${resultText(tool)}` };
  });
  writeConfig(provider(m.baseUrl) + fake("sw", "switch"));
  const r = await hey(["-p", "enable the new tool, then use it"]);
  // before: request 2 still offered before_change, and the model was told: unknown tool "after_change"
  expect(toolNames(m.requests[1]!)).toEqual(expect.arrayContaining(["trigger_change", "after_change"]));
  expect(toolNames(m.requests[1]!)).not.toContain("before_change");
  expect(resultText(lastTool(m.requests[1]!)!)).toContain(
    "[hey: the MCP tools offered changed since the last request:\n+ tools after_change\n- tools before_change]",
  );
  expect(r.stdout).toBe("got fake: \n");
  expect(r.stderr).toContain("hey: MCP server sw's tools changed: + after_change, − before_change (2 tools now)");
});

test("the filesystem server started with no directory works in the project hey runs in (its roots: the project root), from a subdirectory too", async () => {
  await ensureBinary();
  const project = join(home.path, "shop");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(join(project, "src"));
  writeFileSync(join(project, "todo.md"), "- ship it\n");
  const root = realpathSync(project);
  // the server asks hey for its roots once connected and takes them in as it answers the first calls: a call
  // that comes at once (a loaded machine) may still see none, so the model asks again, as a model would
  let asked = 0;
  const m = model((req) => {
    const tool = lastTool(req);
    const none = tool && resultText(tool).trimEnd() === "Allowed directories:";
    if (!tool || (none && asked < 5)) {
      asked++;
      return { calls: [["list_allowed_directories", {}]] };
    }
    if (resultText(tool).startsWith("Allowed")) return { calls: [["read_text_file", { path: join(root, "todo.md") }]] };
    return { text: `read: ${resultText(tool)}` };
  });
  writeConfig(provider(m.baseUrl) + `\n[mcp.fs]\ncommand = "node"\nargs = [${toml(FS_SERVER)}]\n`);
  const r = await runHey(["-p", "what is on the list?"], { env: { HOME: home.path }, cwd: join(project, "src"), timeoutMs: 60_000 });
  // before: hey declared no roots: "Allowed directories:" with none every time, and the read was refused
  const listed = m.requests.map((q) => lastTool(q)).filter((t) => t && resultText(t).startsWith("Allowed"));
  expect(resultText(listed.at(-1)!)).toBe(`Allowed directories:\n${root}`);
  expect(r.stdout).toBe("read: - ship it\n");
});

test("plan mode refuses an MCP tool named `compress` (offered under that name with compress_tool = false): it is the server's, not hey's reader", async () => {
  const m = model((req) => (lastTool(req) ? { text: resultText(lastTool(req)!) } : { calls: [["compress", { text: "x" }]] }));
  writeConfig(`${provider(m.baseUrl)}\n[compaction]\ncompress_tool = false\n${fake("fs", "ok", "fs", "compress")}`);
  const run = await hey(["--plan", "-p", "shorten"]);
  expect(run.code).toBe(0);
  expect(toolNames(m.requests[0]!)).toContain("compress");
  expect(run.stdout).toStartWith("blocked by plan mode: compress (from MCP server fs) may change things");
  expect(run.stdout).not.toContain("fs: x");
});
