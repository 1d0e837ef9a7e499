// Output past memory with no file to spill it to (no cache directory can be made): memory keeps its
// first and last bytes, and those used to be cut at a byte count, so the model read a fragment of a
// line (`1277` of `12774`) as a line of the output beside the "could not be kept" marker. They are
// cut at line ends now, and the parts cut away count in what was not kept.
import { expect, test } from "bun:test";
import { capture } from "../../src/tools/capture.ts";
import { seq } from "../helpers/seq-stream.ts";

test.each([2000, 300_000, 500_000])("seq 1 %i with no spill file: the kept head and tail are whole lines, the rest counted", async (n) => {
  const noPlace = () => {
    throw Object.assign(new Error("EACCES: permission denied, mkdir '/home/ci/.cache'"), { code: "EACCES" });
  };
  const c = capture(seq(n), noPlace, { memoryBytes: 4096, keepBytes: 1000 });
  await c.done;
  const got = await c.finish();
  expect(got.spillError).toContain("EACCES");
  expect(got.head).toEndWith("\n");
  const head = got.head.split("\n").slice(0, -1).map(Number);
  const tail = got.tail.split("\n").slice(0, -1).map(Number);
  expect(head).toEqual(head.map((_, i) => i + 1)); // 1, 2, 3 … each line whole: a cut `1277` would break the run
  expect(tail).toEqual(tail.map((_, i) => n - tail.length + 1 + i)); // … n-1, n: the first line of the tail is whole too
  expect(head.length + got.hidden.lines + tail.length).toBe(n); // what was cut away is counted with the hidden middle
  expect(got.head.length + got.hidden.bytes + got.tail.length).toBe(got.bytes);
});
