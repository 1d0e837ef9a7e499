// The pure half of @files and stdin: where a cut falls, how it is told, what counts as binary.
import { describe, expect, test } from "bun:test";
import { decodeForPrompt } from "../../src/fs/prompt-text.ts";
import { buildPrompt, cutNotice, findMentions, writeMention } from "../../src/prompt/mentions.ts";

const bytes = (s: string) => new TextEncoder().encode(s);

describe("decodeForPrompt", () => {
  test("exactly max bytes is whole; one more is cut at the last line end", () => {
    expect(decodeForPrompt(bytes("ab\ncd\n"), 6)).toEqual({ text: "ab\ncd\n" });
    expect(decodeForPrompt(bytes("ab\ncd\ne"), 6)).toEqual({ text: "ab\ncd\n", cut: { shown: 6 } });
    expect(decodeForPrompt(bytes("abcdefg"), 6)).toEqual({ text: "abcdef", cut: { shown: 6 } }); // no line end in the second half
  });

  test("a known size larger than what was read is a cut of that size", () => {
    expect(decodeForPrompt(bytes("ab\ncd\ne"), 6, 1 << 30)).toEqual({ text: "ab\ncd\n", cut: { shown: 6, of: 1 << 30 } });
  });

  test("binary is told from the first 8 KB only", () => {
    expect(decodeForPrompt(new Uint8Array([97, 0, 98]), 10)).toEqual({ binary: true });
    const late = new Uint8Array(9000).fill(97);
    late[8500] = 0;
    expect("text" in decodeForPrompt(late, 20_000)).toBe(true);
  });
});

test("cut notices name the input, what was kept and the key", () => {
  expect(cutNotice("stdin", { shown: 262144 })).toBe("stdin: only the first 256 KB went into the prompt ([input] max_bytes); the rest was left out");
  expect(cutNotice("@big.log", { shown: 1000, of: 3 << 20 })).toBe("@big.log: only the first 1000 bytes of 3.0 MB went into the prompt ([input] max_bytes)");
  expect(buildPrompt("hi", [], { text: "abc\n", cut: { shown: 4 } })).toBe(
    "hi\n\n```stdin\nabc\n```\n(truncated: showing the first 4 bytes of stdin; the rest was left out)",
  );
});

test.each([
  ["empty", ""],
  ["blank", "\n\n"],
])("a stdin piped in %s (a program's pipe it never wrote: spawnSync, stdin=PIPE) leaves the message as it was written", (_, text) => {
  expect(buildPrompt("explain this repository", [], { text })).toBe("explain this repository");
});

test("mentions: trailing punctuation dropped, path-likeness noted", () => {
  expect(findMentions("see @a.ts, @john and @types/node.")).toEqual([
    { path: "a.ts", looksLikePath: true, written: "@a.ts" },
    { path: "john", looksLikePath: false, written: "@john" },
    { path: "types/node", looksLikePath: true, written: "@types/node" },
  ]);
});

test.each([
  ["full-width punctuation after the path", "请看 @中文.txt，然后总结", ["中文.txt"]],
  ["a full stop at the end", "请看 @中文.txt。", ["中文.txt"]],
  ["CJK text after a file's extension, and an @ right after CJK text", "看看 @目录/文件.txt和@中文.txt", ["目录/文件.txt", "中文.txt"]],
  ["an @ right after CJK text", "请看@中文.txt 然后总结", ["中文.txt"]],
  ["in brackets", "(@x.md) 与「@y.md」和（@z.md）", ["x.md", "y.md", "z.md"]],
  ["in CJK quotes", "“@文件.txt”", ["文件.txt"]],
  ["closing quotes, an ellipsis and a dash with text after them", "请看“@a.md”然后总结，@b.md……然后@c.md——然后", ["a.md", "b.md", "c.md"]],
  ["a scoped package's path", "@node_modules/@types/node/index.d.ts", ["node_modules/@types/node/index.d.ts"]],
  ["an email is no mention", "mail a@b.com or 写信给 a@b.com", []],
  ["a quoted name keeps its full-width comma", '@"报告，最终版.docx"', ["报告，最终版.docx"]],
])("mentions in CJK text: %s", (_, text, paths) => {
  expect(findMentions(text).map((m) => m.path)).toEqual(paths);
});

test("a name a bare mention would cut is written in quotes", () => {
  expect(writeMention("报告，最终版.docx")).toBe('@"报告，最终版.docx"');
  expect(writeMention("中文.txt")).toBe("@中文.txt");
});

test("input that is not UTF-8 (a Latin-1 log piped or @-mentioned) reads as its Windows-1252 characters, with a note, as read_file and bash read it", () => {
  const latin1 = Uint8Array.from([...bytes("caf"), 0xe9, ...bytes(" cr"), 0xe8, ...bytes("me\n")]);
  const note = (n: number) => `${n} byte${n === 1 ? " is" : "s are"} not UTF-8, shown as Windows-1252 (Latin-1) characters`;
  expect(decodeForPrompt(latin1, 100)).toEqual({ text: "café crème\n", encoding: note(2) });
  expect(decodeForPrompt(latin1, 6)).toEqual({ text: "café c", encoding: note(1), cut: { shown: 6 } });
  expect(buildPrompt("why", [{ path: "app.log", text: "café crème\n", encoding: note(2) }], { text: "é\n", encoding: note(1) })).toBe(
    `why\n\n${"```"}app.log\ncafé crème\n${"```"}\n(${note(2)})\n\n${"```"}stdin\né\n${"```"}\n(${note(1)})`,
  );
  expect(decodeForPrompt(bytes("café\n"), 100)).toEqual({ text: "café\n" }); // UTF-8: no note
});

test("a file with a UTF-16 byte-order mark (Windows PowerShell 5.1's >) is text, as read_file reads it, not binary", () => {
  const le = Uint8Array.from([0xff, 0xfe, ...[..."hé\n"].flatMap((c) => [c.charCodeAt(0), 0])]);
  expect(decodeForPrompt(le, 100)).toEqual({ text: "hé\n", encoding: "read as UTF-16 LE" });
  expect(decodeForPrompt(le, 5)).toEqual({ text: "h", encoding: "read as UTF-16 LE", cut: { shown: 4 } });
  const be = Uint8Array.from([0xfe, 0xff, 0, 0x68, 0, 0x69]);
  expect(decodeForPrompt(be, 100)).toEqual({ text: "hi", encoding: "read as UTF-16 BE" });
});

test('a name with both quote kinds is written in double quotes with \\" and read back whole', () => {
  const name = `odd/it's "q".txt`;
  expect(writeMention(name)).toBe(`@"odd/it's \\"q\\".txt"`);
  expect(findMentions(`see ${writeMention(name)} now`).map((m) => m.path)).toEqual([name]);
  expect(findMentions(`see ${writeMention('say "hi".txt')}`).map((m) => m.path)).toEqual(['say "hi".txt']); // single quotes, as before
  expect(writeMention('say "hi".txt')).toBe(`@'say "hi".txt'`);
});
