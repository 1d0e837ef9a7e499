// A big file's text read a chunk at a time and written a piece at a time: the same characters and
// bytes as decodeText and encodeText give for the whole file, wherever the chunks and pieces end.
import { expect, test } from "bun:test";
import { chunkedText, decodeText, encodeText, utf8Pieces } from "../../src/fs/text-encoding.ts";

/** The pieces joined, each copied as it comes: the next is made in the same buffer. */
function concat(pieces: Iterable<Uint8Array>): Buffer {
  const copies: Buffer[] = [];
  for (const piece of pieces) copies.push(Buffer.from(piece));
  return Buffer.concat(copies);
}

test.each([
  ["ASCII", Buffer.from("plain\ntext\n")],
  ["multi-byte characters split between chunks", Buffer.from("é€😀 ".repeat(50))],
  ["a byte-order mark", Buffer.from("\uFEFFbom\n")],
  ["a few stray bytes among UTF-8", Buffer.concat([Buffer.from("café é è "), Buffer.from([0xe9]), Buffer.from(" ok\n")])],
])("chunkedText reads %s as decodeText does, in chunks of any size", (_, bytes) => {
  for (const size of [1, 2, 3, 7, bytes.length]) {
    const decoder = chunkedText();
    for (let at = 0; at < bytes.length; at += size) decoder.add(bytes.subarray(at, at + size));
    expect(decoder.done()).toEqual(decodeText(bytes));
  }
});

test.each([
  ["UTF-16 (a byte-order mark)", Buffer.from([0xff, 0xfe, 0x61, 0x00])],
  ["Windows-1252 throughout", Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])],
])("chunkedText leaves %s to decodeText of the whole file", (_, bytes) => {
  const decoder = chunkedText();
  decoder.add(bytes);
  expect(decoder.done()).toBeUndefined();
});

test.each([
  ["ASCII", "plain\ntext\n".repeat(20)],
  ["a surrogate pair at a piece's end", "a😀b😀c😀".repeat(10)],
  ["stray bytes kept", decodeText(Buffer.concat([Buffer.from("é".repeat(5)), Buffer.from([0x93]), Buffer.from("x\n")])).raw!],
])("utf8Pieces writes %s as encodeText does, in pieces of any size", (_, text) => {
  for (const chars of [1, 2, 3, 5, text.length]) expect(concat(utf8Pieces(text, chars))).toEqual(Buffer.from(encodeText(text, "utf-8") as Uint8Array));
});
