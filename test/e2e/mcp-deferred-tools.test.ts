// Through dist/hey with the real server-everything and server-filesystem: past 10 % of the budget
// (or with `defer_tools = "always"`) the first request carries find_tools instead of the servers'
// schemas; the model finds a tool by a query, the next request carries it, and it runs; a call
// straight to a deferred tool by its name runs and loads it once it ran well, a wrong guess reads its schema; `hey
// -c` offers what the session loaded, in the same order; `defer_tools = "never"` sends every schema.
import { expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, runHey } from "../helpers/e2e.ts";
import { EVERYTHING_SERVER, FS_SERVER } from "../helpers/mcp.ts";
import { resultText, type ChatRequest } from "../helpers/model-server.ts";
import { eachModelServers, eachTempDir, writeUserConfig } from "../helpers/fixtures.ts";

setDefaultTimeout(180_000);

const home = eachTempDir("hey-mcp-defer-");
const model = eachModelServers();
const OWN = ["bash", "read_file", "write_file", "edit", "grep", "compress"];
const config = (baseUrl: string, mcp: string) => {
  const notes = join(home.path, "notes");
  mkdirSync(notes, { recursive: true });
  writeUserConfig(
    home.path,
    `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${baseUrl}"\nmodels = ["m"]\n\n[mcp]\nstartup_wait_ms = 20000\n${mcp}\n` +
      `\n[mcp.everything]\ncommand = "node"\nargs = [${JSON.stringify(EVERYTHING_SERVER)}, "stdio"]\n` +
      `\n[mcp.fs]\ncommand = "node"\nargs = [${JSON.stringify(FS_SERVER)}, ${JSON.stringify(notes)}]\n`,
  );
};
const toolNames = (req: ChatRequest) => (req.tools ?? []).map((t) => t.function.name);
const lastTool = (req: ChatRequest) => (req.messages.at(-1)?.role === "tool" ? req.messages.at(-1) : undefined);
const hey = (args: string[]) => runHey(args, { env: { HOME: home.path }, cwd: home.path, timeoutMs: 90_000 });

test("the first request carries find_tools, not the servers' schemas; a query loads echo, the next request carries it, and it runs; hey -c offers it again", async () => {
  await ensureBinary();
  const m = model((req) => {
    const last = lastTool(req);
    if (!last) return toolNames(req).includes("find_tools") ? { calls: [["find_tools", { query: "echo back the input" }]] } : { text: "ok" };
    if (!toolNames(req).includes("echo")) return { text: `echo not loaded: ${resultText(last)}` };
    if (resultText(last).startsWith("loaded: ")) return { calls: [["echo", { message: "hello deferred" }]] };
    return { text: `got ${resultText(last)}` };
  });
  config(m.baseUrl, `defer_tools = "never"`);
  expect((await hey(["-p", "hi", "--no-mcp"])).code).toBe(0);
  expect((await hey(["-p", "hi"])).code).toBe(0);
  const [alone, whole] = m.sizes;
  const all = toolNames(m.requests[1]!);
  expect(all).toEqual(expect.arrayContaining([...OWN, "echo", "get-sum", "read_text_file", "list_directory"]));
  expect(all).not.toContain("find_tools");

  // auto: the two servers' ~3,200 tokens of tools are under 10 % of hey's default 40k budget, over it of 20k
  config(m.baseUrl, "\n[agent]\nbudget_tokens = 20000\n");
  const run = await hey(["-p", "say hello through echo"]);
  expect(run).toMatchObject({ code: 0, stdout: "got Echo: hello deferred\n" });
  const first = m.requests[2]!;
  expect(toolNames(first)).toEqual([...OWN, "find_tools"]);
  const find = first.tools!.find((t) => t.function.name === "find_tools") as unknown as { function: { description: string } };
  expect(find.function.description).toContain("everything: echo, get-annotated-message,");
  expect(find.function.description).toContain("fs: fs_read_file, read_text_file,");
  expect(resultText(lastTool(m.requests[3]!))).toStartWith("loaded: echo");
  expect(resultText(lastTool(m.requests[3]!))).toContain("message: string — Message to echo");
  expect(toolNames(m.requests[3]!)).toEqual([...OWN, "find_tools", "echo"]); // appended after the tools before
  expect(run.stderr).not.toContain("more than half");
  const deferred = m.sizes[2]!;
  console.log(
    `first request with server-everything + server-filesystem: hey alone ${alone} bytes (~${Math.ceil(alone! / 4)} tokens); ` +
      `every schema (never) ${whole} bytes (~${Math.ceil(whole! / 4)} tokens, ${all.length} tools); deferred (auto) ${deferred} bytes (~${Math.ceil(deferred / 4)} tokens)`,
  );
  expect(deferred).toBeLessThan(alone! + (whole! - alone!) / 2);

  // the session goes on with what it loaded, in the order it loaded it: the cached prefix stays
  const again = await hey(["-c", "-p", "once more"]);
  expect(again.code).toBe(0);
  expect(toolNames(m.requests[5]!)).toEqual([...OWN, "find_tools", "echo"]);

  const status = await hey(["mcp", "list"]);
  expect(status.stdout).toMatch(/\n {2}\d+ tools deferred \(loaded on demand\): echo, get-annotated-message, /);
  expect(status.stdout).toMatch(
    /MCP tools in every request: 0, ~0 tokens \(hey's own tools: ~[\d,]+\); \d+ tools deferred \(loaded on demand\) through find_tools\n$/,
  );
});

test("a call straight to a deferred tool by its name runs and, when it runs well, loads it; a wrong guess at its arguments reads its schema; the permission rules decide what is deferred", async () => {
  await ensureBinary();
  const m = model((req) => {
    const last = lastTool(req);
    if (!last) return { calls: [["get-sum", { first: 2, second: 3 }]] };
    if (resultText(last).includes("Its input:")) return { calls: [["get-sum", { a: 2, b: 3 }]] };
    return { text: `${resultText(last)} (get-sum offered: ${toolNames(req).includes("get-sum")})` };
  });
  // an allow list: the tools it does not name are neither listed nor loadable; find_tools, which only loads schemas, stays
  config(m.baseUrl, `defer_tools = "always"\n\n[permission]\nallow = ["read_file", "get-sum", "list_directory"]\n`);
  const run = await hey(["-p", "add 2 and 3"]);
  expect(run).toMatchObject({ code: 0, stdout: "The sum of 2 and 3 is 5. (get-sum offered: true)\n" });
  expect(toolNames(m.requests[0]!)).toEqual(["read_file", "find_tools"]);
  const find = m.requests[0]!.tools!.at(-1) as unknown as { function: { description: string } };
  expect(find.function.description).toContain("Not loaded: everything: get-sum; fs: list_directory. Give query");
  const wrong = resultText(lastTool(m.requests[1]!));
  expect(wrong).toContain(
    "Its input:\nget-sum (MCP server everything): Returns the sum of two numbers\n  a: number — First number\n  b: number — Second number",
  );
  // a failed call loads nothing (hey -c reads the loads back from the results that are no errors); the call that ran did
  expect(toolNames(m.requests[1]!)).toEqual(["read_file", "find_tools"]);
  expect(toolNames(m.requests[2]!)).toEqual(["read_file", "find_tools", "get-sum"]);
});

test("find_tools says which names loaded nothing and why; Claude Code's mcp__SERVER__TOOL loads and runs the tool as offered, and a tool the rules refuse stays refused so named", async () => {
  await ensureBinary();
  const m = model((req) => {
    const results = req.messages.filter((x) => x.role === "tool").length;
    if (results === 0)
      return { calls: [["find_tools", { names: ["echo", "get_summ", "get-env", "mcp__fs__list_directory", "nonexistent_tool", "read_file", "bash"] }]] };
    if (results === 1) return { calls: [["mcp__everything__get-sum", { a: 2, b: 3 }]] };
    if (results === 2) return { calls: [["mcp__everything__get-env", {}]] };
    return { text: req.messages.flatMap((x) => (x.role === "tool" ? [resultText(x)] : [])).join("\n---\n") };
  });
  config(m.baseUrl, `defer_tools = "always"\n\n[permission]\nallow = ["read_file", "echo", "get-sum", "list_directory"]\n`);
  const run = await hey(["-p", "use the tools"]);
  expect(run.code).toBe(0);
  const [found, sum, env] = run.stdout.split("\n---\n");
  expect(found).toStartWith(
    "loaded: echo, list_directory\nnot found: get_summ (did you mean get-sum?)\nrefused by the permission rules: get-env\nnot found: nonexistent_tool\n" +
      "offered already, call it: read_file\nnot found: bash\n\necho (MCP server everything)", // bash: the allow list leaves it out
  );
  expect(sum).toBe("The sum of 2 and 3 is 5.");
  expect(env).toStartWith("blocked by permission rules: tool `get-env` matches no allow entry");
  // the call is kept under the name the model was shown: the next request offers it, and strict APIs take the history
  const after = m.requests[2]!;
  expect(after.messages.flatMap((x) => x.tool_calls ?? []).map((c) => c.function.name)).toEqual(["find_tools", "get-sum"]);
  expect(toolNames(after)).toEqual(["read_file", "find_tools", "echo", "list_directory", "get-sum"]);
  expect(run.stderr).not.toContain("get-env:"); // nothing of it ran
});

test("--output json: each load of a deferred tool is a notice before its call's result; hey's own tool asked of find_tools is offered already", async () => {
  await ensureBinary();
  const m = model((req) => {
    const results = req.messages.filter((x) => x.role === "tool").length;
    if (results === 0) return { calls: [["find_tools", { names: ["echo", "bash"] }]] };
    if (results === 1) return { calls: [["get-sum", { a: 2, b: 3 }]] };
    return { text: "done" };
  });
  config(m.baseUrl, `defer_tools = "always"`);
  const run = await hey(["--output", "json", "-p", "use the tools"]);
  expect(run.code).toBe(0);
  const events = run.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { type: string; message?: string; name?: string; output?: string });
  const said = events.filter((e) => e.type === "notice" || e.type === "tool_result").map((e) => (e.type === "notice" ? e.message : `${e.name}: ${e.output}`));
  expect(said).toHaveLength(4);
  expect(said[0]).toBe("MCP tools loaded by find_tools, offered from the next request on: echo");
  expect(said[1]).toStartWith("find_tools: loaded: echo\noffered already, call it: bash\n\necho (MCP server everything)");
  expect(said[2]).toBe("MCP tools loaded by a call by its name, offered from the next request on: get-sum");
  expect(said[3]).toBe("get-sum: The sum of 2 and 3 is 5.");
  expect(toolNames(m.requests[2]!)).toEqual([...OWN, "find_tools", "echo", "get-sum"]);
});
