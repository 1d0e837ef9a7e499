// Spotting read_file's line-number gutter copied into what a model writes (edit's new_string,
// write_file's content), and not mistaking a file's own numbers and tabs for it.
import { expect, test } from "bun:test";
import { lineGutter } from "../../src/tools/line-gutter.ts";

test.each([
  ["a window as read_file prints it", "  9\t'use strict';\n 10\t// added\n", [], "  9\t"],
  ["one numbered line", "42\treturn x;", [], "42\t"],
  ["a blank line shown with its number", "1\tfoo\n2\t\n3\tbar\n", [], "1\t"],
  ["a blank line left bare, counted in its place", "1\tfoo\n\n3\tbar\n", [], "1\t"],
  ["a blank line left bare and out of the count", "1\tfoo\n\n2\tbar\n", [], "1\t"],
  ["CRLF line ends", "7\ta\r\n8\tb\r\n", [], "7\t"],
  ["numbers that skip", "1\tfoo\n3\tbar\n", [], undefined],
  ["numbers that fall", "2\tfoo\n1\tbar\n", [], undefined],
  ["a line without a number", "1\tfoo\nbar\n", [], undefined],
  ["a number and a space, not a tab", "1 foo\n2 bar\n", [], undefined],
  ["nothing but blank lines", "\n\n", [], undefined],
  ["numbered lines beside a file that has such lines (a table)", "3\t30\n4\t40\n", ["1\t10\n2\t20\n"], undefined],
  ["numbered lines beside a file that has none", "3\t30\n4\t40\n", ["x = 1\n"], "3\t"],
])("%s", (_, text, beside, gutter) => {
  expect(lineGutter(text, beside)).toBe(gutter);
});
