// Where an embedded agent (src/lib.ts, src/embed-dirs.ts) writes when the program names no place:
// under hey's cache directory in `embed/`, never into the CLI's own files; where it does name one,
// there. And the provider keys the commands never see, whenever the provider was made.
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createAgent, createMcp, createProvider, defaultTools } from "../src/lib.ts";
import { tempDir } from "./helpers/e2e.ts";
import { BUN, FAKE_SERVER } from "./helpers/mcp.ts";
import { startModelServer, textOf } from "./helpers/model-server.ts";
import { until } from "./helpers/wait.ts";

const dir = tempDir("hey-embed-dirs-");
const cache = join(dir.path, "xdg-cache");
const before = process.env.XDG_CACHE_HOME;
process.env.XDG_CACHE_HOME = cache;
afterAll(() => {
  if (before === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = before;
  delete process.env.HEY_EMBED_DIRS_KEY;
  dir.remove();
});
const ctx = () => ({ cwd: dir.path, signal: new AbortController().signal });

test("defaultTools made before createProvider: the commands still get no variable holding the provider's key", async () => {
  const key = "hk-made-after-the-tools-7c1e0a9b55d2";
  process.env.HEY_EMBED_DIRS_KEY = key; // in the environment from the start, as an exported API key is
  const [bash] = defaultTools();
  await createProvider({ protocol: "openai", baseUrl: "http://127.0.0.1:9/v1", model: "m", apiKey: key });
  const result = await bash!.run({ command: 'echo "var=[$HEY_EMBED_DIRS_KEY]"' }, ctx());
  expect(result.output).toStartWith("var=[]"); // before: var=[hk-made-after-the-tools-…], the command could send it anywhere
});

/** A model that runs `seq 1 30000` (its output cut, the full one saved to a file), then answers; the file the result names. */
async function savedOutput(options: { outputDir?: string }): Promise<string> {
  const model = startModelServer((req) => (req.messages.some((m) => m.role === "tool") ? { text: "done" } : { calls: [["bash", { command: "seq 1 30000" }]] }));
  try {
    const provider = await createProvider({ protocol: "openai", baseUrl: model.baseUrl, model: "m" });
    await createAgent({ provider, cwd: dir.path, ...options }).send("count", new AbortController().signal);
    const result = textOf(model.requests.at(-1)!.messages.findLast((m) => m.role === "tool"));
    return /(\/\S+\.log)/.exec(result)?.[1] ?? `no file named in: ${result.slice(-300)}`;
  } finally {
    model.stop();
  }
}

test("a cut command's full output goes to the program's outputDir, else under the cache's embed/ folder, never the CLI's outputs", async () => {
  const own = join(dir.path, "my-outputs");
  const mine = await savedOutput({ outputDir: own });
  expect(mine.startsWith(`${own}/`)).toBe(true);
  expect(existsSync(mine)).toBe(true);
  const byDefault = await savedOutput({});
  expect(byDefault.startsWith(join(cache, "hey", "embed", "outputs") + "/")).toBe(true); // before: <cache>/hey/outputs, the CLI's, pruned by its budget
  expect(existsSync(byDefault)).toBe(true);
  expect(existsSync(join(cache, "hey", "outputs"))).toBe(false);
});

test("createMcp with no cacheDir keeps its tool lists under the cache's embed/ folder: the CLI's cached list for a server of the same name stays", async () => {
  const cli = join(cache, "hey", "mcp");
  mkdirSync(cli, { recursive: true });
  const theirs = join(cli, "fake-0123456789abcdef.json");
  writeFileSync(theirs, JSON.stringify({ server: "fake", tools: [{ name: "theirs", inputSchema: { type: "object" } }] }));
  const mcp = createMcp([{ name: "fake", command: BUN, args: [FAKE_SERVER, "ok", "fake", "echo"] }]);
  try {
    await mcp.settled("fake", new AbortController().signal);
    await mcp.tools([], new AbortController().signal);
    const lists = () => readdirSync(join(cache, "hey", "embed", "mcp")).filter((f) => f.startsWith("fake-"));
    await until(() => existsSync(join(cache, "hey", "embed", "mcp")) && lists().length > 0, "the program's tool list saved");
    expect(lists()).toHaveLength(1);
    expect(existsSync(theirs)).toBe(true); // before: the program's list replaced the CLI's
  } finally {
    await mcp.close();
  }
});
