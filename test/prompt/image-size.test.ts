// The size an image's header states (PNG IHDR, GIF, JPEG SOF, WebP VP8/VP8L/VP8X), and what makes
// an image one hey refuses to send when it is read: over 20 MB as base64, or a header cut short.
import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { imageSize } from "../../src/fs/image-bytes.ts";
import { expandPrompt, MentionError } from "../../src/prompt/input.ts";
import { createReadFileTool } from "../../src/tools/read-file.ts";
import { tempDir } from "../helpers/e2e.ts";

const b64 = (s: string) => new Uint8Array(Buffer.from(s, "base64"));
const PNG_1X1 = b64("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=");
/** A 9000×100 PNG's signature and IHDR, then filler. */
const PNG_WIDE = (() => {
  const out = new Uint8Array(64);
  out.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(out.buffer).setUint32(16, 9000);
  new DataView(out.buffer).setUint32(20, 100);
  return out;
})();
// the heads of real files: a progressive 720×477 JPEG (two quantization tables, then SOF2),
// a 16×16 WebP with alpha (VP8X), a 1×1 lossless WebP (VP8L)
const JPEG_720 = b64(
  "/9j/2wBDAAEBAQEBAQEBAQEBAQEBAQIBAQEBAQICAgICAwMDAwMDAwMDBAQEAwMEAwMDBAUEBAUFBQUFAwQFBgUFBgQFBQX/2wBDAQEBAQEBAQIBAQIFAwMDBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQX/wgARCAHdAtADASE=",
);
const WEBP_VP8X = b64("UklGRqgBAABXRUJQVlA4WAoAAAAQAAAADwAADwAAQUxQSMMAAAABJw==");
const WEBP_VP8L = b64("UklGRh4AAABXRUJQVlA4TAoAAAAvAAAAAAAAAAAAAAAAAA==");
const GIF_3X2 = new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 3, 0, 2, 0, 0, 0, 0]);

test.each([
  ["PNG", PNG_1X1, { width: 1, height: 1 }],
  ["PNG 9000 px wide", PNG_WIDE, { width: 9000, height: 100 }],
  ["progressive JPEG", JPEG_720, { width: 720, height: 477 }],
  ["WebP VP8X", WEBP_VP8X, { width: 16, height: 16 }],
  ["WebP VP8L", WEBP_VP8L, { width: 1, height: 1 }],
  ["GIF", GIF_3X2, { width: 3, height: 2 }],
  ["PNG cut in its header", PNG_1X1.subarray(0, 20), undefined],
  ["JPEG cut before its frame header", JPEG_720.subarray(0, 120), undefined],
  ["not an image", new TextEncoder().encode("hello world, not an image at all"), undefined],
])("imageSize: %s", (_name, bytes, size) => expect(imageSize(bytes)).toEqual(size));

const dir = tempDir();
afterAll(() => dir.remove());
writeFileSync(join(dir.path, "cut.png"), PNG_1X1.subarray(0, 20));
writeFileSync(join(dir.path, "cut-data.png"), PNG_1X1.subarray(0, 40));
const huge = new Uint8Array(16 * 1024 * 1024);
huge.set(PNG_WIDE);
writeFileSync(join(dir.path, "huge.png"), huge);

const mention = (name: string) => {
  try {
    expandPrompt(`look at @${name}`, { cwd: dir.path, home: dir.path, maxBytes: 1000, warn: () => {} });
    return "sent";
  } catch (e) {
    return e instanceof MentionError ? e.message : String(e);
  }
};

test("@cut.png, a PNG cut short in its header, is refused as no image (before: sent, and refused by the API)", () => {
  expect(mention("cut.png")).toBe("@cut.png: not an image that can be sent: its image/png header is cut short or unreadable");
});

test("@cut-data.png, a PNG cut short in its data (a 40-byte download), is refused as no image (before: sent)", () => {
  expect(mention("cut-data.png")).toBe("@cut-data.png: not an image that can be sent: its image/png data is cut short (no IEND chunk at its end)");
});

test("read_file of a PNG cut short says so instead of showing it", async () => {
  const result = await createReadFileTool().run({ path: "cut.png" }, { cwd: dir.path, signal: new AbortController().signal });
  expect(result.isError).toBe(true);
  expect(result.output).toBe("cut.png: not an image that can be sent: its image/png header is cut short or unreadable");
});

test("a 16 MB image (21.3 MB as base64) is refused when read, naming the limit of the APIs and how to shrink it", () => {
  expect(mention("huge.png")).toBe(
    "@huge.png: image of 16.0 MB (21.3 MB as sent) is over the 20 MB the model APIs take; make it smaller (as JPEG: sips -s format jpeg FILE --out OUT.jpg, or convert FILE -quality 85 OUT.jpg)",
  );
});

const TIFF = b64("SUkqAAgEAAAAAAAAAAAAAAAAAAAAAAAATo3Ar0qGuu0=");
const BMP = b64("Qk2KBAAAAAAAAIoAAAB8AAAAEAAAABAAAAABACAAAwA=");
const HEIC = new Uint8Array([0, 0, 0, 0x18, ...new TextEncoder().encode("ftypheic"), 0, 0, 0, 0, ...new TextEncoder().encode("mif1heic")]);
writeFileSync(join(dir.path, "scan.tiff"), TIFF);
writeFileSync(join(dir.path, "old.bmp"), BMP);
writeFileSync(join(dir.path, "pic.heic"), HEIC);

test.each([
  ["scan.tiff", "TIFF"],
  ["old.bmp", "BMP"],
])("@%s: said to be a %s image no model API takes, with how to convert it (before: 'binary file, cannot be included as text')", async (name, format) => {
  const why = `a ${format} image, a format the model APIs do not take; convert it to PNG (sips -s format png FILE --out OUT.png, or convert FILE OUT.png)`;
  expect(mention(name)).toBe(`@${name}: ${why}`);
  const result = await createReadFileTool().run({ path: name }, { cwd: dir.path, signal: new AbortController().signal });
  expect(result.output).toBe(`${name}: ${why}`);
});

test("@pic.heic is attached as an image/heic (Gemini takes it; the other APIs get a line: providers/image-fit.ts)", () => {
  const content = expandPrompt("look at @pic.heic", { cwd: dir.path, home: dir.path, maxBytes: 1000, warn: () => {} });
  expect(content[1]).toMatchObject({ type: "image", mediaType: "image/heic" });
});
