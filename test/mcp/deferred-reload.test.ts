// Deferred MCP tools through the manager, over real processes (our fake server): the request
// carries find_tools, a load appends the tool to the next request, a call by name to a deferred one
// runs, `/reload` keeps the loaded tools that still exist, and a new session starts with none.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import type { McpServerSettings } from "../../src/config/settings.ts";
import { carriedNames } from "../../src/mcp/deferred.ts";
import { tempDir } from "../helpers/e2e.ts";
import { BUN, FAKE_SERVER, serverSettings, testManager, type TestManager } from "../helpers/mcp.ts";
import { defaultSettingsForTest } from "../helpers/settings.ts";

setDefaultTimeout(60_000);

let dir: ReturnType<typeof tempDir>;
let m: TestManager | undefined;
beforeEach(() => {
  dir = tempDir("hey-mcp-defer-");
});
afterEach(async () => {
  await m?.manager.close();
  dir.remove();
});

const fake = (name: string, tools: string) => serverSettings(name, { command: BUN, args: [FAKE_SERVER, "ok", name, tools] });
const names = async () => (await m!.tools()).map((t) => t.name);
const ctx = { signal: new AbortController().signal, cwd: "/" };

test("find_tools loads a tool into the next request, a deferred tool runs by name, /reload keeps what still exists, a new session loads nothing", async () => {
  const servers: McpServerSettings[] = [fake("a", "alpha,beta,gamma"), fake("b", "delta")];
  m = testManager(servers, { cacheDir: join(dir.path, "cache"), deferTools: "always" });
  expect(await names()).toEqual(["find_tools"]);
  const find = (await m.tools()).find((t) => t.name === "find_tools")!;
  expect(find.description).toContain("Not loaded: a: alpha, beta, gamma; b: delta.");
  expect((await find.run({ names: ["gamma", "delta"] }, ctx)).output).toStartWith("loaded: gamma, delta\n");
  expect(await names()).toEqual(["find_tools", "gamma", "delta"]);

  expect((await m.manager.deferred("beta")!.run({ text: "hi" }, ctx)).output).toBe("a: hi");
  expect(m.manager.deferred("gamma")).toBeUndefined(); // loaded: the request offers it
  expect(await names()).toEqual(["find_tools", "gamma", "delta", "beta"]);
  expect(m.manager.offer().deferred).toEqual(["alpha"]);

  // b goes: its delta is no longer offered; the others stay where they were
  const staged = await m.manager.reloadable.check({
    ...defaultSettingsForTest(),
    mcp: { servers: [servers[0]!], startupWaitMs: 20_000, deferTools: "always" },
  });
  await staged.apply();
  expect(await names()).toEqual(["find_tools", "gamma", "beta"]);

  m.manager.resume([]);
  expect(await names()).toEqual(["find_tools"]);
});

test("what /reload compares is what the request carries: find_tools and the loaded tools, never the deferred ones, also once every one is loaded", async () => {
  m = testManager([fake("a", "alpha,beta")], { cacheDir: join(dir.path, "cache"), deferTools: "always" });
  const carried = () => carriedNames(m!.manager.offer()).sort();
  expect(await names()).toEqual(["find_tools"]);
  expect(carried()).toEqual(["find_tools"]); // before: alpha, beta — which /reload then told the model were removed, and find_tools added
  const find = (await m.tools()).find((t) => t.name === "find_tools")!;
  await find.run({ names: ["beta"] }, ctx);
  expect(carried()).toEqual((await names()).sort());
  expect(carried()).toEqual(["beta", "find_tools"]);
  await find.run({ names: ["alpha"] }, ctx);
  expect(await names()).toEqual(["find_tools", "beta", "alpha"]); // find_tools stays with nothing left to find
  expect(carried()).toEqual(["alpha", "beta", "find_tools"]);
});

test("without deferring, every offered tool is carried and find_tools is not", async () => {
  m = testManager([fake("a", "alpha,beta")], { cacheDir: join(dir.path, "cache"), deferTools: "never" });
  expect(await names()).toEqual(["alpha", "beta"]);
  expect(carriedNames(m.manager.offer())).toEqual(["alpha", "beta"]);
});
