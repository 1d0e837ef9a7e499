// `hey -p - < task.md`: stdin is the message itself, read as stdin after a message is — a Latin-1
// byte shown as its Windows-1252 character with a note, a cut at [input] max_bytes said — not a
// literal "-" with stdin in a block after it.
import { expect, test } from "bun:test";
import { MentionError } from "../src/prompt/input.ts";
import { stdinMessage } from "../src/user-input.ts";

const bytes = (s: string) => new TextEncoder().encode(s);

test("stdin's text is the message, trimmed; blank input is no message", () => {
  const warned: string[] = [];
  expect(stdinMessage(bytes("- fix the parser\n- add tests\n"), 1024, (m) => warned.push(m))).toBe("- fix the parser\n- add tests");
  expect(stdinMessage(bytes(" \n\t\n"), 1024, (m) => warned.push(m))).toBe("");
  expect(warned).toEqual([]);
});

test("bytes that are not UTF-8 are read as Windows-1252 and the message says so; a cut is said and noted; binary is refused", () => {
  expect(stdinMessage(Uint8Array.from([...bytes("caf"), 0xe9, ...bytes(" bar\n")]), 1024, () => {})).toBe(
    "café bar\n\n(1 byte is not UTF-8, shown as Windows-1252 (Latin-1) characters)",
  );
  const warned: string[] = [];
  const cut = stdinMessage(bytes("line one\nline two\nline three\n"), 20, (m) => warned.push(m));
  expect(cut).toBe("line one\nline two\n\n(truncated: showing the first 18 bytes of stdin; the rest was left out)");
  expect(warned).toEqual(["stdin: only the first 18 bytes went into the prompt ([input] max_bytes); the rest was left out"]);
  expect(() => stdinMessage(Uint8Array.from([0x61, 0, 0x62]), 1024, () => {})).toThrow(MentionError);
});
