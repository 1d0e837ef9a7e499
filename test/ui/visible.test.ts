// Terminal injection (issue 13 row 6): what hey did not write reaches the screen with its control
// characters made visible; newlines and tabs stay.
import { expect, test } from "bun:test";
import { visible } from "../../src/ui/visible.ts";

test.each([
  ["plain text", "hello, world", "hello, world"],
  ["newline and tab stay", "a\tb\nc", "a\tb\nc"],
  ["OSC 0 window title", "\x1b]0;pwned\x07done", "^[]0;pwned^Gdone"],
  ["OSC 52 clipboard write", "\x1b]52;c;ZWNobyBoaQ==\x07", "^[]52;c;ZWNobyBoaQ==^G"],
  ["clear screen", "\x1b[2Jgone", "^[[2Jgone"],
  ["hidden text", "\x1b[8msecret\x1b[0m", "^[[8msecret^[[0m"],
  ["a lone CR cannot overwrite a line", "safe\rEVIL", "safe^MEVIL"],
  ["CRLF reads as lines", "one\r\ntwo\r\n", "one\ntwo\n"],
  ["backspace, NUL and DEL", "a\bb\x00c\x7f", "a^Hb^@c^?"],
  ["C1 CSI and OSC", "\u009b2J\u009d0;t\u009c", "\\x9b2J\\x9d0;t\\x9c"],
  ["non-ASCII text is untouched", "héllo — 你好 🙂", "héllo — 你好 🙂"],
])("%s", (_name, input, shown) => {
  expect(visible(input)).toBe(shown);
});
