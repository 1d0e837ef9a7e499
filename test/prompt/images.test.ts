// Images in the IR (SPEC §4): @image.png in a prompt, and read_file on an image.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { sniffImage } from "../../src/fs/image-bytes.ts";
import { expandPrompt } from "../../src/prompt/input.ts";
import { createReadFileTool } from "../../src/tools/read-file.ts";
import { tempDir } from "../helpers/e2e.ts";

// a 1×1 transparent PNG
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");
let dir: ReturnType<typeof tempDir>;
beforeAll(() => {
  dir = tempDir();
  writeFileSync(join(dir.path, "dot.png"), PNG);
  writeFileSync(join(dir.path, "notes.md"), "# notes\n");
});
afterAll(() => dir.remove());

test.each([
  [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "image/png"],
  [[0xff, 0xd8, 0xff, 0xe0], "image/jpeg"],
  [[0x47, 0x49, 0x46, 0x38, 0x39, 0x61], "image/gif"],
  [[0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50], "image/webp"],
  [[0x25, 0x50, 0x44, 0x46], undefined],
  [[], undefined],
])("sniffImage %p → %p", (bytes, type) => expect(sniffImage(new Uint8Array(bytes))).toBe(type));

test("@image.png becomes an image part after the text; text files stay fenced", () => {
  const content = expandPrompt("what is in @dot.png and @notes.md?", { cwd: dir.path, home: dir.path, maxBytes: 1000, warn: () => {} });
  expect(content).toEqual([
    { type: "text", text: "what is in @dot.png and @notes.md?\n\n```notes.md\n# notes\n```" },
    { type: "image", mediaType: "image/png", data: PNG.toString("base64") },
  ]);
});

test("read_file on an image returns the image to the model", async () => {
  const result = await createReadFileTool().run({ path: "dot.png" }, { cwd: dir.path, signal: new AbortController().signal });
  expect(result.isError).toBeUndefined();
  expect(result.output).toBe("dot.png: image/png, 1 KB");
  expect(result.images).toEqual([{ type: "image", mediaType: "image/png", data: PNG.toString("base64") }]);
});
