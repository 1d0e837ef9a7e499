// Three MCP servers of 120 tools each on an OpenAI-protocol endpoint (x13): the API refuses every
// request over 128 tools, with a 400 that names no server. hey says at the first request how many
// tools each server offers and a way under the cap, and the error line says it again. Through
// dist/hey, with our fake servers and a mock endpoint that answers as OpenAI's does.
import { expect, setDefaultTimeout, test } from "bun:test";
import { ensureBinary, runHey } from "../helpers/e2e.ts";
import { eachModelServers, eachTempDir, writeUserConfig } from "../helpers/fixtures.ts";
import { BUN, FAKE_SERVER } from "../helpers/mcp.ts";

setDefaultTimeout(120_000);

const home = eachTempDir("hey-mcp-cap-");
const model = eachModelServers();

test("over 128 tools: each server's count and the keys that bring it under, at start and on the API's 400", async () => {
  await ensureBinary();
  const m = model((req) => {
    const n = req.tools?.length ?? 0;
    if (n > 128) throw new Error(`Invalid 'tools': array too long. Expected an array with maximum length 128, but got an array with length ${n} instead.`);
    return { text: "fine" };
  });
  const server = (name: string) => {
    const tools = Array.from({ length: 120 }, (_, i) => `${name}_${i}`).join(",");
    return `\n[mcp.${name}]\ncommand = ${JSON.stringify(BUN)}\nargs = ${JSON.stringify([FAKE_SERVER, "ok", name, tools])}\n`;
  };
  writeUserConfig(
    home.path,
    `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${m.baseUrl}"\nmodels = ["m"]\n\n[mcp]\nstartup_wait_ms = 30000\n` +
      server("alpha") +
      server("beta") +
      server("gamma"),
  );
  const run = await runHey(["-p", "hello"], { env: { HOME: home.path }, cwd: home.path, timeoutMs: 90_000 });
  expect(run.code).not.toBe(0);
  const n = m.requests[0]!.tools!.length;
  const why = `a request offers ${n} tools, more than the 128 OpenAI's API takes (it refuses every request over it): MCP servers alpha 120, beta 120, gamma 120; hey's own ${n - 360}.`;
  expect(run.stderr).toContain(`hey: ${why} Leave out at least ${n - 128}: enabled = false in [mcp.alpha], and in [mcp.beta] tools = [...] naming at most`);
  // the error line: the API's words, then hey's
  expect(run.stderr).toContain(`array too long. Expected an array with maximum length 128, but got an array with length ${n} instead.`);
  expect(run.stderr.split("\n").filter((l) => l.includes(why))).toHaveLength(2);
  // hey mcp says it too, before any request
  const listed = await runHey(["mcp"], { env: { HOME: home.path }, cwd: home.path, timeoutMs: 90_000 });
  expect(listed.stdout).toContain(`\nhey: ${why} Leave out at least ${n - 128}: `);
});
