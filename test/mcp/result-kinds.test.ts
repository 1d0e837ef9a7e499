// What the model gets back from a server of our own (test/fixtures/mcp/fake-server.ts `results`):
// structured content alone as JSON text, an image alone, an error result, and a long text cut at
// 8,000 characters with the whole in a private file under the cache dir, named in the result.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/e2e.ts";
import { BUN, FAKE_SERVER, serverSettings, testManager, type TestManager } from "../helpers/mcp.ts";

setDefaultTimeout(60_000);

let cache: ReturnType<typeof tempDir>;
let m: TestManager;
beforeAll(() => {
  cache = tempDir("hey-mcp-cache-");
  m = testManager([serverSettings("kinds", { command: BUN, args: [FAKE_SERVER, "results"] })], { cacheDir: cache.path });
});
afterAll(async () => {
  await m.manager.close();
  cache.remove();
});

test("structured content without text is the JSON text", async () => {
  expect(await m.call("structured")).toEqual({ output: '{\n  "temperature": 21,\n  "city": "Lisbon"\n}' });
});

test("an image alone: an IR image, named in the text", async () => {
  const r = await m.call("image");
  expect(r.output).toBe("[image image/png]");
  expect(r.images).toEqual([{ type: "image", mediaType: "image/png", data: expect.stringMatching(/^iVBOR/) }]);
});

test("a part of a kind no MCP version has, an image no model takes, a screenshot as an embedded resource: the call serves, each as the model can take it", async () => {
  // before: the SDK's check of the result refused the whole call ("echo failed: [ { code: invalid_union … ")
  const r = await m.call("odd");
  expect(r.output).toBe("here\n[chart content omitted]\n[image image/svg+xml omitted: not PNG, JPEG, GIF or WebP, the kinds a model takes]");
  expect(r.images).toEqual([{ type: "image", mediaType: "image/png", data: expect.stringMatching(/^iVBOR/) }]);
});

test("isError is a tool error", async () => {
  expect(await m.call("fail")).toEqual({ output: "the database is locked", isError: true });
});

test("20,000 characters: the first 8,000, then a note naming a private file under the cache dir with all of it", async () => {
  const r = await m.call("big");
  const [head, note] = [r.output.slice(0, 8_000), r.output.slice(8_001)];
  expect(head).toBe("0123456789".repeat(800));
  const path = /the full text is in (\S+) /.exec(note)![1]!;
  expect(note).toBe(`[cut at 8,000 of 20,000 characters; the full text is in ${path} (read it with read_file offset/limit or grep)]`);
  expect(path.startsWith(join(cache.path, "mcp", "output", "kinds-"))).toBe(true);
  expect(readFileSync(path, "utf8")).toBe("0123456789".repeat(2_000));
  expect(statSync(path).mode & 0o777).toBe(0o600);
});
