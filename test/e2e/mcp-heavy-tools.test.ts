// An MCP server whose tool schemas fill much of the context budget (one tool with 2,000
// properties: ~32k tokens in every request, of the 40k budget) is named at start with the keys
// that leave its tools out, instead of only `connected: huge (2 tools)`; the model is not told to
// compress what cannot be compressed; a model whose window the tools alone exceed ends the run
// naming them. Through dist/hey and a loopback model.
import { expect, setDefaultTimeout, test } from "bun:test";
import { runHey } from "../helpers/e2e.ts";
import { eachModelServers, eachTempDir, writeUserConfig } from "../helpers/fixtures.ts";
import { BUN, FAKE_SERVER } from "../helpers/mcp.ts";
import { textOf } from "../helpers/model-server.ts";

setDefaultTimeout(120_000); // the first test may build dist/hey

const home = eachTempDir("hey-mcp-heavy-");
const model = eachModelServers();
const config = (baseUrl: string) =>
  `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${baseUrl}"\nmodels = ["m"]\n\n` +
  `[mcp.huge]\ncommand = ${JSON.stringify(BUN)}\nargs = [${JSON.stringify(FAKE_SERVER)}, "wide", "2000"]\ndefer = false\n`; // sent whole: deferred, it would weigh nothing
const hey = (args: string[]) => runHey(args, { cwd: home.path, env: { HOME: home.path }, timeoutMs: 60_000 });

test("a server whose tools take more than a quarter of the budget is named once, with how to leave them out", async () => {
  const m = model(() => ({ text: "hello" }));
  writeUserConfig(home.path, config(m.baseUrl));
  const run = await hey(["-p", "hello"]);
  expect(run.code).toBe(0);
  const warnings = run.stderr.split("\n").filter((l) => l.includes("MCP server huge's tools take"));
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toMatch(
    /^hey: MCP server huge's tools take ~[\d,]+ tokens of every request, more than a quarter of the 40k budget \(wide ~[\d,]+\); leave tools out with \[mcp\.huge\] exclude_tools = \["wide"\] \(or tools = \[\.\.\.\], the ones to keep\)$/,
  );

  // the model hears how full its context is, but not to compress: there is nothing to compress, the tools fill it
  const note = textOf(m.requests[0]!.messages.at(-1));
  expect(note).toMatch(/\nContext: [^\n]*budget/);
  expect(note).not.toMatch(/use compress/i);

  // the next run offers the cached list at once: said again, as each run starts anew
  const again = await hey(["-c", "-p", "hello"]);
  expect(again.stderr).toContain("MCP server huge's tools take");

  // with the tool left out, nothing is said
  writeUserConfig(home.path, `${config(m.baseUrl)}exclude_tools = ["wide"]\n`);
  const lean = await hey(["-p", "hello"]);
  expect(lean.code).toBe(0);
  expect(lean.stderr).not.toContain("tools take");
});

test("a model that refuses the request as larger than its window, when the tools alone are: hey stops naming the server, sending nothing cut", async () => {
  const WINDOW = 16_000;
  const m = model((req) => {
    const tokens = Math.ceil(JSON.stringify(req).length / 4);
    if (tokens > WINDOW) throw new Error(`This model's maximum context length is ${WINDOW} tokens. However, your messages resulted in ${tokens} tokens.`);
    return { text: "hello" };
  });
  writeUserConfig(home.path, config(m.baseUrl));
  const run = await hey(["-p", "hello"]);
  expect(run.code).toBe(1);
  expect(m.requests).toHaveLength(1); // not sent again cut by a token
  expect(run.stderr).not.toContain("the request was cut to fit");
  const error = run.stderr.split("\n").find((l) => l.startsWith("error:"));
  expect(error).toMatch(
    /^error: the tools and system prompt alone take ~[\d,]+ tokens, more than the model's window of ~16,000: MCP server huge's tools take ~[\d,]+ \(wide ~[\d,]+\); leave tools out with \[mcp\.huge\] exclude_tools = \["wide"\]/,
  );
});
