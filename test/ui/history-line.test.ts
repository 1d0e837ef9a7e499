// REPL history lines (issue: a typed `\n` came back as a line break after a restart).
import { expect, test } from "bun:test";
import { decodeHistoryLine, encodeHistoryEntry } from "../../src/ui/history-line.ts";

test.each([
  ['grep -P "a\\nb" file', 'grep -P "a\\\\nb" file'],
  ["two\nlines", "two\\nlines"],
  ["ends with a backslash\\", "ends with a backslash\\"],
  ["C:\\\\dir and \\d+", "C:\\\\dir and \\d+"], // backslashes not before an n are written as they are
  ["\\\n", "\\\\\\n"], // a backslash, then a newline
  ["printf '\\\\n'", "printf '\\\\\\\\n'"],
])("%j is stored as %j and read back", (entry, line) => {
  expect(encodeHistoryEntry(entry)).toBe(line);
  expect(decodeHistoryLine(line)).toBe(entry);
});

test("every text of backslashes, n, newlines and x up to 7 characters survives, on one line", () => {
  const alphabet = ["\\", "n", "\n", "x"];
  let texts = [""];
  let checked = 0;
  for (let len = 1; len <= 7; len++) {
    texts = texts.flatMap((t) => alphabet.map((c) => t + c));
    for (const text of texts) {
      const line = encodeHistoryEntry(text);
      expect(line).not.toContain("\n");
      if (decodeHistoryLine(line) !== text) throw new Error(`${JSON.stringify(text)} came back as ${JSON.stringify(decodeHistoryLine(line))}`);
      checked++;
    }
  }
  expect(checked).toBe(21844);
});

test("lines written before backslashes were doubled read as they always did", () => {
  expect(decodeHistoryLine("fix it\\nand test")).toBe("fix it\nand test");
  expect(decodeHistoryLine("sed 's/\\s+$//' a.txt")).toBe("sed 's/\\s+$//' a.txt");
  expect(decodeHistoryLine("C:\\\\temp")).toBe("C:\\\\temp");
});
