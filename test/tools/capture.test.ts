// capture(): what the bash tool keeps of a stream. The spill file must be the stream byte for byte
// whatever the chunk sizes (issue 10: a chunk that exactly filled memory once lost ~2 MB), and the
// head, tail and hidden counts must add up to the whole.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { capture, CAPTURE_LIMITS, type CaptureLimits } from "../../src/tools/capture.ts";

const dir = mkdtempSync(join(tmpdir(), "hey-capture-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

/** Deterministic bytes with newlines, so line counts are tested too. */
function input(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = i % 61 === 60 ? 10 : 97 + ((i * 7) % 26);
  return bytes;
}

function streamOf(data: Uint8Array, chunk: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(c) {
      if (at >= data.length) return c.close();
      c.enqueue(data.slice(at, at + chunk));
      at += chunk;
    },
  });
}

const newlines = (b: Uint8Array) => b.reduce((k, x) => k + (x === 10 ? 1 : 0), 0);

async function run(data: Uint8Array, chunk: number, limits: CaptureLimits) {
  const path = join(dir, `spill-${n++}`);
  const c = capture(streamOf(data, chunk), () => path, limits);
  await c.done;
  return { got: await c.finish(), path };
}

describe.each([
  ["small limits", { memoryBytes: 1000, keepBytes: 100 }],
  ["the real limits", CAPTURE_LIMITS],
])("capture with %s", (_name, limits) => {
  const size = limits.memoryBytes * 3 + 17;
  const data = input(size);
  test.each([
    ["exactly the memory cap", limits.memoryBytes],
    ["one byte less", limits.memoryBytes - 1],
    ["one byte more", limits.memoryBytes + 1],
    ["the keep size", limits.keepBytes],
    ["64 KB (a pipe read)", 65536],
    ["everything at once", size],
  ])("chunks of %s: the spill file is the input byte for byte", async (_what, chunk) => {
    const { got, path } = await run(data, chunk, limits);
    expect(got.spill).toBe(path);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(Buffer.compare(readFileSync(path), Buffer.from(data))).toBe(0);
    expect(got.bytes).toBe(size);
    // memory keeps the first keepBytes and at least the last keepBytes, each back to a line's end (lines of 61 bytes here); the counts cover the rest
    const decoder = new TextDecoder();
    const text = decoder.decode(data);
    const firstKept = decoder.decode(data.subarray(0, limits.keepBytes));
    expect(got.head).toBe(firstKept.slice(0, firstKept.lastIndexOf("\n") + 1));
    expect(got.tail.length).toBeGreaterThanOrEqual(limits.keepBytes - 61);
    expect(text.endsWith(got.tail)).toBe(true);
    expect(text[text.length - got.tail.length - 1]).toBe("\n");
    expect(got.head.length + got.hidden.bytes + got.tail.length).toBe(size);
    expect(newlines(data)).toBe(got.hidden.lines + (got.head + got.tail).split("\n").length - 1);
  });

  test("output that exactly fills memory stays in memory, whole", async () => {
    const exact = input(limits.memoryBytes);
    const { got, path } = await run(exact, limits.memoryBytes, limits);
    expect(got.spill).toBeUndefined();
    expect(got.hidden).toEqual({ lines: 0, bytes: 0 });
    expect(got.head).toBe(new TextDecoder().decode(exact));
    expect(() => statSync(path)).toThrow();
  });
});

test("a spill file that cannot be created: head and tail are kept and the reason is given", async () => {
  const taken = join(dir, "taken");
  writeFileSync(taken, "someone else's");
  const data = input(5000);
  const c = capture(streamOf(data, 300), () => taken, { memoryBytes: 1000, keepBytes: 100 });
  await c.done;
  const got = await c.finish();
  expect(got.spill).toBeUndefined();
  expect(got.spillError).toContain("EEXIST");
  expect(got.head.length + got.hidden.bytes + got.tail.length).toBe(5000);
  expect(readFileSync(taken, "utf8")).toBe("someone else's");
});
