import { describe, expect, test } from "bun:test";
import { newId } from "../../src/kernel/ir.ts";
import { matchIds, shortIds } from "../../src/sessions/ids.ts";

// one afternoon's ids: the same timestamp start, told apart by their counter and random end
const AFTERNOON = ["0mx79q2k5000a8f3kd2", "0mx79q3zz000b71qq0x", "0mx79r0aa000c0k4f9x", "0mx7a11bb0001d4e5f6"];

describe("matchIds", () => {
  test.each([
    ["0mx79q2k5000a8f3kd2", ["0mx79q2k5000a8f3kd2"]], // the whole id
    ["0mx79", AFTERNOON.slice(0, 3)], // a shared start: several
    ["0mx7a", [AFTERNOON[3]!]], // a unique start
    ["f3kd2", [AFTERNOON[0]!]], // a unique end: the random tail
    ["k4f9x", [AFTERNOON[2]!]],
    ["x", [AFTERNOON[1]!, AFTERNOON[2]!]], // ends of two
    ["zzzz", []],
    ["", []],
  ])("%s", (query, ids) => {
    expect(matchIds(AFTERNOON, query)).toEqual(ids);
  });

  test("an id that is also the start or end of others names itself", () => {
    expect(matchIds(["abc", "abc111", "xabc"], "abc")).toEqual(["abc"]);
  });
});

describe("shortIds", () => {
  test("each id's shortest unique start or end, at least four characters, each naming its id alone", () => {
    const short = shortIds(AFTERNOON);
    expect([...short.values()]).toEqual(["3kd2", "qq0x", "4f9x", "e5f6"]);
    for (const id of AFTERNOON) expect(matchIds(AFTERNOON, short.get(id)!)).toEqual([id]);
  });

  test("ten sessions of one afternoon: every short form is at most 7 characters and resumes its session", () => {
    const start = Math.ceil(Date.UTC(2026, 11, 3, 14) / 36 ** 4) * 36 ** 4; // ~28 minutes share 5 characters
    const ids = Array.from({ length: 10 }, (_, i) => newId(start + i * 120_000));
    expect(new Set(ids.map((id) => id.slice(0, 5))).size).toBe(1); // what made a prefix useless
    const short = shortIds(ids);
    for (const id of ids) {
      expect(short.get(id)!.length).toBeLessThanOrEqual(7);
      expect(matchIds(ids, short.get(id)!)).toEqual([id]);
    }
  });

  test("never all digits (`/resume 12` is a list number); a short id is itself", () => {
    const short = shortIds(["0mx79aaa0001234", "0mx79bbb0005678", "ab"]);
    expect(short.get("0mx79aaa0001234")).toBe("0mx79a");
    expect(short.get("0mx79bbb0005678")).toBe("0mx79b");
    expect(short.get("ab")).toBe("ab");
  });

  test("a part that is the start of one id and the end of another is not unique", () => {
    // "abcd" starts the first and ends the second; "cdef" is the start of a third
    const ids = ["abcdef0123", "zzzzabcd", "cdef0123xy"];
    const short = shortIds(ids);
    expect(short.get("abcdef0123")).toBe("abcde");
    expect(short.get("zzzzabcd")).toBe("zzzz");
    for (const id of ids) expect(matchIds(ids, short.get(id)!)).toEqual([id]);
  });
});
