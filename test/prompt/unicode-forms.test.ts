// A name typed in one Unicode form finds the file stored in the other (finding x46-3): `résumé.md`
// typed composed (NFC, as a Linux or Windows keyboard writes é) names the file macOS stored
// decomposed (NFD: e, then U+0301) — in an `@` mention sent, in Tab's completion, and in Ctrl-R.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expandPrompt } from "../../src/prompt/input.ts";
import { completions } from "../../src/ui/commands.ts";
import { matchAt } from "../../src/ui/history-search.ts";
import { tempDir } from "../helpers/e2e.ts";

const composed = "r\u00e9sum\u00e9.md";
const decomposed = "re\u0301sume\u0301.md";

describe("a file stored decomposed, named composed", () => {
  let dir: ReturnType<typeof tempDir>;
  beforeAll(() => {
    dir = tempDir();
    writeFileSync(join(dir.path, decomposed), "my CV\n");
  });
  afterAll(() => dir.remove());

  test("an @ mention attaches it, with no warning", () => {
    const warnings: string[] = [];
    const content = expandPrompt(`summarize @${composed}`, { cwd: dir.path, home: dir.path, maxBytes: 1000, warn: (w) => warnings.push(w) });
    expect(warnings).toEqual([]);
    expect(content[0]).toMatchObject({ type: "text", text: expect.stringContaining("my CV") });
  });

  test("Tab completes it, spelled as it is on disk", () => {
    const from = { cwd: dir.path, providers: [], skills: [], remoteServers: [] };
    expect(completions("summarize @r\u00e9", from)).toEqual([`@${decomposed}`]);
    expect(completions(`summarize @${composed}`, from)).toEqual([`@${decomposed}`]);
  });
});

test("Ctrl-R finds é typed composed in a line holding it decomposed, at the place it is in the line as written", () => {
  const line = "open re\u0301sume\u0301.md now";
  expect(matchAt(line, "\u00e9")).toBe(6);
  expect(matchAt(line, "sum\u00e9")).toBe(8);
  expect(matchAt("open r\u00e9sum\u00e9.md", "e\u0301s")).toBe(6);
  expect(matchAt(line, "\u00e8")).toBe(-1);
});
