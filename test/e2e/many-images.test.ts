// Past Claude's 20 images (any over 2000 px a side) dist/hey leaves out the oldest down to 10, and
// the same ones in every request after, so the requests between two crossings of the limit
// extend one cached prompt (before: each new image left out the next-oldest, and every request
// from the 21st on rewrote the prompt from there: 12–15 % read from Anthropic's cache). `hey -c`
// leaves out the same ones.
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { anthropicBlocks, anthropicCache } from "../../scripts/cache-emulator.ts";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { fileReplayServer, fileTempDir } from "../helpers/fixtures.ts";
import { textReply, toolCallsReply } from "../helpers/protocol-streams.ts";

const server = fileReplayServer();
const work = fileTempDir("hey-many-images-");

/** A PNG `width`×`height` px of `bytes` bytes, told apart by `n`: its signature and header, filler, and its IEND chunk. */
function png(width: number, height: number, bytes: number, n: number): Uint8Array {
  const out = new Uint8Array(bytes).fill(n);
  out.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(out.buffer).setUint32(16, width);
  new DataView(out.buffer).setUint32(20, height);
  out.set([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82], bytes - 12);
  return out;
}

type Body = { messages: { content: string | { type: string; content?: string | { type: string }[] }[] }[] };
/** The images a request sends, in tool results or on their own. */
const imagesIn = (body: unknown) =>
  (body as Body).messages
    .flatMap((m) => (typeof m.content === "string" ? [] : m.content))
    .flatMap((p) => (p.type === "tool_result" && Array.isArray(p.content) ? p.content : [p]))
    .filter((p) => p.type === "image").length;

test("24 screenshots 2100 px wide read one a turn on Anthropic: the request after the 21st sends the newest 10, and the three after it each read all of the one before from the cache (before: 12–15 % each), and so does the first of `hey -c`", async () => {
  const home = tempDir("hey-many-images-home-");
  try {
    mkdirSync(join(work.path, "shots"), { recursive: true });
    for (let n = 1; n <= 24; n++) writeFileSync(join(work.path, "shots", `s${n}.png`), png(2100, 20, 4000, n));
    writeFileSync(join(home.path, "config.toml"), "[agent]\nbudget_tokens = 200000\n");
    const before = server.requests.length;
    for (let n = 1; n <= 24; n++) server.enqueue(toolCallsReply("anthropic", [{ id: `toolu_${n}`, name: "read_file", args: { path: `shots/s${n}.png` } }]));
    server.enqueue(textReply("anthropic", "All seen."));
    const run = await runHey(
      [
        "--base-url",
        `${server.url}/v1`,
        "--protocol",
        "anthropic",
        "-m",
        "claude-sonnet-4-5",
        "--config",
        join(home.path, "config.toml"),
        "--max-turns",
        "40",
        "-p",
        "look at the screenshots",
      ],
      { cwd: work.path, env: { HOME: home.path } },
    );
    expect(run.code).toBe(0);
    const bodies = server.requests.slice(before).map((r) => r.body as Parameters<typeof anthropicBlocks>[0]);
    expect(bodies.length).toBe(25);
    expect(bodies.map(imagesIn).slice(20)).toEqual([20, 10, 11, 12, 13]); // the request after the nth read carries n images
    expect(run.stderr).toContain(
      "11 images are sent as a line saying so, not as an image: left out to keep the request to 20 images, above which Anthropic takes none over 2000 px; the oldest go first, down to 10",
    );
    const counts = anthropicCache(bodies.map(anthropicBlocks));
    for (const n of [22, 23, 24]) {
      // all of the request before is read from the cache, its newest result included
      const previous = counts[n - 1]!;
      expect(counts[n]!.read).toBeGreaterThanOrEqual(previous.sent - 20);
    }

    // `hey -c`: the same images left out, as the same lines, so its first request reads all of the last one's from the cache
    server.enqueue(textReply("anthropic", "Still seen."));
    const resumed = await runHey(
      [
        "--base-url",
        `${server.url}/v1`,
        "--protocol",
        "anthropic",
        "-m",
        "claude-sonnet-4-5",
        "--config",
        join(home.path, "config.toml"),
        "-c",
        "-p",
        "and now?",
      ],
      { cwd: work.path, env: { HOME: home.path } },
    );
    expect(resumed.code).toBe(0);
    const both = [...bodies, server.requests.at(-1)!.body as Parameters<typeof anthropicBlocks>[0]];
    expect(imagesIn(both.at(-1))).toBe(13);
    const again = anthropicCache(both.map(anthropicBlocks));
    expect(again.at(-1)!.read).toBeGreaterThanOrEqual(again.at(-2)!.sent - 20);
  } finally {
    home.remove();
  }
});
