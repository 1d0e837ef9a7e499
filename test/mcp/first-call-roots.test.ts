// A server that asks for hey's roots when it starts (server-filesystem started with no directory)
// has them by its first call, even a call sent the moment it is ready: it takes the answer in
// only after its own checks, so hey lets that first call wait a moment (client.ts ROOTS_SETTLE_MS).
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { tempDir } from "../helpers/e2e.ts";
import { BUN, FAKE_SERVER, FS_SERVER, serverSettings, testManager, type TestManager } from "../helpers/mcp.ts";

setDefaultTimeout(120_000);

const dirs: ReturnType<typeof tempDir>[] = [];
const managers: TestManager[] = [];
afterEach(async () => {
  for (const m of managers.splice(0)) await m.manager.close();
  for (const d of dirs.splice(0)) d.remove();
});
const dir = (prefix: string) => {
  const d = tempDir(prefix);
  dirs.push(d);
  return d.path;
};
const open = (command: string, args: string[], root: string) => {
  const m = testManager([serverSettings("s", { command, args })], { cacheDir: dir("hey-mcp-cache-"), roots: [root] });
  managers.push(m);
  return m;
};

test("a server that takes its roots in 100 ms after hey answers has them by its first call", async () => {
  const root = realpathSync(dir("hey-roots-"));
  const m = open(BUN, [FAKE_SERVER, "roots", "100"], root);
  expect(await m.call("where")).toEqual({ output: `roots: ${pathToFileURL(root).href}` });
});

test("server-filesystem with no directory: the first call of each of 8 fresh starts reads a file of hey's root", async () => {
  const root = realpathSync(dir("hey-fs-first-"));
  writeFileSync(join(root, "notes.txt"), "hello\n");
  const answers: string[] = [];
  for (let i = 0; i < 8; i++) {
    const m = open("node", [FS_SERVER], root);
    answers.push((await m.call("read_text_file", { path: join(root, "notes.txt") })).output);
    await m.manager.close();
  }
  expect(answers).toEqual(Array(8).fill("hello\n"));
});
