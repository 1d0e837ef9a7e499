// An allow list that names none of an MCP server's tools (x96 finding 2): the server connected, all
// its tools were left out, and neither the user nor the model was told why — the REPL said "0 of
// its 14 tools offered", `hey -p` nothing (its cached list in the next run), and the model, which
// had added the server, took it for live. Both now read that [permission] refuses them, and the
// entry that would allow them. Through dist/hey, with the real filesystem server from npm.
import { expect, setDefaultTimeout, test } from "bun:test";
import { realpathSync } from "node:fs";
import { ensureBinary, runHey } from "../helpers/e2e.ts";
import { eachModelServers, eachTempDir, writeUserConfig } from "../helpers/fixtures.ts";
import { FS_SERVER } from "../helpers/mcp.ts";
import { textOf } from "../helpers/model-server.ts";

setDefaultTimeout(120_000);

const home = eachTempDir("hey-mcp-refused-");
const model = eachModelServers();

test("a server whose tools the allow list all refuses is said, with the entry that allows them, to the user and to the model, also from its cached list", async () => {
  await ensureBinary();
  const root = realpathSync(home.path);
  const m = model(() => ({ text: "ok" }));
  writeUserConfig(
    home.path,
    `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${m.baseUrl}"\nmodels = ["m"]\n\n` +
      `[permission]\nallow = ["read_file", "write_file", "bash: ls *"]\n\n[mcp.fs]\ncommand = "node"\nargs = [${JSON.stringify(FS_SERVER)}, ${JSON.stringify(root)}]\n`,
  );
  const line =
    /^hey: MCP server fs: \[permission\] refuses all \d+ of its tools, so the agent is offered none; to let it use them, add "mcp__fs" to \[permission\] allow/m;
  for (const run of [0, 1]) {
    // the second run offers the server's cached list: no "connected" line, the refusal is still said
    const done = await runHey(["-p", "use fs"], { env: { HOME: home.path }, cwd: root, timeoutMs: 90_000 });
    expect(done.code).toBe(0);
    expect(done.stderr).toMatch(line);
    const sent = m.requests.at(-1)!;
    expect((sent.tools ?? []).map((t) => t.function.name).some((n) => n.includes("list_allowed_directories"))).toBe(false);
    const told = sent.messages.map((x) => textOf(x)).join("\n");
    expect(told, `run ${run}`).toContain("MCP server fs is running, but the user's [permission] lists refuse all");
    expect(told).toContain('ask them to add "mcp__fs" to [permission] allow');
  }
});
