// A full-output file hides what the result hides: text with a secret replaced, bytes that are not
// UTF-8 kept as they were around it, and a secret at the edge of a spill file's pieces never missed.
import { expect, test } from "bun:test";
import { redactShapes } from "../../src/config/secret-shapes.ts";
import { hiddenBytes, hiddenChunks, PIECE_BYTES } from "../../src/tools/saved-output.ts";

const SECRET = "sk-saved-0123456789abcdef";
const hide = (text: string) => text.split(SECRET).join("[redacted]");
const bytes = (...parts: (string | number[])[]) => new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...new TextEncoder().encode(p)] : p)));

test.each([
  ["UTF-8 text", bytes(`café ${SECRET} ✓\n`), bytes("café [redacted] ✓\n")],
  [
    "Latin-1 and binary bytes around it, kept as they were",
    bytes([0xe9, 0x00, 0xff], ` ${SECRET} `, [0x80, 0x9f]),
    bytes([0xe9, 0x00, 0xff], " [redacted] ", [0x80, 0x9f]),
  ],
  ["a byte-order mark, kept", bytes([0xef, 0xbb, 0xbf], SECRET), bytes([0xef, 0xbb, 0xbf], "[redacted]")],
])("%s", (_, input, want) => {
  expect([...hiddenBytes(input, hide)]).toEqual([...want]);
});

test("bytes with nothing to hide are returned as they are", () => {
  const clean = bytes([0xff, 0xfe], "plain");
  expect(hiddenBytes(clean, hide)).toBe(clean);
});

test("a spilled stream's chunks: a secret cut between two 64 KB chunks is hidden, and every other byte kept", async () => {
  const line = "x".repeat(99) + "\n";
  const text = line.repeat(12_000) + `key ${SECRET}\n` + line.repeat(100);
  const all = new TextEncoder().encode(text);
  const at = text.indexOf(SECRET) + 10;
  async function* chunks() {
    for (let i = 0; i < all.length; i += 65_536) {
      // the cut falls inside the secret once
      if (i < at && at < i + 65_536) {
        yield all.subarray(i, at);
        yield all.subarray(at, i + 65_536);
      } else yield all.subarray(i, i + 65_536);
    }
  }
  const out: Uint8Array[] = [];
  for await (const c of hiddenChunks(chunks(), hide)) out.push(c.slice()); // a piece holds its bytes until the next is asked for
  expect(new TextDecoder().decode(Buffer.concat(out))).toBe(hide(text));
});

test("a secret named on one line and given on the next (a k8s env entry) is not cut apart at the line end between them", async () => {
  const password = "Zq8s3cr3tP4ssw0rd";
  const entry = `- name: DB_PASSWORD\n  value: ${password} `;
  const filler = "log line\n".repeat(Math.floor((PIECE_BYTES - 100) / 9));
  const text = `${filler}${entry}${"word ".repeat(100_000)}\n`; // the line end in the entry is the first piece's last
  const all = new TextEncoder().encode(text);
  async function* chunks() {
    for (let i = 0; i < all.length; i += PIECE_BYTES) yield all.subarray(i, i + PIECE_BYTES);
  }
  const out: Uint8Array[] = [];
  for await (const c of hiddenChunks(chunks(), redactShapes)) out.push(c.slice());
  const saved = new TextDecoder().decode(Buffer.concat(out));
  expect(saved).not.toContain(password); // old code: `  value: …` was hidden on its own, its name in the piece before
  expect(saved).toBe(redactShapes(text));
});

test("a line with no blank or punctuation for a whole piece: a secret is not cut apart wherever it stands", async () => {
  const run = (bytes: number) => "✓é".repeat(Math.ceil(bytes / 5)).slice(0, Math.floor(bytes / 5) * 2); // 5 bytes a pair
  // one secret across the first piece's end, one across where a cut that leaves room for the check would fall
  const first = run(PIECE_BYTES - 8192 - 10);
  const second = run(8192 - SECRET.length);
  const text = `${first}${SECRET}${second}${SECRET}${run(400_000)}\n`;
  const all = new TextEncoder().encode(text);
  async function* chunks() {
    for (let i = 0; i < all.length; i += PIECE_BYTES) yield all.subarray(i, i + PIECE_BYTES);
  }
  const out: Uint8Array[] = [];
  for await (const c of hiddenChunks(chunks(), hide)) out.push(c.slice());
  const saved = new TextDecoder().decode(Buffer.concat(out));
  expect(saved).not.toContain(SECRET);
  expect(saved).toBe(hide(text));
});
