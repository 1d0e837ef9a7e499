// What the writer writes back when its session file is found shorter than it left it (shrunk.ts).
import { describe, expect, test } from "bun:test";
import { TORN_END } from "../../src/sessions/format.ts";
import { emptyKept, keep, KEPT_MAX_BYTES, writeBack, writeBackWarning } from "../../src/sessions/shrunk.ts";

const HEADER = '{"type":"header","id":"s1"}\n';
const lines = ["a1\n", "b22\n", "c333\n"];
/** a file an earlier run left `earlier` bytes of entries in, then this run's `lines` */
function kept(earlier: number) {
  const k = emptyKept(HEADER, HEADER.length + earlier);
  for (const l of lines) keep(k, l, l.length);
  return k;
}

describe("writeBack", () => {
  test("emptied: the header and every line of this run, and the earlier runs' bytes counted as lost", () => {
    const back = writeBack(kept(10), 0, false);
    expect(back).toMatchObject({ truncateTo: undefined, text: HEADER + lines.join(""), lines: 3, lost: 10 });
    expect(back.kept.size).toBe(back.text.length); // the next shrink is measured from here
    expect(back.kept.lines.map((l) => l.at)).toEqual([HEADER.length, HEADER.length + 3, HEADER.length + 7]);
  });

  test("cut inside a line of this run: the prefix stays, the cut line is ended as cut short and written again with the lines after it", () => {
    const at = HEADER.length + 3 + 2; // inside "b22\n"
    const back = writeBack(kept(0), at, false);
    expect(back).toMatchObject({ truncateTo: undefined, text: `${TORN_END}\nb22\nc333\n`, lines: 2, lost: 0 });
    expect(back.kept.size).toBe(at + back.text.length);
  });

  test("cut at a line's end: nothing is marked", () => {
    expect(writeBack(kept(0), HEADER.length + 3, true).text).toBe("b22\nc333\n");
  });

  test("cut inside the header: the file is emptied and the header written first", () => {
    expect(writeBack(kept(5), 4, false)).toMatchObject({ truncateTo: 0, text: HEADER + lines.join(""), lost: 5 });
  });

  test("cut inside what an earlier run wrote: only what was after the cut and before this run is lost", () => {
    expect(writeBack(kept(100), HEADER.length + 60, true)).toMatchObject({ text: lines.join(""), lost: 40 });
  });

  test("emptied under a resumed run: the messages it resumed with go back between the header and this run's lines, once", () => {
    const resumed = ["m1\n", "m22\n"];
    const back = writeBack(kept(10), 0, false, () => resumed);
    expect(back).toMatchObject({ text: HEADER + resumed.join("") + lines.join(""), lines: 3, resumed: 2 });
    const again = writeBack(back.kept, 0, false); // emptied once more: they are kept lines now
    expect(again.text).toBe(back.text);
    expect(writeBack(kept(10), HEADER.length + 4, true, () => resumed).resumed).toBe(0); // a cut further on keeps what it left
  });

  test("a run's lines past KEPT_MAX_BYTES: the oldest are dropped, and a cut below them counts them lost", () => {
    const k = emptyKept(HEADER, HEADER.length);
    const big = `${"x".repeat(KEPT_MAX_BYTES / 2)}\n`;
    for (let i = 0; i < 3; i++) keep(k, big, big.length);
    expect(k.lines).toHaveLength(1);
    const back = writeBack(k, HEADER.length, true);
    expect([back.lines, back.lost]).toEqual([1, 2 * big.length]);
  });
});

test("the warning says what happened to the file, what was written back and what is lost", () => {
  expect(writeBackWarning("/s/x.jsonl", 0, writeBack(kept(0), 0, false))).toBe(
    "/s/x.jsonl was emptied while hey was writing it; hey wrote back the 3 lines of this run it had lost; nothing of the session is lost",
  );
  expect(writeBackWarning("/s/x.jsonl", 2048, writeBack(kept(4096), 2048, true))).toBe(
    "/s/x.jsonl was cut to 2.0 KB while hey was writing it; hey wrote back the 3 lines of this run it had lost; 2.0 KB written before them is lost (`hey -c` goes on from what is left)",
  );
  expect(
    writeBackWarning(
      "/s/x.jsonl",
      0,
      writeBack(kept(4096), 0, false, () => ["m\n"]),
    ),
  ).toBe(
    "/s/x.jsonl was emptied while hey was writing it; hey wrote back the message this run resumed with and the 3 lines of this run it had lost, which `hey -c` goes on from; what a resume does not load (older messages, the earlier runs' usage records) is lost",
  );
});
