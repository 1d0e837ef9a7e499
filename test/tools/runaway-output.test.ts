// A command whose output runs away (`yes`, a loop printing each iteration) until its timeout: the
// full-output file keeps the first and last part of each stream and says what it dropped, so one
// call cannot fill the user's disk (explorer finding: `yes` for 3 s wrote 778 MB, for 8 s 2.4 GB,
// and the call then took a minute to filter it all; capped, `yes` was filtered 7 s past its timeout,
// so only the ends held in memory are); after Ctrl-C nothing is filtered.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { capture } from "../../src/tools/capture.ts";
import { fileBashTool } from "../helpers/bash-tool.ts";
import { until } from "../helpers/wait.ts";

const { dir, out, tool, ctx } = fileBashTool("hey-runaway-test-");
const fullOutputPath = (output: string) => output.match(/\[full output: (.+)\]$/m)?.[1];

test("a stream longer than the file cap: the spill file keeps its first and last half, and says how much it dropped between", async () => {
  const lines = Array.from({ length: 2000 }, (_, i) => `line ${i}\n`).join(""); // 18,890 bytes
  const data = new TextEncoder().encode(lines);
  let at = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (at >= data.length) return c.close();
      c.enqueue(data.slice(at, (at += 700)));
    },
  });
  const path = join(dir, "spill");
  const c = capture(stream, () => path, { memoryBytes: 1000, keepBytes: 100, fileBytes: 4000 });
  await c.done;
  const got = await c.finish();
  expect(got.spill).toBe(path);
  expect(got.bytes).toBe(data.length);
  const file = readFileSync(path, "utf8");
  const marker = file.match(/\n\[… (.+) \((\d+) lines\) dropped here: a full output keeps the first and last 2 KB of each stream …\]\n/)!;
  expect(marker).not.toBeNull();
  expect(file.slice(0, marker.index)).toBe(lines.slice(0, 2000));
  expect(file.slice(marker.index! + marker[0].length)).toBe(lines.slice(-2000));
  expect(got.dropped).toEqual({ bytes: data.length - 4000, lines: Number(marker[2]) });
  expect(Number(marker[2])).toBe(lines.slice(2000, -2000).split("\n").length - 1);
  expect(readdirSync(dir).filter((f) => f.startsWith("spill"))).toEqual(["spill"]); // the ring of the last half is gone
});

test("79 MB of output: the full-output file is capped, keeps the first and last lines, and the result says what was dropped", async () => {
  const r = await tool({ timeoutMs: 60_000 }).run({ command: "seq 1 10000000; echo last-line" }, ctx()); // 79 MB
  // one account of what was left out: the filter's count is of the ends it read, said so, and the note's of the whole stream
  const note = r.output.match(
    /\[stdout was \d+(\.\d)? MB, 10000001 lines; the filter read only its first 64 KB and last \d+ KB \((\d+) lines\); the full output keeps its first and last 32 MB, the \d+ lines between them dropped\]/,
  );
  expect(note).not.toBeNull();
  expect(r.output).toStartWith(`[output filtered: ${Number(note![2]) - 25} of ${note![2]} lines dropped;`); // the first 5 and last 20 kept
  const path = fullOutputPath(r.output)!;
  expect(statSync(path).size).toBeLessThan(65 << 20);
  const full = readFileSync(path, "utf8"); // asserted on in pieces: a failure must not print 64 MB
  expect(full.slice(0, 6)).toBe("1\n2\n3\n");
  expect(full.match(/\n\[… .+ dropped here: a full output keeps the first and last 32 MB of each stream …\]\n/)?.[0]).toMatch(/\(\d+ lines\)/);
  expect(full.slice(-50)).toEndWith("9999999\n10000000\nlast-line\n\n[exit code 0]\n");
  expect(r.output).toContain("last-line\n[exit code 0]");
  expect(readdirSync(out).filter((f) => !f.endsWith(".log"))).toEqual([]); // no spill file or ring left
}, 60_000);

test("interrupted while it floods: the result is not filtered (the user is waiting), only cut, and says it was interrupted", async () => {
  const abort = new AbortController();
  const running = tool({ timeoutMs: 60_000 }).run({ command: "echo start; yes 'a log line that repeats'" }, ctx(abort.signal));
  await until(() => readdirSync(out).some((f) => f.endsWith(".stdout") && statSync(join(out, f)).size > 4 << 20), "the output to spill past 4 MB", 20_000);
  abort.abort();
  const r = await running;
  expect(r.isError).toBe(true);
  expect(r.output).toStartWith("start\na log line that repeats\n");
  expect(r.output).not.toContain("[output filtered");
  expect(r.output).toContain("[interrupted by user; the process group was killed]");
  expect(r.output).toMatch(/\[full output: .+\]$/);
}, 60_000);
