// The real reference servers' tools (server-everything, server-filesystem) and hey's own, replayed
// through each protocol's request builder: every API takes them as they are, so each schema is sent
// exactly as listed — nothing a valid schema does not need is changed, and the cached prefix of a
// session that has them stays what it was.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { realpathSync } from "node:fs";
import { chooseShell } from "../../src/tools/shell.ts";
import { createTools } from "../../src/builtin-tools.ts";
import { tempDir } from "../helpers/e2e.ts";
import { EVERYTHING_SERVER, FS_SERVER, serverSettings, testManager, type TestManager } from "../helpers/mcp.ts";
import { sentSchemas, PROTOCOLS_ALL } from "../helpers/sent-schemas.ts";
import { defaultSettingsForTest } from "../helpers/settings.ts";

setDefaultTimeout(60_000);

let cache: ReturnType<typeof tempDir>;
let root: ReturnType<typeof tempDir>;
let m: TestManager;
beforeAll(() => {
  cache = tempDir("hey-mcp-cache-");
  root = tempDir("hey-fs-root-");
  m = testManager(
    [
      serverSettings("ev", { command: "node", args: [EVERYTHING_SERVER, "stdio"] }),
      serverSettings("fs", { command: "node", args: [FS_SERVER, realpathSync(root.path)] }),
    ],
    { cacheDir: cache.path },
  );
});
afterAll(async () => {
  await m.manager.close();
  cache.remove();
  root.remove();
});

test.each(PROTOCOLS_ALL)("%s: every tool's schema is sent as listed", async (protocol) => {
  const mcp = await m.tools();
  expect(mcp.map((t) => t.name)).toEqual(expect.arrayContaining(["echo", "get-sum", "read_multiple_files", "edit_file", "directory_tree"]));
  const own = createTools(defaultSettingsForTest(), {
    shell: chooseShell({ platform: process.platform, findOnPath: (n) => Bun.which(n) ?? undefined }),
    raw: false,
  });
  const tools = [...own, ...mcp];
  const schemas = sentSchemas(protocol, tools);
  expect(schemas).toEqual(tools.map((t) => t.parameters));
  for (const [i, s] of schemas.entries()) expect(s).toBe(tools[i]!.parameters); // the very objects: nothing copied or rebuilt
});
