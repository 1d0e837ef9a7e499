// MCP results as the model gets them (SPEC §14): every kind of content, structured content,
// error results, and long text cut with a note naming where the whole is.
import { expect, test } from "bun:test";
import { cutText, MAX_RESULT_CHARS, needsCut, shapeResult } from "../../src/mcp/results.ts";
import { makePdf } from "../helpers/pdf.ts";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const GIF = "R0lGODlhAQABAAAAACw=";
const SVG = btoa('<svg xmlns="http://www.w3.org/2000/svg"/>');

test.each<[string, Parameters<typeof shapeResult>[0], ReturnType<typeof shapeResult>]>([
  [
    "text parts joined",
    {
      content: [
        { type: "text", text: "a" },
        { type: "text", text: "b" },
      ],
    },
    { text: "a\nb", isError: false, images: [] },
  ],
  ["an error result", { content: [{ type: "text", text: "locked" }], isError: true }, { text: "locked", isError: true, images: [] }],
  [
    "an image beside text",
    {
      content: [
        { type: "text", text: "see" },
        { type: "image", data: PNG, mimeType: "image/png" },
      ],
    },
    { text: "see", isError: false, images: [{ type: "image", mediaType: "image/png", data: PNG }] },
  ],
  [
    "an image alone is named in the text",
    { content: [{ type: "image", data: GIF, mimeType: "image/gif" }] },
    { text: "[image image/gif]", isError: false, images: [{ type: "image", mediaType: "image/gif", data: GIF }] },
  ],
  [
    "an image is what its bytes say (a PNG called JPEG is sent as PNG: the APIs refuse a type that does not match)",
    { content: [{ type: "image", data: PNG, mimeType: "image/jpeg" }] },
    { text: "[image image/png]", isError: false, images: [{ type: "image", mediaType: "image/png", data: PNG }] },
  ],
  [
    "an image no model takes, over the size one takes, or not base64: a line instead (in the history it would have every later request refused)",
    {
      content: [
        { type: "image", data: SVG, mimeType: "image/svg+xml" },
        { type: "image", data: PNG.slice(0, 16) + "A".repeat(8 * 1024 * 1024), mimeType: "image/png" },
        { type: "image", data: "%%not base64%%", mimeType: "image/png" },
      ],
    },
    {
      text: [
        "[image image/svg+xml omitted: not PNG, JPEG, GIF or WebP, the kinds a model takes]",
        "[image image/png of 6.0 MB omitted: over the 5 MB a model takes]",
        "[image image/png omitted: not PNG, JPEG, GIF or WebP, the kinds a model takes]",
      ].join("\n"),
      isError: false,
      images: [],
    },
  ],
  [
    "an embedded resource that is text sent as a blob is its text; one that is not UTF-8 is named",
    {
      content: [
        { type: "resource", resource: { uri: "file:///notes.md", blob: btoa("# Notes\nsee the plan"), mimeType: "text/markdown" } },
        { type: "resource", resource: { uri: "file:///a.json", blob: btoa('{"a":1}'), mimeType: "application/json" } },
        { type: "resource", resource: { uri: "file:///bad.txt", blob: btoa("\xff\xfe"), mimeType: "text/plain" } },
      ],
    },
    { text: '# Notes\nsee the plan\n{"a":1}\n[resource file:///bad.txt (text/plain) omitted]', isError: false, images: [] },
  ],
  [
    "an image whose base64 is wrapped in lines is sent unwrapped (the APIs refuse base64 with line breaks); one broken past its first bytes is not sent",
    {
      content: [
        { type: "image", data: PNG.replace(/(.{8})/g, "$1\r\n"), mimeType: "image/png" },
        { type: "image", data: `${PNG.slice(0, 16)}%%${PNG.slice(16)}`, mimeType: "image/png" },
      ],
    },
    {
      text: "[image image/png omitted: not PNG, JPEG, GIF or WebP, the kinds a model takes]",
      isError: false,
      images: [{ type: "image", mediaType: "image/png", data: PNG }],
    },
  ],
  [
    "an embedded resource that is an image is an image",
    { content: [{ type: "resource", resource: { uri: "screen://1", blob: PNG, mimeType: "image/png" } }] },
    { text: "[image image/png]", isError: false, images: [{ type: "image", mediaType: "image/png", data: PNG }] },
  ],
  ["structured content without text", { content: [], structuredContent: { a: 1 } }, { text: '{\n  "a": 1\n}', isError: false, images: [] }],
  ["text wins over structured content", { content: [{ type: "text", text: "t" }], structuredContent: { a: 1 } }, { text: "t", isError: false, images: [] }],
  [
    "audio, links and resources",
    {
      content: [
        { type: "audio", data: "x", mimeType: "audio/wav" },
        { type: "resource_link", uri: "file:///a", name: "a" },
        { type: "resource", resource: { uri: "file:///b", text: "inline text" } },
        { type: "resource", resource: { uri: "file:///c", blob: "eA==", mimeType: "application/zip" } },
        { type: "hologram" },
      ],
    },
    {
      text: "[audio audio/wav omitted]\n[resource file:///a (a)]\ninline text\n[resource file:///c (application/zip) omitted]\n[hologram content omitted]",
      isError: false,
      images: [],
    },
  ],
  ["nothing at all", {}, { text: "", isError: false, images: [] }],
  ["junk content", { content: "not a list" }, { text: "", isError: false, images: [] }],
])("%s", (_, result, want) => {
  expect(shapeResult(result)).toEqual(want);
});

test("over 8,000 characters: the head and a note naming the file with the whole", () => {
  const long = "x".repeat(MAX_RESULT_CHARS + 5);
  expect(needsCut(long)).toBe(true);
  expect(needsCut("x".repeat(MAX_RESULT_CHARS))).toBe(false);
  expect(cutText(long, { path: "/c/full.txt" })).toBe(
    `${"x".repeat(MAX_RESULT_CHARS)}\n[cut at 8,000 of 8,005 characters; the full text is in /c/full.txt (read it with read_file offset/limit or grep)]`,
  );
  expect(cutText(long, { error: "EACCES" })).toEndWith("[cut at 8,000 of 8,005 characters; the full text could not be saved: EACCES]");
});

test("an embedded resource that is a PDF (a page printed by a browser server) goes to the model as a document, named by its URI (before: '[resource … (application/pdf) omitted]')", () => {
  const blob = Buffer.from(makePdf(2)).toString("base64");
  const shaped = shapeResult({ content: [{ type: "resource", resource: { uri: "file:///tmp/page.pdf", mimeType: "application/pdf", blob } }] });
  expect(shaped.text).toBe(`/tmp/page.pdf: PDF, 2 pages, ${Math.ceil(Buffer.from(blob, "base64").length / 1024)} KB`);
  expect(shaped.documents).toEqual([{ type: "document", mediaType: "application/pdf", data: blob, name: "/tmp/page.pdf", pages: 2 }]);
  const long = Buffer.from(makePdf(120)).toString("base64");
  const refused = shapeResult({ content: [{ type: "resource", resource: { uri: "file:///tmp/book.pdf", mimeType: "application/pdf", blob: long } }] });
  expect(refused.text).toBe("[resource file:///tmp/book.pdf (application/pdf) omitted: PDF of 120 pages is over the 100 pages hey sends]");
  expect(refused.documents).toBeUndefined();
});
