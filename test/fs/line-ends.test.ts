// The line ends write_file keeps when it replaces a file whole: the file's usual end for new and
// changed lines, each unchanged line's own end, and what it says when the ends change kind.
import { expect, test } from "bun:test";
import { lineEndChange, withLineEnds } from "../../src/fs/line-ends.ts";

test.each([
  ["all CRLF: every line CRLF", "a\r\nb\r\n", "a\nB\nc\n", "a\r\nB\r\nc\r\n"],
  ["mostly CRLF, a tool appended one LF line: only the changed line changes", "a\r\nold\r\nc\r\nz\n", "a\nnew\nc\nz\n", "a\r\nnew\r\nc\r\nz\n"],
  ["mostly CRLF, a changed last line takes CRLF", "a\r\nb\r\nz\n", "a\nb\ny\n", "a\r\nb\r\ny\r\n"],
  ["lines added at the end take the usual end; the LF line above them keeps its own", "a\r\nb\r\nz\n", "a\nb\nz\nmore\n", "a\r\nb\r\nz\nmore\r\n"],
  ["mostly LF: new lines LF, an unchanged CRLF line keeps CRLF", "a\r\nb\nc\n", "a\nb\nd\n", "a\r\nb\nd\n"],
  ["a tie is not most: new lines LF", "a\r\nb\n", "x\ny\n", "x\ny\n"],
  ["no CRLF in the file: content as given", "a\nb\n", "a\nc\n", "a\nc\n"],
  ["content with a CR of its own: as given", "a\r\nb\r\n", "all\r\nmine\n", "all\r\nmine\n"],
  ["a byte-order mark is not part of the first line", "\uFEFFa\r\nb\r\nc\n", "a\nB\nc\n", "a\r\nB\r\nc\n"],
  ["no last line end stays none", "a\r\nb\r\nc", "a\nb\nd", "a\r\nb\r\nd"],
  ["content shorter than the file", "a\r\nb\r\nc\r\nd\n", "a\nd\n", "a\r\nd\n"],
])("%s", (_, old, content, written) => {
  expect(withLineEnds(old, content)).toBe(written);
});

test.each([
  ["7 CRLF lines written as LF", "1\r\n2\r\n3\r\n4\r\n5\r\n6\r\n7\r\n8\n", "1\n2\n3\n4\n5\n6\n7\n8\n", "line ends: 7 CRLF → LF"],
  ["LF lines written as CRLF", "a\nb\n", "a\r\nb\r\n", "line ends: 2 LF → CRLF"],
  ["the same kinds, more lines", "a\r\nb\n", "a\r\nx\r\nb\n", undefined],
  ["a file without line ends", "a", "a\nb\n", undefined],
])("%s", (_, old, now, said) => {
  expect(lineEndChange(old, now)).toBe(said);
});
