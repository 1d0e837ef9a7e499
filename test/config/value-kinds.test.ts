// The kinds of characters of a value read by valueReader (config/assigned-values.ts), which the
// secret redaction judges values by (a value of one kind only is no secret): each value's own,
// whenever they are asked for, also after later values were read.
import { describe, expect, test } from "bun:test";
import { kindsOf, valueReader } from "../../src/config/assigned-values.ts";

describe("each value's kinds are its own, whenever asked for", () => {
  const text = "aaaa1111 BBBB2222 cc=dd3!";
  test.each([
    ["all read first, then asked in the order read", [0, 9, 18], [0, 1, 2]],
    ["an earlier value's after a later one was read", [0, 9, 18], [1, 0, 2]],
    ["the first value's last", [0, 9, 18], [2, 1, 0]],
    ["a value inside a run, then the run's start", [18, 21, 0], [1, 0, 2]],
    ["values of one run, the later first", [18, 21], [1, 0]],
  ])("%s", (_, places, asked) => {
    const read = valueReader(text);
    const values = places.map((at) => read(at)!);
    for (const n of asked) expect(values[n]!.kinds()).toEqual(kindsOf(values[n]!.value));
  });

  test("asked as each is read (what the redaction does)", () => {
    const read = valueReader(text);
    for (const at of [0, 9, 18, 21]) {
      const value = read(at)!;
      expect(value.kinds()).toEqual(kindsOf(value.value));
    }
  });

  test("a stale count never lets an upper-case-and-digits value pass as having no kinds", () => {
    const read = valueReader("aaaa1111 BBBB2222");
    const a = read(0)!;
    const b = read(9)!;
    a.kinds();
    expect(b.kinds()).toMatchObject({ upper: 4, digits: 4, others: 0, blanks: 0, unprintable: 0 });
  });
});
