// A file dropped onto the terminal arrives as a paste of its path; an image or PDF becomes its mention (ui/dropped-file.ts).
import { expect, test } from "bun:test";
import { droppedKey, droppedMention, droppedPath } from "../../src/ui/dropped-file.ts";
import { emptyEditor, insert } from "../../src/ui/line-editor.ts";

test.each([
  ["'/tmp/x57/Screenshot 2026-12-06 at 20.30.png'", "/tmp/x57/Screenshot 2026-12-06 at 20.30.png"], // GNOME Terminal
  ["/tmp/x57/Screenshot\\ 2026-12-06\\ at\\ 20.30.png", "/tmp/x57/Screenshot 2026-12-06 at 20.30.png"], // iTerm2, Terminal.app
  ["/tmp/x57/Screenshot\\ 2026-12-06\\ at\\ 20.30.png ", "/tmp/x57/Screenshot 2026-12-06 at 20.30.png"], // with the space some add
  ['"/tmp/a b.png"', "/tmp/a b.png"],
  ["'/tmp/it'\\''s.png'", "/tmp/it's.png"],
  ["/tmp/shot\\ \\(1\\).png", "/tmp/shot (1).png"],
  ["file:///tmp/a%20b.png", "/tmp/a b.png"],
  ["/tmp/plain.png", "/tmp/plain.png"],
  ["~/Desktop/shot.png", "~/Desktop/shot.png"],
])("droppedPath(%p) is %p", (text, path) => {
  expect(droppedPath(text)).toBe(path);
});

test.each([["shot.png"], ["look at /tmp/a.png"], ["/tmp/a.png\n/tmp/b.png"], ["'/tmp/a.png' '/tmp/b.png'"], ["file://host/a.png"], ["@/tmp/a.png"], [""]])(
  "droppedPath(%p) is no dropped file",
  (text) => {
    expect(droppedPath(text)).toBeUndefined();
  },
);

const files = new Set(["/tmp/x57/Screenshot 2026-12-06 at 20.30.png", "/tmp/doc.pdf", "/tmp/notes.txt"]);
const isFile = (path: string) => files.has(path);

test("a dropped image or PDF that is there becomes its mention, spaced from the words around it", () => {
  expect(droppedMention("'/tmp/x57/Screenshot 2026-12-06 at 20.30.png'", "what is in this image? ", "", isFile)).toBe(
    '@"/tmp/x57/Screenshot 2026-12-06 at 20.30.png" ',
  );
  expect(droppedMention("/tmp/doc.pdf", "describe", "", isFile)).toBe(" @/tmp/doc.pdf ");
  expect(droppedMention("/tmp/doc.pdf", "", " please", isFile)).toBe("@/tmp/doc.pdf");
});

test("a text file's path, a file that is not there and other text stay as pasted", () => {
  expect(droppedMention("/tmp/notes.txt", "", "", isFile)).toBeUndefined();
  expect(droppedMention("/tmp/gone.png", "", "", isFile)).toBeUndefined();
  expect(droppedMention("hello", "", "", isFile)).toBeUndefined();
});

test("only a paste is looked at, and only when files can be looked for", () => {
  const editor = insert(emptyEditor([]), "see ");
  expect(droppedKey({ type: "paste", text: "/tmp/doc.pdf" }, editor, isFile)).toEqual({ type: "paste", text: "@/tmp/doc.pdf " });
  expect(droppedKey({ type: "paste", text: "/tmp/doc.pdf" }, editor)).toEqual({ type: "paste", text: "/tmp/doc.pdf" });
  expect(droppedKey({ type: "text", text: "/tmp/doc.pdf" }, editor, isFile)).toEqual({ type: "text", text: "/tmp/doc.pdf" });
});
