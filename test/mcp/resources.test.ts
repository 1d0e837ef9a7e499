// @SERVER:URI attaches a server's resource like @file attaches a file (issue 27).
import { expect, test } from "bun:test";
import { attachResource, resourceMentions } from "../../src/mcp/resources.ts";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

test("only @SERVER:URI of a running server is a resource mention; trailing punctuation is not part of it", () => {
  const servers = ["everything", "docs"];
  expect(resourceMentions("see @everything:demo://resource/static/document/architecture.md, and @docs:https://x.io/a?b=1.", servers)).toEqual([
    { token: "everything:demo://resource/static/document/architecture.md", server: "everything", uri: "demo://resource/static/document/architecture.md" },
    { token: "docs:https://x.io/a?b=1", server: "docs", uri: "https://x.io/a?b=1" },
  ]);
  expect(resourceMentions("@src/a.ts @john @other:thing @everything: @C:/x", servers)).toEqual([]);
});

test("text is fenced under the mention and cut at max_bytes on a line boundary; images are image parts", () => {
  const small = attachResource("everything:demo://a", { contents: [{ uri: "demo://a", mimeType: "text/plain", text: "hello\nworld\n" }] }, 1024);
  expect(small).toEqual({ text: "```everything:demo://a\nhello\nworld\n```", images: [] });
  const lines = Array.from({ length: 100 }, (_, i) => `line ${i}`).join("\n");
  const cut = attachResource("s:big", { contents: [{ uri: "big", text: lines }] }, 100);
  expect(cut.cut).toEqual({ shown: 94, of: lines.length }); // lines 0–12: 10 × 7 + 3 × 8 bytes
  expect(cut.text).toBe("```s:big\n" + lines.slice(0, 94) + "```\n(truncated: showing the first 94 of 789 bytes of the resource)");
  expect(attachResource("s:img", { contents: [{ uri: "img", mimeType: "image/png", blob: PNG }] }, 10)).toEqual({
    text: "",
    images: [{ type: "image", mediaType: "image/png", data: PNG }],
  });
  const blobText = attachResource("s:b", { contents: [{ uri: "b", mimeType: "text/plain", blob: Buffer.from("from a blob").toString("base64") }] }, 100);
  expect(blobText.text).toBe("```s:b\nfrom a blob\n```");
});

test("binary that is no image, and nothing at all, are errors naming the mention", () => {
  expect(() =>
    attachResource("s:bin", { contents: [{ uri: "bin", mimeType: "application/octet-stream", blob: Buffer.from([1, 0, 2]).toString("base64") }] }, 100),
  ).toThrow("@s:bin: binary resource (application/octet-stream), cannot be included as text");
  expect(() => attachResource("s:none", { contents: [] }, 100)).toThrow("@s:none: the server returned nothing for it");
});
