// A project's MCP servers run in the project root wherever below it hey starts (config/server-dir.ts):
// from a subdirectory, `command = "./tools/srv.sh"` of .hey/config.toml and of .mcp.json is found,
// and the filesystem server's `args = ["."]` is the root, as the approved line said. Through
// dist/hey, with the real filesystem server from npm, our fake server and a scripted model.
import { expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, runHey } from "../helpers/e2e.ts";
import { eachModelServers, eachTempDir, writeUserConfig } from "../helpers/fixtures.ts";
import { BUN, FAKE_SERVER, FS_SERVER } from "../helpers/mcp.ts";
import { resultText, type ChatRequest } from "../helpers/model-server.ts";

setDefaultTimeout(120_000);

const home = eachTempDir("hey-mcp-project-dir-");
const model = eachModelServers();
const offered = (req: ChatRequest, end: string) => (req.tools ?? []).map((t) => t.function.name).find((n) => n.endsWith(end))!;

test('from a subdirectory, a project\'s servers run in its root: ./tools/srv.sh is found, args = ["."] is the root', async () => {
  await ensureBinary();
  mkdirSync(join(home.path, "shop", "web"), { recursive: true });
  const root = realpathSync(join(home.path, "shop"));
  Bun.spawnSync(["git", "init", "-q", root]);
  mkdirSync(join(root, ".hey"));
  mkdirSync(join(root, "tools"));
  for (const [script, label] of [
    ["srv.sh", "toml"],
    ["json.sh", "json"],
  ] as const) {
    writeFileSync(join(root, "tools", script), `#!/bin/sh\nexec ${BUN} ${FAKE_SERVER} ok ${label} ${label}_echo\n`);
    chmodSync(join(root, "tools", script), 0o755);
  }
  writeFileSync(
    join(root, ".hey", "config.toml"),
    `[mcp.fs]\ncommand = "node"\nargs = [${JSON.stringify(FS_SERVER)}, "."]\n\n[mcp.local]\ncommand = "./tools/srv.sh"\n`,
  );
  writeFileSync(join(root, ".mcp.json"), JSON.stringify({ mcpServers: { fromjson: { command: "./tools/json.sh" } } }));
  const m = model((req) => {
    const last = req.messages.at(-1)!;
    if (last.role === "tool") {
      const results = req.messages.filter((x) => x.role === "tool").map(resultText);
      return { text: results.join(" | ") };
    }
    return {
      calls: [
        [offered(req, "list_allowed_directories"), {}],
        [offered(req, "toml_echo"), { text: "hi" }],
        [offered(req, "json_echo"), { text: "hi" }],
      ],
    };
  });
  writeUserConfig(home.path, `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${m.baseUrl}"\nmodels = ["m"]\n`);
  const run = await runHey(["--approve", "-p", "look around"], { env: { HOME: home.path }, cwd: join(root, "web"), timeoutMs: 90_000 });
  expect(run.stderr).not.toContain("not found");
  expect(run.stdout).toBe(`Allowed directories:\n${root} | toml: hi | json: hi\n`);
});
