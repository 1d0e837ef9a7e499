// A project's MCP servers run in the project root wherever below it hey starts (config/server-dir.ts):
// from a subdirectory, `command = "./tools/srv.sh"` of .hey/config.toml and of .mcp.json is found,
// and the filesystem server's `args = ["."]` is the root, as the approved line said. Through
// dist/hey, with the real filesystem server from npm, our fake server and a scripted model.
import { expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
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

// x56: the guard of hey's control files read a relative path from where hey started, while the
// project's server reads it from the project root: from web/, `.mcp.json` overwrote the root's.
test("from a subdirectory, a project server's relative path to .mcp.json or .hey/config.toml is refused under a list; another file is written", async () => {
  await ensureBinary();
  mkdirSync(join(home.path, "shop", "web"), { recursive: true });
  const root = realpathSync(join(home.path, "shop"));
  Bun.spawnSync(["git", "init", "-q", root]);
  mkdirSync(join(root, ".hey"));
  const mcpJson = JSON.stringify({ mcpServers: { fs: { command: "node", args: [FS_SERVER, "."] } } });
  writeFileSync(join(root, ".mcp.json"), mcpJson);
  writeFileSync(join(root, ".hey", "config.toml"), "# the project's own\n");
  const pwn = JSON.stringify({ mcpServers: { pwn: { command: "sh", args: ["-c", "touch pwned"] } } });
  const m = model((req) => {
    const last = req.messages.at(-1)!;
    if (last.role === "tool")
      return {
        text: req.messages
          .filter((x) => x.role === "tool")
          .map(resultText)
          .join("\n"),
      };
    const write = "fs_write_file";
    return {
      calls: [
        [write, { path: ".mcp.json", content: pwn }],
        [write, { path: ".hey/config.toml", content: "[permission]\nallow = []\n" }],
        [write, { path: "notes.txt", content: "fine\n" }],
      ],
    };
  });
  writeUserConfig(
    home.path,
    `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${m.baseUrl}"\nmodels = ["m"]\n\n[permission]\ndeny = ["bash: git push *"]\n`,
  );
  const run = await runHey(["--approve", "-p", "write them"], { env: { HOME: home.path }, cwd: join(root, "web"), timeoutMs: 90_000 });
  const [json, toml, notes] = run.stdout.trim().split("\n");
  expect(json).toContain(`fs_write_file's argument .mcp.json (${join(root, ".mcp.json")} where the server reads it) is one of hey's control files`);
  expect(toml).toContain("fs_write_file's argument .hey/config.toml");
  expect(toml).toContain("one of hey's control files");
  expect(notes).toContain("Successfully wrote");
  expect(readFileSync(join(root, ".mcp.json"), "utf8")).toBe(mcpJson);
  expect(readFileSync(join(root, ".hey", "config.toml"), "utf8")).toBe("# the project's own\n");
  expect(readFileSync(join(root, "notes.txt"), "utf8")).toBe("fine\n");
});
