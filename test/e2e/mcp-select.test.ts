// Through dist/hey with the real server-everything (issue 27): what its tools cost each request,
// with and without tool selection; `exclude_tools` and a `deny` rule leave tools out of the
// request's `tools`; `/mcp` shows each tool's tokens; a server prompt runs as a command; an
// `@SERVER:URI` resource reaches the request, cut at [input] max_bytes.
import { expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, runHey } from "../helpers/e2e.ts";
import { EVERYTHING_SERVER } from "../helpers/mcp.ts";
import { lastUserText, textOf, type ChatRequest } from "../helpers/model-server.ts";
import { eachModelServers, eachTempDir, writeUserConfig } from "../helpers/fixtures.ts";

setDefaultTimeout(120_000);

const home = eachTempDir("hey-mcp-select-");
const model = eachModelServers();
const writeConfig = (text: string) => void writeUserConfig(home.path, text);
const base = (baseUrl: string) =>
  `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${baseUrl}"\nmodels = ["m"]\n\n[mcp]\nstartup_wait_ms = 20000\n`;
const everything = (more = "") => `\n[mcp.everything]\ncommand = "node"\nargs = [${JSON.stringify(EVERYTHING_SERVER)}, "stdio"]\n${more}`;
const toolNames = (req: ChatRequest) => (req.tools ?? []).map((t) => t.function.name);
const hey = (args: string[]) => runHey(args, { env: { HOME: home.path }, cwd: home.path, timeoutMs: 60_000 });

test("request bytes with server-everything, before and after tool selection; exclude_tools and a denied tool are not in the request; /mcp counts each tool's tokens", async () => {
  await ensureBinary();
  const m = model(() => ({ text: "ok" }));
  writeConfig(base(m.baseUrl) + everything());
  expect((await hey(["-p", "hi", "--no-mcp"])).code).toBe(0);
  expect((await hey(["-p", "hi"])).code).toBe(0);
  const [builtin, all] = m.sizes;
  const allTools = toolNames(m.requests[1]!);
  expect(allTools).toEqual(expect.arrayContaining(["echo", "get-sum", "get-env", "trigger-long-running-operation", "gzip-file-as-resource"]));

  writeConfig(base(m.baseUrl) + everything('tools = ["echo", "get-sum"]\n'));
  expect((await hey(["-p", "hi"])).code).toBe(0);
  const selected = m.sizes[2]!;
  expect(toolNames(m.requests[2]!)).toEqual(["bash", "read_file", "write_file", "edit", "grep", "compress", "echo", "get-sum"]);

  // dropping `tools` offers tools the approved selection left out: a -p run would keep the approved
  // list until the user says yes at the prompt; this run starts as a first one, taking the file as it is
  // (hey's state goes with the record: a record removed where sessions remain waits for the user's yes)
  rmSync(join(home.path, ".local", "state", "hey"), { recursive: true });
  writeConfig(
    base(m.baseUrl) + everything('exclude_tools = ["get-env", "gzip-*"]\n') + '\n[permission]\ndeny = ["trigger-long-running-operation", "write_file"]\n',
  );
  expect((await hey(["-p", "hi"])).code).toBe(0);
  const diet = toolNames(m.requests[3]!);
  for (const gone of ["get-env", "gzip-file-as-resource", "trigger-long-running-operation", "write_file"]) expect(diet).not.toContain(gone);
  expect(diet).toEqual(expect.arrayContaining(["echo", "get-sum", "read_file", "bash"]));
  expect(diet.length).toBe(allTools.length - 4);

  const status = await hey(["-p", "/mcp"]);
  expect(status.code).toBe(0);
  expect(status.stdout).toMatch(
    // of them all, with its task-only tool once it is listed (it registers it as the session starts)
    new RegExp(
      `^everything: connected · ${allTools.length - 9} of (?:${allTools.length - 6}|${allTools.length - 5}) tools offered, ~[\\d,]+ tokens per request\\n  echo ~\\d+, `,
    ),
  );
  expect(status.stdout).toMatch(
    /\n {2}not offered: (simulate-research-query \(runs only as an MCP task, which hey does not run\); )?get-env, gzip-file-as-resource \(exclude_tools\); trigger-long-running-operation \(refused by \[permission\]\)\n/,
  );
  expect(status.stdout).toContain("  prompts: /mcp:everything:simple-prompt, /mcp:everything:args-prompt city=… [state=…]");
  expect(status.stdout).toMatch(/\nMCP tools in every request: \d+, ~[\d,]+ tokens \(hey's own tools: ~[\d,]+\)\n$/);

  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  console.log(
    `request bytes for "hi": hey alone ${builtin} (${kb(builtin!)}); + server-everything, all ${allTools.length - 6} tools: ${all} (${kb(all!)}); with tools = ["echo", "get-sum"]: ${selected} (${kb(selected)})`,
  );
  // the tools' share: both requests with the server also carry its instructions in the system prompt
  const toolBytes = (i: number) => JSON.stringify(m.requests[i]!.tools).length;
  expect(toolBytes(1) - toolBytes(0)).toBeGreaterThan(5 * (toolBytes(2) - toolBytes(0)));
});

test("a server prompt runs as a command (one-shot), and @SERVER:URI attaches a resource to the request, cut at [input] max_bytes", async () => {
  await ensureBinary();
  const m = model(() => ({ text: "ok" }));
  writeConfig(base(m.baseUrl) + everything() + "\n[input]\nmax_bytes = 1024\n");

  const prompt = await hey(["-p", "/mcp:everything:args-prompt city=Paris state=TX"]);
  expect(prompt).toMatchObject({ code: 0, stdout: "ok\n" });
  expect(lastUserText(m.requests[0]!)).toBe("What's weather in Paris, TX?");

  const missing = await hey(["-p", "/mcp:everything:args-prompt"]);
  expect(missing).toMatchObject({
    code: 2,
    stderr: expect.stringContaining("hey: /mcp:everything:args-prompt needs city (Name of the city); usage: /mcp:everything:args-prompt city=… [state=…]"),
  });
  expect(m.requests).toHaveLength(1); // nothing was sent

  const doc = "demo://resource/static/document/architecture.md";
  const attached = await hey(["-p", `summarize @everything:${doc}`]);
  expect(attached.code).toBe(0);
  const text = lastUserText(m.requests[1]!);
  const original = readFileSync(join(EVERYTHING_SERVER, "..", "docs", "architecture.md"), "utf8");
  expect(text).toStartWith(`summarize @everything:${doc}\n\n\`\`\`everything:${doc}\n${original.slice(0, 200)}`);
  expect(original.length).toBeGreaterThan(1024);
  expect(text).toMatch(/\(truncated: showing the first \d+ of 1616 bytes of the resource\)$/);
  expect(attached.stderr).toMatch(
    /hey: @everything:demo:\/\/resource\/static\/document\/architecture\.md: only the first \d+ of 1616 bytes went into the prompt \(\[input\] max_bytes\)/,
  );
  expect(attached.stderr).not.toContain("is not a file here");

  const unknown = await hey(["-p", "look at @everything:demo://resource/static/document/nope.md"]);
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain("hey: @everything:demo://resource/static/document/nope.md: resource demo://resource/static/document/nope.md failed:");
  expect(m.requests).toHaveLength(2);
  expect(textOf(m.requests[1]!.messages[0])).not.toContain(doc); // the system prompt says nothing of it (the server's instructions are there)
});
