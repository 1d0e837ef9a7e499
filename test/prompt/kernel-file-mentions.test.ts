// An @mention of a /proc file, which stat calls empty: attached as it reads (a link to
// /proc/self/status), never as an empty block; a process's environment, which holds API keys, is
// refused by what it is and none of it goes into the prompt.
import { afterAll, expect, test } from "bun:test";
import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expandPrompt, MentionError } from "../../src/prompt/input.ts";
import { tempDir } from "../helpers/e2e.ts";

const dir = tempDir("hey-kernel-mentions-");
symlinkSync("/proc/self/status", join(dir.path, "status.txt"));
symlinkSync("/proc/self/environ", join(dir.path, "envdump.txt"));
writeFileSync(join(dir.path, "empty.txt"), "");
afterAll(() => dir.remove());

const expand = (message: string) => expandPrompt(message, { cwd: dir.path, home: dir.path, maxBytes: 1 << 20, warn: () => {} });

test("@status.txt (a link to /proc/self/status) attaches its lines; an empty file stays an empty block", () => {
  const [block] = expand("look at @status.txt");
  expect(block?.type === "text" ? block.text : "").toMatch(/^look at @status\.txt\n\n```status\.txt\nName:\t\S[^]*\n```$/);
  expect(expand("and @empty.txt")).toEqual([{ type: "text", text: "and @empty.txt\n\n```empty.txt\n\n```" }]);
});

test("@envdump.txt (a link to /proc/self/environ) is refused, naming what it is", () => {
  expect(() => expand("what is in @envdump.txt")).toThrow(MentionError);
  expect(() => expand("what is in @envdump.txt")).toThrow(
    /^@envdump\.txt \(\/proc\/\d+\/environ\): a process's environment, which holds its secrets \(API keys, tokens\); never read$/,
  );
});

test("a /proc file larger than the cap is cut there, as any file is", () => {
  const warned: string[] = [];
  const [block] = expandPrompt("@status.txt", { cwd: dir.path, home: dir.path, maxBytes: 10, warn: (m) => warned.push(m) });
  expect(block?.type === "text" ? block.text : "").toContain("Name:\t");
  expect(warned.join("\n")).toContain("status.txt");
});
