// No read of a file through Bun.file() in src/ that can fail. On Windows, Bun 1.4 settles a
// Bun.file() read that rejects (a missing file, one denied) without keeping the event loop alive:
// when the read was the only work pending, the process exits 0 there, mid-run, saying nothing
// (oven-sh/bun#39787, open; hey builds with 1.4.5). grep's built-in search read a missing
// .gitignore of C:\ that way, and `hey -p` quit before its answer (test/platforms/platforms.smoke.ts
// shows it on the Windows build). Files are read with node:fs, whose failures reject as they should.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const SRC = join(import.meta.dir, "..", "src");

/** A Bun.file(…) read: its bytes, text, JSON, a stream or a slice of it (writes and `.exists()` never reject). */
const READ = /Bun\.file\((?:[^()]|\([^()]*\))*\)\s*\.\s*(text|bytes|arrayBuffer|json|stream|slice|formData)\s*\(/g;

/** The reads kept, and why they cannot reach Windows. */
const ALLOWED = new Map([
  ["ui/term.ts", "reads /proc/self/fdinfo on Linux only (wasClosedAtStart)"],
  ["ui/signals.ts", "reads /proc/self/status on Linux only (learnIgnoredSignals)"],
]);

test("the pattern finds reads, however they are spread over lines, and not other uses", () => {
  const found = (code: string) => [...code.matchAll(READ)].map((m) => m[1]);
  expect(found("await Bun.file(join(dir, '.gitignore'))\n  .text()\n  .catch(() => undefined)")).toEqual(["text"]);
  expect(found("Bun.file(abs).slice(0, 2).arrayBuffer(); Bun.file(p).bytes()")).toEqual(["slice", "bytes"]);
  expect(found("await Bun.file(p).exists(); Bun.write(Bun.file(p), data)")).toEqual([]);
});

test("src/ reads no file through Bun.file() (a failed read ends hey silently on Windows)", () => {
  const reads = readdirSync(SRC, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .flatMap((e) => {
      const file = relative(SRC, join(e.parentPath, e.name)).replaceAll("\\", "/");
      const text = readFileSync(join(e.parentPath, e.name), "utf8");
      return ALLOWED.has(file) ? [] : [...text.matchAll(READ)].map((m) => `src/${file}:${text.slice(0, m.index).split("\n").length}: .${m[1]}()`);
    });
  expect(reads).toEqual([]);
});
