// Output that is not UTF-8 (a Latin-1 log `cat`ed, `printf 'caf\xe9'`) reads as the characters it
// most likely was, not as U+FFFD: for the model (the bash tool's result) and on the screen (`!`),
// with the bytes kept as they were in the full-output file (fs/output-text.ts).
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createBashTool } from "../../src/tools/bash.ts";
import { capture } from "../../src/tools/capture.ts";
import { cutEdges, decodeOutput, outputDecoder } from "../../src/fs/output-text.ts";
import { chooseShell } from "../../src/tools/shell.ts";
import { runShellCommand } from "../../src/ui/shell-command.ts";

const dir = realpathSync(mkdtempSync(join(tmpdir(), "hey-non-utf8-")));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p) : Buffer.from(p))));

describe("decodeOutput", () => {
  test.each([
    ["plain UTF-8", bytes("café ✓ 😀"), "café ✓ 😀", 0],
    ["a Latin-1 é", bytes("caf", [0xe9]), "café", 1],
    ["Latin-1 then ASCII", bytes("na", [0xef], "ve ", [0xe0], " la carte"), "naïve à la carte", 2],
    ["valid UTF-8 and Latin-1 bytes mixed on one line", bytes("é=", [0xe9], " ✓"), "é=é ✓", 1],
    ["Windows-1252's quotes and euro sign", bytes([0x93], "hi", [0x94, 0x20, 0x80]), "\u201chi\u201d \u20ac", 3],
    ["bytes Windows-1252 leaves undefined", bytes("a", [0x81, 0x9d], "b"), "a\\x81\\x9Db", 2],
    ["a lead byte whose continuation is missing", bytes([0xc3], "x"), "Ãx", 1],
    ["an overlong form", bytes([0xc0, 0xaf]), "À¯", 2],
    ["a surrogate's encoding", bytes([0xed, 0xa0, 0x80]), "í\u00a0\u20ac", 3],
    ["a stray continuation byte", bytes("a", [0xa9], "b"), "a©b", 1],
  ])("%s", (_, input, text, foreign) => {
    expect(decodeOutput(input)).toEqual({ text, rest: new Uint8Array(0), foreign });
  });

  test("streaming: an incomplete character at the end is held back, an invalid one is not", () => {
    expect(decodeOutput(bytes("a", [0xe2, 0x9c]), true)).toEqual({ text: "a", rest: Uint8Array.from([0xe2, 0x9c]), foreign: 0 });
    expect(decodeOutput(bytes("a", [0xe2, 0x41]), true)).toEqual({ text: "aâA", rest: new Uint8Array(0), foreign: 1 });
    expect(decodeOutput(bytes("caf", [0xe9]), false).text).toBe("café");
  });
});

describe("outputDecoder", () => {
  const input = bytes("é ✓ ", [0xe9], " 😀\n", [0xfc], "ber ✓");
  test.each(Array.from({ length: input.length - 1 }, (_, i) => i + 1))("split at byte %i: the same text as decoded whole", (at) => {
    const d = outputDecoder();
    const text = d.decode(input.subarray(0, at)) + d.decode(input.subarray(at)) + d.decode(new Uint8Array(0), false);
    expect(text).toBe("é ✓ é 😀\nüber ✓");
    expect(d.foreign).toBe(2);
  });

  test("one byte at a time", () => {
    const d = outputDecoder();
    let text = "";
    for (const b of input) text += d.decode(Uint8Array.of(b));
    expect(text + d.decode(new Uint8Array(0), false)).toBe("é ✓ é 😀\nüber ✓");
  });
});

test("cutEdges: a character cut at either end of a kept piece", () => {
  expect(cutEdges(bytes([0x9c, 0x93], "ab", [0xe2, 0x9c]))).toEqual({ start: 2, end: 2 });
  expect(cutEdges(bytes("ab✓"))).toEqual({ start: 0, end: 0 });
});

test("a spilled stream: a character cut where the hidden middle starts or ends is not shown as other characters", async () => {
  // "✓" is 3 bytes: the kept head (10 bytes) ends inside one, the kept tail starts inside one
  const data = bytes("✓✓✓✓".repeat(10));
  let at = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (at >= data.length) return c.close();
      c.enqueue(data.slice(at, at + 7));
      at += 7;
    },
  });
  const c = capture(stream, () => join(dir, "spill"), { memoryBytes: 20, keepBytes: 10 });
  await c.done;
  const got = await c.finish();
  expect(got.head).toBe("✓✓✓");
  expect(got.tail).toMatch(/^✓+$/);
  expect(got.hidden.bytes).toBe(data.length - Buffer.byteLength(got.head) - Buffer.byteLength(got.tail));
  expect(got.foreign).toBe(0);
});

test("the bash tool: Latin-1 output reads as text, says so, and the full output keeps the bytes", async () => {
  const shell = chooseShell({ platform: process.platform, findOnPath: (name) => Bun.which(name) ?? undefined });
  const outputDir = join(dir, "out");
  mkdirSync(outputDir);
  const tool = createBashTool({ shell, timeoutMs: 10_000, filter: "builtin", raw: false, outputDir });
  const r = await tool.run({ command: "printf 'caf\\351 cr\\350me\\n'; printf 'na\\357ve' >&2" }, { signal: new AbortController().signal, cwd: dir });
  expect(r.output).toStartWith(
    "café crème\n[stderr]\nnaïve\n[exit code 0]\n[3 bytes are not UTF-8, shown as Windows-1252 (Latin-1) characters; the full output keeps the bytes]\n[full output: ",
  );
  const path = r.output.match(/\[full output: (.+)\]$/m)![1]!;
  expect(readFileSync(path)).toEqual(bytes("caf", [0xe9], " cr", [0xe8], "me\n\n[stderr]\nna", [0xef], "ve\n[exit code 0]\n"));
});

test("`!`: Latin-1 output is shown and kept as text, a last byte too", async () => {
  const shown: string[] = [];
  const sh = { program: "sh", name: "sh", args: (command: string) => ["-c", command] };
  const run = await runShellCommand("printf 'caf\\351'", {
    shell: sh,
    env: process.env,
    cwd: dir,
    signal: new AbortController().signal,
    show: (t) => void shown.push(t),
  });
  expect(run.output.head).toBe("café");
  expect(shown.join("")).toBe("café");
});
