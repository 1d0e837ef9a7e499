// A tool call's arguments as open-weight models write them: the slips with one meaning are read as
// the object meant (the call runs, nothing said); the rest get an error saying why and where.
import { expect, test } from "bun:test";
import { readArguments } from "../../src/kernel/call-arguments.ts";

const path = { path: "a.txt" };

test.each([
  ["single quotes (a Python dict)", "{'path': 'a.txt'}", path],
  ["a trailing comma", '{"path": "a.txt",}', path],
  ["trailing commas in an array too", '{"a": [1, 2,],}', { a: [1, 2] }],
  ["the object JSON-encoded twice", JSON.stringify(JSON.stringify(path)), path],
  ["a ```json fence", '```json\n{"path": "a.txt"}\n```', path],
  ["a bare ``` fence", '```\n{"path": "a.txt"}\n```', path],
  ["Python's True, False and None", '{"path": "a.txt", "all": True, "x": False, "y": None}', { ...path, all: true, x: false, y: null }],
  ["the same object twice", '{"path": "a.txt"}{"path": "a.txt"}', path],
  ["a key without quotes", '{path: "a.txt"}', path],
  ["a raw line break inside a string", '{"content": "one\ntwo"}', { content: "one\ntwo" }],
  ["escapes JSON lacks: \\' and a regex's \\d", '{"pattern": "\\d+ it\\\'s"}', { pattern: "\\d+ it's" }],
  ["a single-quoted string holding double quotes", `{'command': 'echo "hi"'}`, { command: 'echo "hi"' }],
  ["a stray } after the object (Qwen)", '{"path":"a.txt"}}', path],
  ["stray closing brackets and whitespace after it", '{"path": "a.txt"} }\n] ', path],
  ["a stray } after a repaired object", "{'path': 'a.txt',}}", path],
  ["an empty object before the real one", '{}{"path":"a.txt"}', path],
  ["an empty object after it", '{"path":"a.txt"} {}', path],
])("%s: read as the object meant, marked repaired", (_, text, args) => {
  expect(readArguments(text)).toEqual({ args, repaired: true });
});

test("strict JSON, and blank arguments, are read as they are", () => {
  expect(readArguments('{"command": "echo \'hi\'"}')).toEqual({ args: { command: "echo 'hi'" }, repaired: false });
  expect(readArguments("  ")).toEqual({ args: {}, repaired: false });
});

test.each([
  ["two different objects", '{"path": "a.txt"}{"path": "b.txt"}', "2 different JSON values one after another, not one object"],
  ["two different objects after an empty one", '{}{"path": "a.txt"}{"path": "b.txt"}', "2 different JSON values one after another, not one object"],
  ["a stray } followed by more text", '{"path":"a.txt"}}garbage', "an unmatched } at character 17"],
  ["a stray } before the object", '}{"path":"a.txt"}', "an unmatched } at character 1"],
  ["an object cut off (the output limit)", '{"path": "a.txt", "content": "# Gu', "a string that does not end at character 30"],
  ["an unclosed object", '{"path": "a.txt"', "an object or array that does not end (1 still open)"],
  ["a word that is no JSON value", '{"path": a.txt}', 'the word "a", which is no JSON value at character 10'],
  ["a missing comma", '{"a": 1 "b": 2}', "a comma or colon is missing or out of place"],
  ["an array", "[1, 2]", "expected a JSON object, got an array"],
  ["a string that holds no object", '"a.txt"', "expected a JSON object, got a string"],
])("%s: an error that says why", (_, text, why) => {
  const read = readArguments(text);
  expect("error" in read && read.error).toContain(why);
});

test("an error of text that is no JSON names the parser's words and quotes the text near the problem", () => {
  const read = readArguments('{"path": "a.txt", "n": 1 2}');
  expect("error" in read && read.error).toMatch(/^not JSON \(.+\): /);
  const cut = readArguments('{"path": "a.txt", "x": @}');
  expect("error" in cut && cut.error).toContain('an unexpected "@" at character 24 (near "{\\"path\\": \\"a.txt\\", \\"x\\": @}")');
});

test("a 200 KB write_file with a stray } runs as written: the model need not generate it again", () => {
  const content = "line of generated content\n".repeat(8000);
  expect(readArguments(`${JSON.stringify({ path: "g.txt", content })}}`)).toEqual({ args: { path: "g.txt", content }, repaired: true });
});
