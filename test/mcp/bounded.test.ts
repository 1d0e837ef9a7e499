// MCP answers are bounded while read (issue 24): a server's 100 MB answer — over stdio or HTTP —
// fails its call at once with its size, instead of taking hey to ~400 MB and past its timeout;
// answers under the bound still arrive (cut for the model, whole in a file).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { messageLimit } from "../../src/mcp/http-retry.ts";
import { MAX_MESSAGE_BYTES, messageId } from "../../src/mcp/stdio.ts";
import { tempDir } from "../helpers/e2e.ts";
import { BUN, FAKE_SERVER, serverSettings, startEverythingHttp, testManager, type HttpServer } from "../helpers/mcp.ts";

setDefaultTimeout(60_000);

let cache: ReturnType<typeof tempDir>;
beforeAll(() => void (cache = tempDir("hey-mcp-bounded-")));
afterAll(() => cache.remove());

const MB = 1024 * 1024;

describe("stdio", () => {
  test("a 100 MB answer fails its call at once, naming its size, and the server stays usable", async () => {
    const m = testManager([serverSettings("big", { command: BUN, args: [FAKE_SERVER, "huge", "100"] })], { cacheDir: cache.path });
    try {
      expect((await m.call("huge", { mb: 1 })).isError).toBeUndefined(); // the SDK loaded, the server up
      Bun.gc(true);
      const before = process.memoryUsage().rss;
      const started = performance.now();
      const r = await m.call("huge");
      expect(r.isError).toBe(true);
      expect(r.output).toContain("the server's answer was 100 MB, more than the 16 MB hey reads, so it was dropped");
      expect(performance.now() - started).toBeLessThan(20_000); // it used to wait out the whole timeout
      // what the answer may cost: the bound and a copy of it, not the 100 MB (a JS string of it alone would double that)
      Bun.gc(true);
      expect(process.memoryUsage().rss - before).toBeLessThan(3 * MAX_MESSAGE_BYTES);
      expect(m.manager.status()[0]?.state).toBe("connected");
    } finally {
      await m.manager.close();
    }
  });

  test("a 2 MB answer arrives: cut for the model, the whole text in a file", async () => {
    const m = testManager([serverSettings("mid", { command: BUN, args: [FAKE_SERVER, "huge", "2"] })], { cacheDir: cache.path });
    try {
      const r = await m.call("huge");
      expect(r.isError).toBeUndefined();
      expect(r.output).toMatch(/\[cut at 8,000 of 1,966,080 characters; the full text is in \S+ /);
    } finally {
      await m.manager.close();
    }
  });

  test.each([
    ["id first (most servers)", '{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"', "…", 7],
    ["id last (the TypeScript SDK)", '{"result":{"content":[{"type":"text","text":"', 'x"}]},"jsonrpc":"2.0","id":12}', 12],
    ["a string id", '{"id":"abc-1","jsonrpc":"2.0","result":', "…", "abc-1"],
    ["an id inside the result is not the message's", '{"result":{"x":{"id":5}', 'x"}]},"items":[{"id":9}]}}', undefined],
    ["none", '{"method":"notifications/message","params":{"data":"', 'x"}}', undefined],
  ])("messageId: %s", (_, head, tail, want) => {
    expect(messageId(head, tail)).toBe(want as number | string | undefined);
  });
});

/** Pushes `chunks` through messageLimit(max); what came out, or the error. */
async function limited(chunks: string[], max: number): Promise<string | Error> {
  const input = new ReadableStream<Uint8Array>({
    start(c) {
      for (const chunk of chunks) c.enqueue(new TextEncoder().encode(chunk));
      c.close();
    },
  });
  try {
    return await new Response(input.pipeThrough(messageLimit(max))).text();
  } catch (e) {
    return e as Error;
  }
}

describe("HTTP", () => {
  test.each([
    ["a JSON body under the bound passes", ['{"a":', '"0123456789"}'], 20, '{"a":"0123456789"}'],
    ["a JSON body over it fails", ['{"a":"0123456789', '0123456789"}'], 20, "error"],
    [
      "SSE events each under the bound pass, however many",
      ["data: 0123456789\n\n", "data: 0123456789\n\n", "data: 0123456789\n\n"],
      20,
      "data: 0123456789\n\n".repeat(3),
    ],
    ["one SSE event over it fails, across chunks", ["data: 01234", "56789\ndata: 0123456789\n\n"], 20, "error"],
    [
      "CRLF blank lines end events too, split across chunks",
      ["data: 0123456789\r\n\r", "\ndata: 0123456789\r\n\r\n"],
      20,
      "data: 0123456789\r\n\r\ndata: 0123456789\r\n\r\n",
    ],
  ])("messageLimit: %s", async (_, chunks, max, want) => {
    const out = await limited(chunks, max);
    if (want === "error") expect(out).toBeInstanceOf(Error);
    else expect(out).toBe(want);
  });

  let everything: HttpServer;
  beforeAll(async () => void (everything = await startEverythingHttp("streamableHttp")));
  afterAll(async () => everything.stop());

  test("a remote server's 100 MB answer fails its call, and is not read to its end", async () => {
    let sent = 0;
    const front = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch(req) {
        const body = req.method === "POST" ? await req.text() : undefined;
        if (body?.includes('"tools/call"')) {
          const id = (JSON.parse(body) as { id: number }).id;
          const piece = new TextEncoder().encode("x".repeat(MB));
          const stream = new ReadableStream<Uint8Array>({
            start: (c) => c.enqueue(new TextEncoder().encode(`{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"`)),
            pull(c) {
              if (sent >= 100) return c.close();
              sent++;
              c.enqueue(piece);
            },
          });
          return new Response(stream, { headers: { "content-type": "application/json" } });
        }
        const headers = new Headers(req.headers);
        headers.delete("host");
        return fetch(new URL(new URL(req.url).pathname, everything.url), { method: req.method, headers, body });
      },
    });
    const m = testManager([serverSettings("far", { url: `http://127.0.0.1:${front.port}/mcp` })], { cacheDir: cache.path });
    try {
      const r = await m.call("echo", { message: "x" });
      expect(r.isError).toBe(true);
      expect(r.output).toContain("the server's answer was over 16 MB, more than hey reads, so it was dropped");
      expect(sent).toBeLessThan(40); // hey stopped reading soon after the bound
    } finally {
      await m.manager.close();
      front.stop(true);
    }
  });
});
